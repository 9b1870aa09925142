"""Time as people read it: absolute times in the reader's own timezone, and how long until a
deadline. Pages and emails both say times through here, so they say them the same way (calendar
files are written by games.calendar_files).

Pure (no Django): whatever a caller knows (the time now) it passes in.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from games.clock.terms import span, span_said
from games.engine.messages import Msg


def local_time(when: datetime | None, tz: str) -> str:
    """An absolute time in the reader's timezone, e.g. "Tue 24 Nov 2026, 20:00 (Europe/Lisbon)"."""
    if when is None:
        return ""
    try:
        zone = ZoneInfo(tz)
    except (KeyError, ValueError, OSError):
        zone, tz = ZoneInfo("UTC"), "UTC"
    try:
        return when.astimezone(zone).strftime(f"%a %d %b %Y, %H:%M ({tz})")
    except (OverflowError, ValueError):
        # at the calendar's very end the reader's zone cannot be reached: say it in UTC, never fail
        return when.strftime("%a %d %b %Y, %H:%M (UTC)") if when.utcoffset() == timedelta(0) else str(when)


def due_in(deadline: datetime | None, now: datetime) -> str:
    """How long until a deadline, in words ("1 day 4 h"); nothing once it has passed (or without one)."""
    return span(deadline - now) if deadline and deadline > now else ""


NOTHING: Msg = {"$m": ""}  # said as "" in every language (no catalogue holds the empty id)


def due_in_said(deadline: datetime | None, now: datetime) -> Msg:
    """due_in as a message (games.engine.messages), said in the reader's language; an empty message
    once the deadline has passed (or without one)."""
    return span_said(deadline - now) if deadline and deadline > now else NOTHING
