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
from games.engine.messages import Msg, english, msg, nmsg
from games.engine.typed import Unreadable

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


# what a parser reads, as its refusals name it
_WHAT = {
    "quiet days": (
        msg("Write quiet days as text."),
        msg("That is too long for quiet days (at most %(n)s characters).", n=MAX_TEXT),
    ),
    "quiet hours": (
        msg("Write quiet hours as text."),
        msg("That is too long for quiet hours (at most %(n)s characters).", n=MAX_TEXT),
    ),
    "reminder points": (
        msg("Write reminder points as text."),
        msg("That is too long for reminder points (at most %(n)s characters).", n=MAX_TEXT),
    ),
}


def _bounded(text: object, what: str) -> str:
    not_text, too_long = _WHAT[what]
    if not isinstance(text, str):
        raise Unreadable(not_text)
    text = text.strip().lower()
    if len(text) > MAX_TEXT:
        raise Unreadable(too_long)
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
            raise Unreadable(msg("“%(item)s” is not a day of the week: write e.g. sat, sun.", item=item[:20]))
        days |= {5, 6} if _DAY_NAMES[item] < 0 else {_DAY_NAMES[item]}
    if len(days) == 7:
        raise Unreadable(msg("Leave at least one day of the week on which the clock runs."))
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
        raise Unreadable(msg("“%(item)s” is not a time of day: write e.g. 23:00-07:00.", item=part.strip()[:10]))
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    if hour > 23 or minute > 59:
        raise Unreadable(
            msg("“%(item)s” is not a time of day: hours 0 to 23, minutes 0 to 59.", item=part.strip()[:10])
        )
    return time(hour, minute)


def read_quiet_hours(text: object) -> tuple[time, time] | None:
    """ "23:00-07:00" (or "23-7") -> (23:00, 07:00); empty -> None. At most 16 hours, never the whole day."""
    text = _bounded(text, "quiet hours")
    if not text:
        return None
    parts = re.split(r"\s*(?:-|–|to)\s*", text)
    if len(parts) != 2:
        raise Unreadable(msg("Write quiet hours as from-to, e.g. 23:00-07:00."))
    start, end = _read_clock_time(parts[0]), _read_clock_time(parts[1])
    minutes = (end.hour * 60 + end.minute - start.hour * 60 - start.minute) % (24 * 60)
    if minutes == 0:
        raise Unreadable(msg("Quiet hours must end at another time than they start."))
    if timedelta(minutes=minutes) > LONGEST_NIGHT:
        raise Unreadable(msg("Quiet hours can last at most 16 hours."))
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
            raise Unreadable(
                msg("“%(item)s” is not a time before the deadline: write e.g. 24h, 4h, 30m.", item=item[:20])
            )
        n, unit = int(m.group(1)), m.group(2)[0]
        point = timedelta(minutes=n) if unit == "m" else timedelta(hours=n) if unit == "h" else timedelta(days=n)
        if not timedelta(minutes=1) <= point <= LONGEST_POINT:
            raise Unreadable(msg("Each reminder comes from 1 minute to 30 days before the deadline."))
        points.add(point)
    if len(points) > MAX_POINTS:
        raise Unreadable(msg("At most %(n)s reminders per deadline.", n=MAX_POINTS))
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
    """A length in words: "3 days", "1 day 4 h", "45 min" (short: "3d", "4h", "45m", for stored points).
    In English; a page or a mail says span_said(t) in its reader's language."""
    if short:
        minutes = round(t.total_seconds() / 60)
        days, rest = divmod(minutes, 24 * 60)
        mins = rest % 60
        if not rest and days >= 3:
            return f"{days}d"
        return f"{minutes // 60}h" if not mins else f"{minutes}m"
    return english(span_said(t))


