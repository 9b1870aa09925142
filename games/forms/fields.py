"""The typed fields every form here uses: whole numbers and plain text read by the one parser of
each (games.engine.typed), clock values read by games.clock.terms, a timezone name."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _

from games.clock import terms as clock_terms
from games.engine.typed import Unreadable, clean_text, read_int
from games.messages import say


def said(e: Exception) -> str:
    """A refusal's words: a parser's message (games.engine.messages) or its text, in the reader's language."""
    return say(e.args[0]) if e.args else str(e)


class NumberField(forms.IntegerField):
    """A whole number typed by a person, read by the one parser every page and reply uses."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        try:
            return read_int(value if isinstance(value, int) else str(value))
        except Unreadable as e:
            raise forms.ValidationError(said(e), code="invalid") from None


class PlainTextField(forms.CharField):
    """Text a person writes, cleaned the one way (games.engine.typed.clean_text) and bounded."""

    def __init__(self, *, max_length: int, multiline: bool = False, **kwargs):
        self.multiline = multiline
        super().__init__(max_length=max_length, **kwargs)

    def to_python(self, value):
        try:
            return clean_text(value, self.max_length, what="This text", multiline=self.multiline)
        except Unreadable as e:
            raise forms.ValidationError(said(e), code="max_length") from None


def check_timezone(tz: str) -> str:
    from zoneinfo import ZoneInfo

    tz = (tz or "").strip()
    try:
        ZoneInfo(tz)
    except (KeyError, ValueError, OSError):
        shown = clean_text(tz[:40], 40, multiline=False)
        raise forms.ValidationError(
            _("“%(zone)s” is not a timezone name, e.g. Europe/Lisbon.") % {"zone": shown}
        ) from None

    return tz


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
            raise forms.ValidationError(said(e), code="invalid") from None


class WeekdaysField(_ReadField):
    normal = staticmethod(_normal_weekdays)


class QuietHoursField(_ReadField):
    normal = staticmethod(_normal_quiet_hours)


class ReminderPointsField(_ReadField):
    normal = staticmethod(_normal_points)
