"""The clock in words, both ways: the one bounded parser per kind of clock setting a person types
(quiet weekdays, quiet hours, reminder points) and the rules of a game's clock said in words.

Pure (no Django): the new-game form, the admin, the profile page and the tests all read through
these, and each stored value is the parser's normal form, so it reads back the same.
"""

from __future__ import annotations

import re
from datetime import time, timedelta
from functools import lru_cache

from games.clock.calendar import QuietHours
from games.clock.rules import Clock
from games.engine.typed import Unreadable
from games.engine.words import counted

MAX_TEXT = 80  # longer than any sensible list: refused before it is looked at
MAX_POINTS = 6
LONGEST_POINT = timedelta(days=30)
LONGEST_NIGHT = timedelta(hours=16)
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_DAY_NAMES = {name: i for i, name in enumerate(WEEKDAYS)} | {
    full: i for i, full in enumerate(("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"))
}
_DAY_NAMES |= {"weekend": -1, "weekends": -1}
_POINT = re.compile(r"^(\d{1,4})\s*(m|min|mins|minutes?|h|hours?|d|days?)$")
_CLOCK_TIME = re.compile(r"^(\d{1,2})(?::(\d{2}))?$")


def _bounded(text: object, what: str) -> str:
    if not isinstance(text, str):
        raise Unreadable(f"Write {what} as text.")
    text = text.strip().lower()
    if len(text) > MAX_TEXT:
        raise Unreadable(f"That is too long for {what} (at most {MAX_TEXT} characters).")
    return text


def _items(text: str, spaces: bool = True) -> list[str]:
    """The list's items: split at commas, semicolons and "and" (and spaces, where items have none)."""
    parts = re.split(r"[,;]|\band\b" + (r"|\s+" if spaces else ""), text)
    return [part.strip() for part in parts if part.strip()]


def read_weekdays(text: object) -> frozenset[int]:
    """ "sat, sun" (or "weekend", or full names) -> {5, 6}; empty -> none. At least one day must run."""
    text = _bounded(text, "quiet days")
    days: set[int] = set()
    for item in _items(text):
        if item not in _DAY_NAMES:
            raise Unreadable(f"“{item[:20]}” is not a day of the week: write e.g. sat, sun.")
        days |= {5, 6} if _DAY_NAMES[item] < 0 else {_DAY_NAMES[item]}
    if len(days) == 7:
        raise Unreadable("Leave at least one day of the week on which the clock runs.")
    return frozenset(days)


@lru_cache(maxsize=64)
def stored_weekdays(stored: str) -> frozenset[int]:
    """A stored quiet-days text as the clock reads it (one that no longer reads: none)."""
    try:
        return read_weekdays(stored)
    except Unreadable:
        return frozenset()


def weekdays_text(days: frozenset[int]) -> str:
    """The stored (normal) form: "sat,sun"."""
    return ",".join(WEEKDAYS[d] for d in sorted(days))


def _read_clock_time(part: str) -> time:
    m = _CLOCK_TIME.match(part.strip())
    if not m:
        raise Unreadable(f"“{part.strip()[:10]}” is not a time of day: write e.g. 23:00-07:00.")
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    if hour > 23 or minute > 59:
        raise Unreadable(f"“{part.strip()[:10]}” is not a time of day: hours 0 to 23, minutes 0 to 59.")
    return time(hour, minute)


def read_quiet_hours(text: object) -> tuple[time, time] | None:
    """ "23:00-07:00" (or "23-7") -> (23:00, 07:00); empty -> None. At most 16 hours, never the whole day."""
    text = _bounded(text, "quiet hours")
    if not text:
        return None
    parts = re.split(r"\s*(?:-|–|to)\s*", text)
    if len(parts) != 2:
        raise Unreadable("Write quiet hours as from-to, e.g. 23:00-07:00.")
    start, end = _read_clock_time(parts[0]), _read_clock_time(parts[1])
    minutes = (end.hour * 60 + end.minute - start.hour * 60 - start.minute) % (24 * 60)
    if minutes == 0:
        raise Unreadable("Quiet hours must end at another time than they start.")
    if timedelta(minutes=minutes) > LONGEST_NIGHT:
        raise Unreadable("Quiet hours can last at most 16 hours.")
    return start, end


def quiet_hours_text(hours: tuple[time, time] | None) -> str:
    return f"{hours[0]:%H:%M}-{hours[1]:%H:%M}" if hours else ""


@lru_cache(maxsize=512)
def quiet_hours(stored: str, tz: str) -> QuietHours | None:
    """A stored quiet-hours text as the clock reads it (a stored value that no longer reads: none)."""
    try:
        hours = read_quiet_hours(stored)
    except Unreadable:
        return None
    return QuietHours(hours[0], hours[1], tz) if hours else None