def span_said(t: timedelta) -> Msg:
    """A length as a message (games.engine.messages): "3 days", "1 day 4 h", "45 min"."""
    minutes = round(t.total_seconds() / 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = []
    if days:
        parts.append(nmsg("%(n)s day", "%(n)s days", "n", n=days))
    if hours:
        parts.append(msg("%(n)s h", n=hours))
    if mins and not days:
        parts.append(msg("%(n)s min", n=mins))
    if not parts:
        return msg("no time")
    if len(parts) == 1:
        return parts[0]
    return msg("%(longer)s %(shorter)s", longer=parts[0], shorter=parts[1])


def _joined(parts: list[Msg]) -> Msg:
    """Parts of a list said one after another, "a, b, c" (not "and": each part is a rule of its own)."""
    said = parts[0]
    for part in parts[1:]:
        said = msg("%(before)s, %(next)s", before=said, next=part)
    return said


_DAY_NAMES_PLURAL = (
    msg("Mondays"),
    msg("Tuesdays"),
    msg("Wednesdays"),
    msg("Thursdays"),
    msg("Fridays"),
    msg("Saturdays"),
    msg("Sundays"),
)


def _days_words(days: frozenset[int], first: bool) -> Msg:
    if days == {5, 6}:
        return msg("Weekends off") if first else msg("weekends off")
    names = _joined([_DAY_NAMES_PLURAL[d] for d in sorted(days)])
    return msg("No clock on %(days)s", days=names) if first else msg("no clock on %(days)s", days=names)


def describe(clock: Clock, auto_vacation_days: int = 0) -> str:
    """The clock's rules in words, e.g. "3 days in the bank, +1 day per move, weekends off" (in
    English; a page or a mail says describe_said in its reader's language)."""
    return english(describe_said(clock, auto_vacation_days))


def describe_said(clock: Clock, auto_vacation_days: int = 0) -> Msg:
    """The clock's rules as a message (games.engine.messages)."""
    if not clock.active:
        return msg("none, so nobody is ever timed out.")
    parts: list[Msg] = []
    if clock.bank is not None:
        parts.append(msg("%(span)s in the bank", span=span_said(clock.bank.start)))
        if clock.bank.increment:
            parts.append(msg("+%(span)s per move", span=span_said(clock.bank.increment)))
        if clock.bank.cap is not None:
            parts.append(msg("at most %(span)s", span=span_said(clock.bank.cap)))
    else:
        if clock.per_decision:
            parts.append(msg("%(span)s per move", span=span_said(clock.per_decision)))
        if clock.daily_at:
            at = f"{clock.daily_at:%H:%M}"
            if parts:
                parts.append(msg("due at %(time)s (%(zone)s)", time=at, zone=clock.tz))
            else:
                parts.append(msg("Due at %(time)s (%(zone)s)", time=at, zone=clock.tz))
    if clock.quiet_days:
        parts.append(_days_words(clock.quiet_days, first=not parts))
    if auto_vacation_days:
        n = auto_vacation_days
        if parts:
            parts.append(
                nmsg(
                    "up to %(n)s vacation day a year drawn hour by hour before a timeout",
                    "up to %(n)s vacation days a year drawn hour by hour before a timeout",
                    "n",
                    n=n,
                )
            )
        else:
            parts.append(
                nmsg(
                    "Up to %(n)s vacation day a year drawn hour by hour before a timeout",
                    "Up to %(n)s vacation days a year drawn hour by hour before a timeout",
                    "n",
                    n=n,
                )
            )
    return msg("%(rules)s.", rules=_joined(parts))


def clock_problems(values: dict, site_vacation_days: int) -> list[tuple[str, Msg]]:
    """The time bank's, quiet days' and allowance's cross-checks over a game's clock fields, as (field,
    message): each a message (games.engine.messages), said in the reader's language where it is shown.

    Shared by the new-game form and the admin (Game.clean), so both refuse the same things the same way.
    """
    problems = []
    bank, increment, cap = values.get("bank_hours"), values.get("bank_increment_hours"), values.get("bank_cap_hours")
    if bank == 0:
        problems.append(("bank_hours", msg("Give a time bank of at least 1 hour, or leave it empty.")))
    if bank and (values.get("decision_hours") or values.get("decision_minutes") or values.get("daily_deadline")):
        problems.append(
            (
                "bank_hours",
                msg("A time bank is a clock of its own: leave the time per decision and the time of day empty."),
            )
        )
    if (increment or cap) and not bank:
        problems.append(("bank_hours", msg("An increment or a cap needs a time bank: give its starting hours.")))
    if bank and cap is not None and cap < bank:
        problems.append(("bank_cap_hours", msg("The cap must be at least the starting bank.")))
    quiet = values.get("quiet_days") or ""
    if quiet:
        try:
            read_weekdays(quiet)
        except Unreadable as e:
            problems.append(
                (
                    "quiet_days",
                    e.args[0] if e.args else msg("Leave at least one day of the week on which the clock runs."),
                )
            )
    days = values.get("vacation_days")
    if days is not None and days > site_vacation_days:
        problems.append(
            (
                "vacation_days",
                nmsg(
                    "At most %(n)s day a year (this site's allowance); a game may give fewer.",
                    "At most %(n)s days a year (this site's allowance); a game may give fewer.",
                    "n",
                    n=site_vacation_days,
                ),
            )
        )
    if values.get("auto_vacation") and not days:
        problems.append(("auto_vacation", msg("Automatic vacation draws on the vacation days: give at least 1.")))
    return problems
