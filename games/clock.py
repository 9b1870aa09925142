"""Deadlines: when a seat that starts waiting now must answer by.

Pure functions over plain values (no database), so the daylight-saving and vacation cases are easy
to test. A fixed time of day is resolved in the game's timezone for each calendar day, so
"every day at 20:00 Europe/Lisbon" stays 20:00 local across the clock change.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo


@dataclass(frozen=True)
class Clock:
    per_decision: timedelta | None = None  # e.g. 48 h
    daily_at: time | None = None  # e.g. 20:00 ...
    tz: str = "UTC"  # ... in this timezone
    remind_before: timedelta | None = None

    @property
    def active(self) -> bool:
        return self.per_decision is not None or self.daily_at is not None


def next_daily(after: datetime, at: time, tz: str) -> datetime:
    """The first `at` o'clock local time strictly after `after` (an aware datetime), in UTC."""
    zone = ZoneInfo(tz)
    local = after.astimezone(zone)
    day = local.date()
    for _ in range(3):
        candidate = datetime.combine(day, at, tzinfo=zone)
        # a wall time skipped by a spring-forward change resolves to the same instant DST-aware
        if candidate.astimezone(UTC) > after.astimezone(UTC):
            return candidate.astimezone(UTC)
        day += timedelta(days=1)
    raise AssertionError("unreachable: a day always has the time")


def deadline(clock: Clock, start: datetime, away: list[tuple[datetime, datetime]] = ()) -> datetime | None:
    """When an answer asked at `start` is due, with the seat's vacations not counted.

    With both a time per decision and a time of day, the deadline is the first time of day after
    at least the time per decision has passed (so a move asked at 19:55 is not due at 20:00).
    Vacations stop the clock: the seat gets the same time to answer outside its vacations as it
    would have had without them, and a fixed-time deadline then falls on the next time of day.
    """
    if not clock.active:
        return None
    earliest = start + (clock.per_decision or timedelta(0))
    plain = next_daily(earliest, clock.daily_at, clock.tz) if clock.daily_at else earliest
    if not away:
        return plain
    end = _outside(start, plain - start, away)
    if clock.daily_at:
        return next_daily(end - timedelta(microseconds=1), clock.daily_at, clock.tz)
    return end


def _outside(start: datetime, need: timedelta, away: list[tuple[datetime, datetime]]) -> datetime:
    """The moment `need` of time outside every vacation has passed since `start`."""
    t, left = start, need
    for begin, end in sorted((b, e) for b, e in away if e > start):
        if begin > t:
            if begin - t >= left:
                return t + left
            left -= begin - t
        t = max(t, end)
    return t + left


def reminder_at(clock: Clock, due: datetime | None) -> datetime | None:
    if due is None or clock.remind_before is None:
        return None
    return due - clock.remind_before
