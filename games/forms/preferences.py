"""A player's preferences: how they want to hear from the service, in their own timezone."""

from __future__ import annotations

from functools import cache

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.forms.fields import NumberField, PlainTextField, QuietHoursField, ReminderPointsField, check_timezone

# the regions of the tz database's canonical names (its links, e.g. US/Eastern, stay valid when typed)
REGIONS = ("Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific")
# the regions as the picker names them, in the reader's language (the zones keep their tz names)
REGION_NAMES = {
    "Africa": pgettext_lazy("time zone region", "Africa"),
    "America": pgettext_lazy("time zone region", "America"),
    "Antarctica": pgettext_lazy("time zone region", "Antarctica"),
    "Arctic": pgettext_lazy("time zone region", "Arctic"),
    "Asia": pgettext_lazy("time zone region", "Asia"),
    "Atlantic": pgettext_lazy("time zone region", "Atlantic"),
    "Australia": pgettext_lazy("time zone region", "Australia"),
    "Europe": pgettext_lazy("time zone region", "Europe"),
    "Indian": pgettext_lazy("time zone region", "Indian"),
    "Pacific": pgettext_lazy("time zone region", "Pacific"),
}


@cache
def timezone_choices() -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """The picker's zones grouped by region ("Europe": Europe/Lisbon…), UTC first; read once (walking
    the tz database takes a moment)."""
    from zoneinfo import available_timezones

    groups: dict[str, list[tuple[str, str]]] = {}
    for name in sorted(available_timezones()):
        region, _, place = name.partition("/")
        if region in REGIONS and place:
            groups.setdefault(region, []).append((name, place.replace("_", " ").replace("/", " / ")))
    return (
        ("", (("UTC", "UTC"),)),
        *((REGION_NAMES[region], tuple(groups[region])) for region in REGIONS if region in groups),
    )


class TimezoneSelect(forms.Select):
    """The zones as a menu; a saved zone outside it (typed before, or an old link name) is kept as a choice."""

    def __init__(self, attrs=None):
        super().__init__({"data-browser-zone": "", **(attrs or {})})

    def optgroups(self, name, value, attrs=None):
        known = {zone for _, zones in timezone_choices() for zone, _ in zones}
        self.choices = list(timezone_choices())
        extra = [v for v in value if v and v not in known]
        if extra:
            self.choices.insert(0, ("", tuple((v, v) for v in extra)))
        return super().optgroups(name, value, attrs)


def digest_hours() -> list[tuple[int, str]]:
    return [(hour, f"{hour:02d}:00") for hour in range(24)]


class PreferencesForm(forms.ModelForm):
    """How a player wants to hear from the service; their games go on whatever they pick."""

    name = PlainTextField(max_length=80, required=False, label=gettext_lazy("Name"))

    class Meta:
        from accounts.models import User

        model = User
        fields = [
            "name",
            "language",
            "email_mode",
            "digest_hour",
            "timezone",
            "quiet_hours",
            "reminder_points",
            "unsubscribed",
        ]
        field_classes = {
            "digest_hour": NumberField,
            "quiet_hours": QuietHoursField,
            "reminder_points": ReminderPointsField,
        }
        widgets = {"digest_hour": forms.Select(choices=digest_hours()), "timezone": TimezoneSelect()}
        labels = {
            "digest_hour": gettext_lazy("Daily digest at (your time)"),
            "unsubscribed": gettext_lazy("No email at all (I will check my games myself)"),
            "quiet_hours": gettext_lazy("Quiet hours (no deadline of mine falls in them)"),
            "reminder_points": gettext_lazy("Remind me before a deadline"),
            "language": gettext_lazy("Language"),
        }
        help_texts = {"digest_hour": gettext_lazy("When the one daily email goes, if you choose the digest.")}

    def clean_timezone(self) -> str:
        return check_timezone(self.cleaned_data["timezone"])

    def clean_digest_hour(self) -> int:
        hour = self.cleaned_data["digest_hour"]
        if not 0 <= hour <= 23:
            raise forms.ValidationError(_("An hour from 0 to 23."))

        return hour
