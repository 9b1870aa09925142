"""Prompts as plain HTML forms, and form posts back into answers.

Generated from the prompt's data, so every title's every question works in a browser without
JavaScript, and a post can only ever name options that were offered (the engine checks again).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from accounts.addresses import AddressField, BadAddress, read_address
from games.clock import terms as clock_terms
from games.clock.terms import clock_problems
from games.engine.typed import Unreadable, check_period, clean_text, read_int
from games.titles import choices as title_choices

from .models import OPEN_SEAT, Game


def render_prompt(p: dict[str, Any], prefix: str = "answer") -> SafeString:
    """The form fields for one prompt (the <form> and its buttons are the template's)."""
    kind = p["kind"]
    if kind == "choose":
        return _options(p, prefix, "radio", required=True)
    if kind == "choose_many":
        hint = (
            f"Pick exactly {p['min_count']}."
            if p["min_count"] == p["max_count"]
            else f"Pick {p['min_count']} to {p['max_count']}."
        )
        return format_html('<p class="hint">{}</p>{}', hint, _options(p, prefix, "checkbox", required=False))
    if kind == "number":
        return format_html(
            '<label class="number">Your number ({}–{}) <input type="number" name="{}" min="{}" max="{}" required autocomplete="off"></label>',
            p["low"],
            p["high"],
            prefix,
            p["low"],
            p["high"],
        )
    if kind == "order":
        # a plain list (no printed 1, 2, 3... beside the rank boxes, which would read as ranks too), each
        # rank box first and spaced from its label
        n = len(p["options"])
        rows = format_html_join(
            "",
            '<li class="rank"><label><input type="number" name="{}.{}" min="1" max="{}" value="{}" required '
            'autocomplete="off" inputmode="numeric" aria-describedby="{}-rank-help"><span class="label">{}</span></label>'
            '<span class="detail">{}</span></li>',
            ((prefix, o["id"], n, i + 1, prefix, o["label"], o["detail"]) for i, o in enumerate(p["options"])),
        )
        return format_html(
            '<p class="hint" id="{}-rank-help">Number them 1 (first) to {}.</p><ul class="ranks">{}</ul>',
            prefix,
            n,
            rows,
        )
    if kind == "composite":
        parts = [
            format_html(
                "<fieldset><legend>{}</legend>{}</fieldset>",
                part["text"],
                render_prompt(part, f"{prefix}.{part['name']}"),
            )
            for part in p["parts"]
        ]
        return mark_safe("".join(parts))  # noqa: S308 - every part was built with format_html
    raise ValueError(f"unknown prompt kind {kind}")


def _options(p: dict[str, Any], name: str, input_type: str, required: bool) -> SafeString:
    # autocomplete="off": a browser must never restore a pick onto a later question by position
    req = " required" if required else ""
    items = format_html_join(
        "",
        '<li><label class="option"><input type="{}" name="{}" value="{}" autocomplete="off"' + req + ">"
        '<span class="label">{}</span> <span class="detail">{}</span></label></li>',
        ((input_type, name, o["id"], o["label"], o["detail"]) for o in p["options"]),
    )
    return format_html('<ul class="options {}">{}</ul>', input_type, items)


class NumberField(forms.IntegerField):
    """A whole number typed by a person, read by the one parser every page and reply uses."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        try:
            return read_int(value if isinstance(value, int) else str(value))
        except Unreadable as e:
            raise forms.ValidationError(str(e), code="invalid") from None


class PlainTextField(forms.CharField):
    """Text a person writes, cleaned the one way (games.engine.typed.clean_text) and bounded."""

    def __init__(self, *, max_length: int, multiline: bool = False, **kwargs):
        self.multiline = multiline
        super().__init__(max_length=max_length, **kwargs)

    def to_python(self, value):
        try:
            return clean_text(value, self.max_length, what="This text", multiline=self.multiline)
        except Unreadable as e:
            raise forms.ValidationError(str(e), code="max_length") from None


def _number_fields(db_field, **kwargs):
    """Model integer fields become NumberFields (the model's bounds kept as validators)."""
    from django.db import models

    if isinstance(db_field, models.IntegerField) and not db_field.choices:
        return db_field.formfield(form_class=NumberField, **kwargs)
    return db_field.formfield(**kwargs)


CLOCK_FIELDS = Game.CLOCK_FIELDS


def _check_timezone(tz: str) -> str:
    from zoneinfo import ZoneInfo

    tz = (tz or "").strip()
    try:
        ZoneInfo(tz)
    except (KeyError, ValueError, OSError):
        shown = clean_text(tz[:40], 40, multiline=False)
        raise forms.ValidationError(f"“{shown}” is not a timezone name, e.g. Europe/Lisbon.") from None
    return tz


def _zone(tz: str):
    """The reader's zone; a stored name that no longer loads falls back to UTC, never an error."""
    from zoneinfo import ZoneInfo

    try:
        return ZoneInfo(tz)
    except (KeyError, ValueError, OSError):
        return ZoneInfo("UTC")


def clean_clock(cleaned: dict[str, Any]) -> list[tuple[str, str]]:
    """The clock fields' cross-checks, as (field, message) errors; fills the model defaults for blanks."""
    from .models import Game

    for name in ("timezone", "timeout_policy", "vacation_days"):
        if cleaned.get(name) in (None, ""):
            cleaned[name] = Game._meta.get_field(name).get_default()
    errors = []
    if cleaned.get("decision_hours") and cleaned.get("decision_minutes"):
        errors.append(("decision_minutes", "Give the time per decision in hours or in minutes, not both."))
    if cleaned.get("reminder_hours") and cleaned.get("reminder_minutes"):
        errors.append(("reminder_minutes", "Give the reminder in hours or in minutes, not both."))
    per = (cleaned.get("decision_minutes") or 0) * 60 + (cleaned.get("decision_hours") or 0) * 3600
    remind = (cleaned.get("reminder_minutes") or 0) * 60 + (cleaned.get("reminder_hours") or 0) * 3600
    if remind and per and remind >= per:
        errors.append(
            (
                "reminder_hours",
                "The reminder must come before the deadline: make it shorter than the time per decision.",
            )
        )
    if remind and not per and not cleaned.get("daily_deadline") and not cleaned.get("bank_hours"):
        errors.append(("reminder_hours", "A reminder needs a clock: set a time per decision or a time of day."))
    if cleaned.get("bot_after_misses") == 0:
        errors.append(("bot_after_misses", "Leave it empty for never, or give 1 or more."))
    return errors + clock_problems(cleaned, settings.VACATION_DAYS)


def menu_title(asked: str) -> str:
    """The title a new-game page opens with: the one asked for if it exists, else the menu's first.

    The menu shows its first title as chosen when none is, so the form must post that one too (an
    empty title came back as "This field is required", and choosing the shown title again changed
    nothing, so there was no way out).
    """
    slugs = [slug for slug, _ in title_choices()]
    return asked if asked in slugs else slugs[0]


class NewGameForm(forms.Form):
    """Step one of a new game: the title, a name, the seats, the title's options and the clock."""

    title = forms.ChoiceField(choices=title_choices)
    name = PlainTextField(max_length=100)
    seats = forms.CharField(
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="One line per seat, in seat order: an email address to invite, the word open (a seat for "
        "whoever follows the game's join link), or the word bot.",
    )

    def __init__(self, *args, schema=(), cardsets=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.schema = list(schema)
        if cardsets:  # (card set id, label): the title's usable sets this person may choose (cardsets.store)
            self.fields["cardset"] = forms.TypedChoiceField(
                coerce=int,
                choices=list(cardsets),
                initial=cardsets[0][0],
                label="Card set",
                help_text="The cards this game is played with; the game keeps them even if the set changes later.",
            )
        for f in self.schema:
            if f.kind == "choice":
                field = forms.ChoiceField(choices=f.choices, initial=f.default)
            elif f.kind == "bool":
                field = forms.BooleanField(required=False, initial=f.default)
            else:
                field = NumberField(min_value=f.low, max_value=f.high, initial=f.default)
            field.label, field.help_text = f.label, f.help
            self.fields[f"opt_{f.name}"] = field
        self.fields.update(clock_fields())

    def option_fields(self):
        return [self[f"opt_{f.name}"] for f in self.schema]

    def option_groups(self) -> list[dict[str, Any]]:
        """The title's options as the page lays them out: a run of ticks that share one help line (Tanto
        Cuore's eighteen maids) is one grid of labelled checkboxes with the help said once."""
        groups: list[dict[str, Any]] = []
        for f in self.schema:
            last = groups[-1] if groups else None
            if f.kind == "bool" and last is not None and last["checks"] and last["help"] == f.help:
                last["fields"].append(self[f"opt_{f.name}"])
            else:
                groups.append({"checks": f.kind == "bool", "help": f.help, "fields": [self[f"opt_{f.name}"]]})
        return groups

    def cardset_field(self):
        return self["cardset"] if "cardset" in self.fields else None

    def clock_fields(self):
        return [self[name] for name in CLOCK_FIELDS]

    def options(self) -> dict[str, Any]:
        return {f.name: self.cleaned_data[f"opt_{f.name}"] for f in self.schema}

    def clock_settings(self) -> dict[str, Any]:
        """Keyword arguments for organise.create_game: the Game's clock fields."""
        return {name: self.cleaned_data[name] for name in CLOCK_FIELDS}

    def clean_timezone(self) -> str:
        return _check_timezone(self.cleaned_data.get("timezone") or "UTC")

    def clean(self):
        cleaned = super().clean()
        for field, message in clean_clock(cleaned):
            self.add_error(field, message)
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
                    f"“{ln[:80]}” is neither an email address nor one of the words open and bot."
                ) from None
        emails = [s for s in seats if s and s != OPEN_SEAT]
        if len(set(emails)) != len(emails):
            raise forms.ValidationError("Each person can take only one seat.")
        if not emails and OPEN_SEAT not in seats:
            raise forms.ValidationError("At least one seat must be a person (or open, for the join link).")
        return seats


def clock_fields() -> dict[str, forms.Field]:
    """The Game's clock fields as form fields; blanks take the model's defaults."""
    from .models import Game

    fields = forms.fields_for_model(
        Game,
        fields=CLOCK_FIELDS,
        formfield_callback=_number_fields,
        widgets={"daily_deadline": forms.TimeInput(attrs={"type": "time"}, format="%H:%M")},
        labels={
            "decision_hours": "Hours per decision",
            "decision_minutes": "Minutes per decision",
            "daily_deadline": "Daily deadline (time of day)",
            "reminder_hours": "Reminder, hours before",
            "reminder_minutes": "Reminder, minutes before",
            "bot_after_misses": "Hand a seat to a bot after this many misses",
            "vacation_days": "Vacation days a year",
            "bank_hours": "Time bank: starting hours",
            "bank_increment_hours": "Time bank: hours added per decision",
            "bank_cap_hours": "Time bank: at most (hours)",
            "quiet_days": "Quiet days (no clock runs)",
            "auto_vacation": "Draw vacation hours automatically before a timeout",
        },
    )
    for name in ("timezone", "timeout_policy", "vacation_days"):
        fields[name].required = False
    fields["quiet_days"] = WeekdaysField(
        required=False, label=fields["quiet_days"].label, help_text=fields["quiet_days"].help_text
    )
    fields["vacation_days"].initial = settings.VACATION_DAYS
    return fields


def _normal_weekdays(text: str) -> str:
    return clock_terms.weekdays_text(clock_terms.read_weekdays(text))


def _normal_quiet_hours(text: str) -> str:
    return clock_terms.quiet_hours_text(clock_terms.read_quiet_hours(text))


def _normal_points(text: str) -> str:
    return clock_terms.points_text(clock_terms.read_reminder_points(text))


class _ReadField(forms.CharField):
    """Text read by one of games.clock.terms' parsers (`normal`) and stored in the parser's normal form."""

    normal = staticmethod(str)

    def __init__(self, **kwargs):
        kwargs["max_length"] = None  # the parser bounds the text, with a message in words
        super().__init__(**kwargs)
        self.widget.attrs.setdefault("maxlength", str(clock_terms.MAX_TEXT))

    def to_python(self, value):
        text = super().to_python(value)
        try:
            return self.normal(text)
        except Unreadable as e:
            raise forms.ValidationError(str(e), code="invalid") from None


class WeekdaysField(_ReadField):
    normal = staticmethod(_normal_weekdays)


class QuietHoursField(_ReadField):
    normal = staticmethod(_normal_quiet_hours)


class ReminderPointsField(_ReadField):
    normal = staticmethod(_normal_points)


# --- the seat page's small forms --------------------------------------------------------------


class VacationForm(forms.Form):
    """From and to dates, both days included, in the player's own timezone."""

    starts = forms.DateField(label="From (first day away)", widget=forms.DateInput(attrs={"type": "date"}))
    ends = forms.DateField(label="To (last day away)", widget=forms.DateInput(attrs={"type": "date"}))

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


PLAN_RANKS = (("first", "First choice"), ("second", "Second choice"), ("third", "Third choice"))


class PlanForm(forms.Form):
    """Up to three answers left in advance, in order, from the options of the question to come."""

    def __init__(self, *args, options=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "(none)")] + [(o["id"], o["label"]) for o in options]
        for i, (name, label) in enumerate(PLAN_RANKS):
            self.fields[name] = forms.ChoiceField(choices=choices, required=i == 0, label=label)
        self.fields["first"].error_messages["required"] = "Pick at least a first choice."

    def answers(self) -> list[str]:
        picked = [self.cleaned_data.get(name) for name, _ in PLAN_RANKS]
        return [p for p in picked if p]

    def clean(self):
        cleaned = super().clean()
        picked = [cleaned.get(name) for name, _ in PLAN_RANKS]
        chosen = [p for p in picked if p]
        if len(set(chosen)) != len(chosen):
            raise forms.ValidationError("Each choice can be ranked only once.")
        if picked[2] and not picked[1]:
            raise forms.ValidationError("Give a second choice before a third.")
        return cleaned


class TalkForm(forms.Form):
    text = PlainTextField(
        label="Your message",
        max_length=2000,
        multiline=True,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": 2000}),
        help_text="Plain text, seen by everyone at the table and mailed to them.",
    )


# --- organisers' admin actions ----------------------------------------------------------------


class ReasonForm(forms.Form):
    """Every organiser action is recorded with who did it and why."""

    reason = PlainTextField(
        max_length=300,
        multiline=True,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        help_text="Recorded in the game's log with your name.",
    )

    def __init__(self, *args, game=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        # the reason comes last, after what the action needs
        self.order_fields([n for n in self.fields if n != "reason"] + ["reason"])


def _seat_choices(game, people_only: bool = False) -> list[tuple[str, str]]:
    seats = game.seats.select_related("player")
    out = []
    for s in seats:
        if people_only and (s.player_id is None or s.is_bot):
            continue
        who = f"{s.name} <{s.player.email}>" if s.player_id else s.name
        extra = " (a bot stands in)" if s.stand_in else (" (bot)" if s.is_bot else "")
        out.append((str(s.index), f"Seat {s.index + 1}: {who}{extra}"))
    return out


class ExtendForm(ReasonForm):
    hours = forms.FloatField(min_value=0.25, max_value=24 * 30, label="Hours to add", initial=24)

    def __init__(self, *args, game=None, **kwargs):
        super().__init__(*args, game=game, **kwargs)
        if game is not None:
            waiting = [(str(s.index), s.name) for s in game.seats.select_related("player").exclude(deadline=None)]
            self.fields["seat"] = forms.ChoiceField(
                choices=[("", "Every seat with a deadline")] + waiting, required=False, label="Whose deadline"
            )
            self.order_fields(["hours", "seat", "reason"])


class SeatPickForm(ReasonForm):
    people_only = False

    def __init__(self, *args, game=None, **kwargs):
        super().__init__(*args, game=game, **kwargs)
        self.fields["seat"] = forms.ChoiceField(
            choices=_seat_choices(game, self.people_only), label="Seat", widget=forms.RadioSelect
        )
        self.order_fields([n for n in self.fields if n != "reason"] + ["reason"])


class PeopleSeatForm(SeatPickForm):
    people_only = True


class ReplaceForm(SeatPickForm):
    email = AddressField(label="The new player's email address")

    def __init__(self, *args, game=None, **kwargs):
        super().__init__(*args, game=game, **kwargs)
        self.order_fields(["seat", "email", "reason"])


class RewindForm(ReasonForm):
    """Pick the step to go back to; every later step is voided (and stays visible in the log)."""

    def __init__(self, *args, game=None, steps=(), **kwargs):
        super().__init__(*args, game=game, **kwargs)
        self.fields["step"] = forms.ChoiceField(
            choices=steps, label="Go back to the table as it was after", widget=forms.RadioSelect
        )
        self.order_fields(["step", "reason"])


class PreferencesForm(forms.ModelForm):
    """How a player wants to hear from the service; their games go on whatever they pick."""

    name = PlainTextField(max_length=80, required=False)

    class Meta:
        from accounts.models import User

        model = User
        fields = ["name", "email_mode", "digest_hour", "timezone", "quiet_hours", "reminder_points", "unsubscribed"]
        field_classes = {
            "digest_hour": NumberField,
            "quiet_hours": QuietHoursField,
            "reminder_points": ReminderPointsField,
        }
        labels = {
            "unsubscribed": "No email at all (I will check my games myself)",
            "quiet_hours": "Quiet hours (no deadline of mine falls in them)",
            "reminder_points": "Remind me before a deadline",
        }

    def clean_timezone(self) -> str:
        return _check_timezone(self.cleaned_data["timezone"])

    def clean_digest_hour(self) -> int:
        hour = self.cleaned_data["digest_hour"]
        if not 0 <= hour <= 23:
            raise forms.ValidationError("An hour from 0 to 23.")
        return hour
