"""A new game's form: the title, its name, the seats, the title's options, and the Game's clock
fields with their cross-checks."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.addresses import BadAddress, read_address
from games.clock.terms import clock_problems
from games.forms.fields import NumberField, PlainTextField, WeekdaysField, check_timezone
from games.messages import Reading, say
from games.models import OPEN_SEAT, Game
from games.titles import choices as title_choices


def _number_fields(db_field, **kwargs):
    """Model integer fields become NumberFields (the model's bounds kept as validators)."""
    from django.db import models

    if isinstance(db_field, models.IntegerField) and not db_field.choices:
        return db_field.formfield(form_class=NumberField, **kwargs)
    return db_field.formfield(**kwargs)


CLOCK_FIELDS = Game.CLOCK_FIELDS

# Clock presets: each sets every clock field but the game's timezone and its vacation days (the
# host's own choices), so it can be posted alone, without script; with script the page fills the
# fields from the same values, which stay there for anyone who wants to change one.
PRESET_FIELDS = tuple(name for name in CLOCK_FIELDS if name not in ("timezone", "vacation_days"))
_NO_CLOCK: dict[str, Any] = {
    "decision_hours": None,
    "decision_minutes": None,
    "daily_deadline": None,
    "reminder_hours": None,
    "reminder_minutes": None,
    "timeout_policy": Game.TimeoutPolicy.DEFAULT,
    "bot_after_misses": None,
    "bank_hours": None,
    "bank_increment_hours": None,
    "bank_cap_hours": None,
    "quiet_days": "",
    "auto_vacation": False,
}
CLOCK_PRESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "day": (
        gettext_lazy("A move a day"),
        {**_NO_CLOCK, "decision_hours": 24, "reminder_hours": 4, "bot_after_misses": 3},
    ),
    "three_days": (
        gettext_lazy("3 days a move"),
        {**_NO_CLOCK, "decision_hours": 72, "reminder_hours": 12, "bot_after_misses": 3},
    ),
    "bank": (
        gettext_lazy("A 3-day bank, +1 day a move, weekends off"),
        {
            **_NO_CLOCK,
            "bank_hours": 72,
            "bank_increment_hours": 24,
            "reminder_hours": 12,
            "quiet_days": "sat,sun",
            "bot_after_misses": 3,
        },
    ),
    "quick": (gettext_lazy("Quick: 10 minutes a move"), {**_NO_CLOCK, "decision_minutes": 10, "reminder_minutes": 3}),
}
OWN_CLOCK = ""  # the preset menu's first choice: the fields as they are


def preset_values() -> dict[str, dict[str, Any]]:
    """Each preset's fields as a page's script sets them (JSON: strings, numbers, booleans)."""
    return {
        slug: {name: ("" if value is None else str(value)) for name, value in fields.items()}
        for slug, (_label, fields) in CLOCK_PRESETS.items()
    }


def clean_clock(cleaned: dict[str, Any]) -> list[tuple[str, Any]]:
    """The clock fields' cross-checks, as (field, message) errors (words, or a clock message to say);
    fills the model defaults for blanks."""

    from games.models import Game

    for name in ("timezone", "timeout_policy", "vacation_days"):
        if cleaned.get(name) in (None, ""):
            cleaned[name] = Game._meta.get_field(name).get_default()
    errors = []
    if cleaned.get("decision_hours") and cleaned.get("decision_minutes"):
        errors.append(("decision_minutes", _("Give the time per decision in hours or in minutes, not both.")))
    if cleaned.get("reminder_hours") and cleaned.get("reminder_minutes"):
        errors.append(("reminder_minutes", _("Give the reminder in hours or in minutes, not both.")))
    per = (cleaned.get("decision_minutes") or 0) * 60 + (cleaned.get("decision_hours") or 0) * 3600
    remind = (cleaned.get("reminder_minutes") or 0) * 60 + (cleaned.get("reminder_hours") or 0) * 3600
    if remind and per and remind >= per:
        errors.append(
            (
                "reminder_hours",
                _("The reminder must come before the deadline: make it shorter than the time per decision."),
            )
        )
    if remind and not per and not cleaned.get("daily_deadline") and not cleaned.get("bank_hours"):
        errors.append(("reminder_hours", _("A reminder needs a clock: set a time per decision or a time of day.")))
    if cleaned.get("bot_after_misses") == 0:
        errors.append(("bot_after_misses", _("Leave it empty for never, or give 1 or more.")))
    return errors + clock_problems(cleaned, settings.VACATION_DAYS)


def menu_title(asked: str) -> str:
    """The title a new-game page opens with: the one asked for if it exists, else the menu's first.

    The menu shows its first title as chosen when none is, so the form must post that one too (an
    empty title came back as "This field is required", and choosing the shown title again changed
    nothing, so there was no way out).
    """
    slugs = [slug for slug, _name in title_choices()]
    return asked if asked in slugs else slugs[0]


