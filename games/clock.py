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
    Vacation time that overlaps the waiting time pushes the deadline back by the overlap, and a
    fixed-time deadline then moves on to the next day's time.
    """
    if not clock.active:
        return None
    earliest = start + (clock.per_decision or timedelta(0))
    due = next_daily(earliest, clock.daily_at, clock.tz) if clock.daily_at else earliest
    # push back for vacations overlapping [start, due), until it settles
    for _ in range(20):
        overlap = sum(
            ((min(end, due) - max(begin, start)) for begin, end in away if begin < due and end > start),
            timedelta(0),
        )
        pushed = earliest + overlap
        new_due = next_daily(pushed, clock.daily_at, clock.tz) if clock.daily_at else pushed
        if new_due == due:
            break
        due = new_due
    return due


def reminder_at(clock: Clock, due: datetime | None) -> datetime | None:
    if due is None or clock.remind_before is None:
        return None
    return due - clock.remind_before
