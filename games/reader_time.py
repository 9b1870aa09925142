"""Times and dates as a reader reads them, on a page, in a mail or a ping, in their active language.

English keeps the words every email has always used ("Tue 24 Nov 2026, 20:00 (Europe/Lisbon)",
games.clock.shown.local_time); another language writes the same moment in its own order, names
and digits (Babel's CLDR patterns), always with the reader's timezone named after it.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from babel.dates import format_skeleton
from django.utils import translation

from .clock.shown import local_time as english_time
from .messages import _locale


def local_time(when: datetime | None, tz: str) -> str:
    """An absolute time in the reader's timezone and language."""
    if when is None:
        return ""
    code = translation.get_language() or "en"
    if code.split("-")[0] == "en":
        return english_time(when, tz)
    try:
        zone = ZoneInfo(tz)
    except (KeyError, ValueError, OSError):
        zone, tz = ZoneInfo("UTC"), "UTC"
    locale = _locale(code)
    try:
        there = when.astimezone(zone)
        day = format_skeleton("yMMMEd", there, locale=locale)
        hour = format_skeleton("Hm", there, locale=locale)
    except (OverflowError, ValueError, KeyError):
        return english_time(when, tz)
    joined = str(locale.datetime_formats.get("medium", "{1} {0}"))
    return f"{joined.replace('{1}', day).replace('{0}', hour)} ({tz})"