class NewGameForm(forms.Form):
    """Step one of a new game: the title, a name, the seats, the title's options and the clock."""

    title = forms.ChoiceField(choices=title_choices, label=gettext_lazy("Title"))
    name = PlainTextField(max_length=100, label=gettext_lazy("Name"))
    seats = forms.CharField(
        label=gettext_lazy("Seats"),
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=gettext_lazy(
            "One line per seat, in seat order: an email address to invite, the word open (a seat for "
            "whoever follows the game's join link), or the word bot."
        ),
    )

    def __init__(self, *args, schema=(), cardsets=(), slug: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.schema = list(schema)
        self.reading = Reading(title=slug)  # the title's option words are its messages
        if cardsets:  # (card set id, label): the title's usable sets this person may choose (cardsets.store)
            self.fields["cardset"] = forms.TypedChoiceField(
                coerce=int,
                choices=list(cardsets),
                initial=cardsets[0][0],
                label=_("Card set"),
                help_text=_("The cards this game is played with; the game keeps them even if the set changes later."),
            )
        for f in self.schema:
            if f.kind == "choice":
                field = forms.ChoiceField(choices=[(v, say(k, self.reading)) for v, k in f.choices], initial=f.default)
            elif f.kind == "bool":
                field = forms.BooleanField(required=False, initial=f.default)
            else:
                field = NumberField(min_value=f.low, max_value=f.high, initial=f.default)
            field.label, field.help_text = say(f.label, self.reading), say(f.help, self.reading)
            self.fields[f"opt_{f.name}"] = field
        self.fields["clock_preset"] = forms.ChoiceField(
            choices=[(OWN_CLOCK, _("My own settings (the fields below)"))]
            + [(slug, label) for slug, (label, _fields) in CLOCK_PRESETS.items()],
            required=False,
            label=_("Clock"),
            help_text=_("A preset sets the fields below; choose “My own settings” to use them as you fill them."),
        )
        self.fields.update(clock_fields())

    def option_fields(self):
        return [self[f"opt_{f.name}"] for f in self.schema]

    def option_groups(self) -> list[dict[str, Any]]:
        """The title's options as the page lays them out: a run of ticks that share one help line (Tanto
        Cuore's eighteen maids) is one grid of labelled checkboxes with the help said once."""
        groups: list[dict[str, Any]] = []
        for f in self.schema:
            last = groups[-1] if groups else None
            if f.kind == "bool" and last is not None and last["checks"] and last["raw"] == f.help:
                last["fields"].append(self[f"opt_{f.name}"])
            else:
                groups.append(
                    {
                        "checks": f.kind == "bool",
                        "help": say(f.help, self.reading),
                        "raw": f.help,
                        "fields": [self[f"opt_{f.name}"]],
                    }
                )
        return groups

    def cardset_field(self):
        return self["cardset"] if "cardset" in self.fields else None

    def clock_fields(self):
        return [self[name] for name in CLOCK_FIELDS]

    def preset_field(self):
        return self["clock_preset"]

    def presets(self) -> dict[str, dict[str, Any]]:
        return preset_values()

    def options(self) -> dict[str, Any]:
        return {f.name: self.cleaned_data[f"opt_{f.name}"] for f in self.schema}

    def clock_settings(self) -> dict[str, Any]:
        """Keyword arguments for organise.create_game: the Game's clock fields."""
        return {name: self.cleaned_data[name] for name in CLOCK_FIELDS}

    def clean_timezone(self) -> str:
        return check_timezone(self.cleaned_data.get("timezone") or "UTC")

    def clean(self):
        cleaned = super().clean()
        preset = CLOCK_PRESETS.get(cleaned.get("clock_preset") or OWN_CLOCK)
        if preset is not None:  # a preset posted (with or without script) sets the fields it names
            cleaned.update(preset[1])
        for field, message in clean_clock(cleaned):
            self.add_error(field, say(message))
        return cleaned

    def clean_seats(self) -> list[str | None]:
        lines = [ln.strip() for ln in self.cleaned_data["seats"].splitlines() if ln.strip()]
        seats: list[str | None] = []
        for ln in lines:
            if ln.lower() in ("bot", OPEN_SEAT):
                seats.append(None if ln.lower() == "bot" else OPEN_SEAT)
                continue
            try:
                seats.append(read_address(ln))
            except BadAddress:
                raise forms.ValidationError(
                    _("“%(line)s” is neither an email address nor one of the words open and bot.") % {"line": ln[:80]}
                ) from None
        emails = [s for s in seats if s and s != OPEN_SEAT]
        if len(set(emails)) != len(emails):
            raise forms.ValidationError(_("Each person can take only one seat."))
        if not emails and OPEN_SEAT not in seats:
            raise forms.ValidationError(_("At least one seat must be a person (or open, for the join link)."))
        return seats


def clock_fields() -> dict[str, forms.Field]:
    """The Game's clock fields as form fields; blanks take the model's defaults."""
    from games.models import Game

    fields = forms.fields_for_model(
        Game,
        fields=CLOCK_FIELDS,
        formfield_callback=_number_fields,
        widgets={"daily_deadline": forms.TimeInput(attrs={"type": "time"}, format="%H:%M")},
        labels={
            "decision_hours": _("Hours per decision"),
            "decision_minutes": _("Minutes per decision"),
            "daily_deadline": _("Daily deadline (time of day)"),
            "reminder_hours": _("Reminder, hours before"),
            "reminder_minutes": _("Reminder, minutes before"),
            "bot_after_misses": _("Hand a seat to a bot after this many misses"),
            "vacation_days": _("Vacation days a year"),
            "bank_hours": _("Time bank: starting hours"),
            "bank_increment_hours": _("Time bank: hours added per decision"),
            "bank_cap_hours": _("Time bank: at most (hours)"),
            "quiet_days": _("Quiet days (no clock runs)"),
            "auto_vacation": _("Draw vacation hours automatically before a timeout"),
        },
    )
    for name in ("timezone", "timeout_policy", "vacation_days"):
        fields[name].required = False
    fields["quiet_days"] = WeekdaysField(
        required=False, label=fields["quiet_days"].label, help_text=fields["quiet_days"].help_text
    )
    fields["vacation_days"].initial = settings.VACATION_DAYS
    return fields
