"""Time as people read it: absolute times in the reader's own timezone, and a deadline as a
calendar file. Pages and emails both say times through here, so they say them the same way.

Pure (no Django): whatever a caller knows of the site (its mail domain, the time now) it passes in.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from games.clock.terms import span


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


def deadline_ics(game_name: str, seat_pk: int, deadline: datetime, url: str, domain: str, now: datetime) -> str:
    """A one-event calendar file for the deadline, so it lands in the player's own calendar.

    `domain` names the site in the event's UID (the reply domain); `now` is its stamp.
    """
    stamp = deadline.astimezone(ZoneInfo("UTC")).strftime("%Y%m%dT%H%M%SZ")
    made = now.astimezone(ZoneInfo("UTC")).strftime("%Y%m%dT%H%M%SZ")
    summary = f"Your move is due in {game_name}".replace(",", "\\,").replace(";", "\\;")
    return "\r\n".join(
        [
            "BEGIN:VCALENDAR",
            "VERSION:2.0",
            "PRODID:-//Cafe turns//EN",
            "METHOD:PUBLISH",
            "BEGIN:VEVENT",
            f"UID:deadline-{seat_pk}-{stamp}@{domain}",
            f"DTSTAMP:{made}",
            f"DTSTART:{stamp}",
            f"DTEND:{stamp}",
            f"SUMMARY:{summary}",
            f"URL:{url}",
            "END:VEVENT",
            "END:VCALENDAR",
            "",
        ]
    )
