"""The seat page's small forms: a vacation (also the absence calendar's), answers left in advance,
table talk."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine.typed import Unreadable, check_period
from games.forms.fields import PlainTextField


def _zone(tz: str):
    """The reader's zone; a stored name that no longer loads falls back to UTC, never an error."""
    from zoneinfo import ZoneInfo

    try:
        return ZoneInfo(tz)
    except (KeyError, ValueError, OSError):
        return ZoneInfo("UTC")


class VacationForm(forms.Form):
    """From and to dates, both days included, in the player's own timezone."""

    starts = forms.DateField(
        label=gettext_lazy("From (first day away)"), widget=forms.DateInput(attrs={"type": "date"})
    )
    ends = forms.DateField(label=gettext_lazy("To (last day away)"), widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, tz: str = "UTC", **kwargs):
        super().__init__(*args, **kwargs)
        self.zone = _zone(tz)

    def clean(self):
        from datetime import datetime

        cleaned = super().clean()
        if cleaned.get("starts") and cleaned.get("ends"):
            today = datetime.now(self.zone).date()
            try:
                check_period(cleaned["starts"], cleaned["ends"], today)
            except Unreadable as e:
                raise forms.ValidationError(str(e)) from None
        return cleaned

    def period(self, tz: str | None = None):
        """(starts, ends) as aware datetimes: from the first day's midnight to the midnight after the last."""
        from datetime import datetime, time, timedelta

        zone = _zone(tz) if tz else self.zone
        starts = datetime.combine(self.cleaned_data["starts"], time.min, tzinfo=zone)
        ends = datetime.combine(self.cleaned_data["ends"] + timedelta(days=1), time.min, tzinfo=zone)
        return starts, ends


PLAN_RANKS = (
    ("first", gettext_lazy("First choice")),
    ("second", gettext_lazy("Second choice")),
    ("third", gettext_lazy("Third choice")),
)


class PlanForm(forms.Form):
    """Up to three answers left in advance, in order, from the options of the question to come."""

    def __init__(self, *args, options=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", _("(none)"))] + [(o["id"], o["label"]) for o in options]
        for i, (name, label) in enumerate(PLAN_RANKS):
            self.fields[name] = forms.ChoiceField(choices=choices, required=i == 0, label=label)
        self.fields["first"].error_messages["required"] = _("Pick at least a first choice.")

    def answers(self) -> list[str]:
        picked = [self.cleaned_data.get(name) for name, _ in PLAN_RANKS]
        return [p for p in picked if p]

    def clean(self):
        cleaned = super().clean()
        picked = [cleaned.get(name) for name, _ in PLAN_RANKS]
        chosen = [p for p in picked if p]
        if len(set(chosen)) != len(chosen):
            raise forms.ValidationError(_("Each choice can be ranked only once."))
        if picked[2] and not picked[1]:
            raise forms.ValidationError(_("Give a second choice before a third."))
        return cleaned


class TalkForm(forms.Form):
    text = PlainTextField(
        label=gettext_lazy("Your message"),
        max_length=2000,
        multiline=True,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": 2000}),
        help_text=gettext_lazy("Plain text, seen by everyone at the table and mailed to them."),
    )
