"""{{ moment|ago }}: how long ago, as people say it ("just now", "5 minutes ago"), never "0 minutes ago";
and local_time, games.clock.shown's absolute time with the day and month named in the reader's language."""

from __future__ import annotations

from datetime import datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.timesince import timesince
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.clock import shown

register = template.Library()

JUST_NOW = timedelta(minutes=1)  # under a minute, timesince says "0 minutes"


@register.filter
def ago(moment: datetime | None, now: datetime | None = None) -> str:
    """ "just now" under a minute, else Django's "3 hours, 5 minutes ago"; nothing for no moment."""
    if not isinstance(moment, datetime):
        return ""
    now = now or timezone.now()
    if now - moment < JUST_NOW:
        return _("just now")
    return _("%(delta)s ago") % {"delta": timesince(moment, now)}


def local_time(when: datetime | None, tz: str) -> str:
    """An absolute time in the reader's timezone, "Tue 24 Nov 2026, 20:00 (Europe/Lisbon)", its day
    and month named in the active language (games.clock.shown.local_time says it in English)."""
    if when is None:
        return ""
    from zoneinfo import ZoneInfo

    try:
        zone = ZoneInfo(tz)
    except (KeyError, ValueError, OSError):
        zone, tz = ZoneInfo("UTC"), "UTC"
    try:
        local = when.astimezone(zone)
    except (OverflowError, ValueError):
        return shown.local_time(when, tz)  # at the calendar's very end: as the clock says it
    # Translators: a date format (Django's date letters): day name, day, month name, year, 24-hour time
    pattern = pgettext("local time", "D d M Y, H:i")
    return _("%(when)s (%(zone)s)") % {"when": date_format(local, pattern), "zone": tz}