def read_reminder_points(text: object) -> tuple[timedelta, ...]:
    """ "24h, 4h, 1h" -> (24 h, 4 h, 1 h), longest first; empty -> () (the game's reminder). Up to 6, each 1 min to 30 days."""
    text = _bounded(text, "reminder points")
    points: set[timedelta] = set()
    for item in _items(text, spaces=False):
        m = _POINT.match(item)
        if not m:
            raise Unreadable(f"“{item[:20]}” is not a time before the deadline: write e.g. 24h, 4h, 30m.")
        n, unit = int(m.group(1)), m.group(2)[0]
        point = timedelta(minutes=n) if unit == "m" else timedelta(hours=n) if unit == "h" else timedelta(days=n)
        if not timedelta(minutes=1) <= point <= LONGEST_POINT:
            raise Unreadable("Each reminder comes from 1 minute to 30 days before the deadline.")
        points.add(point)
    if len(points) > MAX_POINTS:
        raise Unreadable(f"At most {MAX_POINTS} reminders per deadline.")
    return tuple(sorted(points, reverse=True))


@lru_cache(maxsize=512)
def stored_points(stored: str) -> tuple[timedelta, ...]:
    """A stored reminder-points text as the clock reads it (one that no longer reads: none chosen)."""
    try:
        return read_reminder_points(stored)
    except Unreadable:
        return ()


def points_text(points: tuple[timedelta, ...]) -> str:
    return ",".join(span(p, short=True) for p in points)


def span(t: timedelta, short: bool = False) -> str:
    """A length in words: "3 days", "1 day 4 h", "45 min" (short: "3d", "4h", "45m", for stored points)."""
    minutes = round(t.total_seconds() / 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    if short:
        if not rest and days >= 3:
            return f"{days}d"
        return f"{minutes // 60}h" if not mins else f"{minutes}m"
    parts = []
    if days:
        parts.append(counted(days, "day"))
    if hours:
        parts.append(f"{hours} h")
    if mins and not days:
        parts.append(f"{mins} min")
    return " ".join(parts) or "no time"


def _days_words(days: frozenset[int]) -> str:
    if days == {5, 6}:
        return "weekends off"
    names = ("Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays")
    return "no clock on " + ", ".join(names[d] for d in sorted(days))


def describe(clock: Clock, auto_vacation_days: int = 0) -> str:
    """The clock's rules in words, e.g. "3 days in the bank, +1 day per move, weekends off"."""
    if not clock.active:
        return "none, so nobody is ever timed out."
    parts = []
    if clock.bank is not None:
        parts.append(f"{span(clock.bank.start)} in the bank")
        if clock.bank.increment:
            parts.append(f"+{span(clock.bank.increment)} per move")
        if clock.bank.cap is not None:
            parts.append(f"at most {span(clock.bank.cap)}")
    else:
        if clock.per_decision:
            parts.append(f"{span(clock.per_decision)} per move")
        if clock.daily_at:
            parts.append(f"due at {clock.daily_at:%H:%M} ({clock.tz})")
    if clock.quiet_days:
        parts.append(_days_words(clock.quiet_days))
    if auto_vacation_days:
        parts.append(f"up to {counted(auto_vacation_days, 'vacation day')} a year drawn hour by hour before a timeout")
    text = ", ".join(parts)
    return text[0].upper() + text[1:] + "."


def clock_problems(values: dict, site_vacation_days: int) -> list[tuple[str, str]]:
    """The time bank's, quiet days' and allowance's cross-checks over a game's clock fields, as (field, message).

    Shared by the new-game form and the admin (Game.clean), so both refuse the same things the same way.
    """
    problems = []
    bank, increment, cap = values.get("bank_hours"), values.get("bank_increment_hours"), values.get("bank_cap_hours")
    if bank == 0:
        problems.append(("bank_hours", "Give a time bank of at least 1 hour, or leave it empty."))
    if bank and (values.get("decision_hours") or values.get("decision_minutes") or values.get("daily_deadline")):
        problems.append(
            ("bank_hours", "A time bank is a clock of its own: leave the time per decision and the time of day empty.")
        )
    if (increment or cap) and not bank:
        problems.append(("bank_hours", "An increment or a cap needs a time bank: give its starting hours."))
    if bank and cap is not None and cap < bank:
        problems.append(("bank_cap_hours", "The cap must be at least the starting bank."))
    quiet = values.get("quiet_days") or ""
    if quiet:
        try:
            read_weekdays(quiet)
        except Unreadable as e:
            problems.append(("quiet_days", str(e)))
    days = values.get("vacation_days")
    if days is not None and days > site_vacation_days:
        problems.append(
            (
                "vacation_days",
                f"At most {site_vacation_days} days a year (this site's allowance); a game may give fewer.",
            )
        )
    if values.get("auto_vacation") and not days:
        problems.append(("auto_vacation", "Automatic vacation draws on the vacation days: give at least 1."))
    return problems
