"""Deadlines: when a seat that starts waiting now must answer by.

Pure functions over plain values (no database), so the daylight-saving and vacation cases are easy
to test. A fixed time of day is resolved in the game's timezone for each calendar day, so
"every day at 20:00 Europe/Lisbon" stays 20:00 local across the clock change.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from games.clock.calendar import Bank, QuietHours, Span, advance, merged, quiet_day_spans, running, settle, zone_for


@dataclass(frozen=True)
class Clock:
    per_decision: timedelta | None = None  # e.g. 48 h
    daily_at: time | None = None  # e.g. 20:00 ...
    tz: str = "UTC"  # ... in this timezone (also the quiet days')
    remind_before: timedelta | None = None
    bank: Bank | None = None  # the third kind: a time bank per seat
    quiet_days: frozenset[int] = frozenset()  # weekdays (0 = Monday) on which no clock runs

    @property
    def active(self) -> bool:
        return self.per_decision is not None or self.daily_at is not None or self.bank is not None

    def stopped(self, after: datetime, away: list[Span] = ()) -> Iterator[Span]:
        """Every span in which this clock does not run from `after` on: quiet days and the seat's vacations."""
        vacations = sorted((b, e) for b, e in away if e > after) if away else []
        days = quiet_day_spans(after, self.quiet_days, self.tz)
        return merged(vacations, days) if vacations else days  # a merge only when there is something to merge


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


def deadline(
    clock: Clock,
    start: datetime,
    away: list[Span] = (),
    bank_left: timedelta | None = None,
    quiet: QuietHours | None = None,
) -> datetime | None:
    """When an answer asked at `start` is due, with the seat's vacations and the quiet days not counted.

    A time bank: when the seat's bank (`bank_left`, else the bank's start) has run out. With both a
    time per decision and a time of day, the deadline is the first time of day after at least the
    time per decision has passed (so a move asked at 19:55 is not due at 20:00). Vacations and quiet
    days stop the clock: the seat gets the same running time to answer, and a fixed-time deadline
    then falls on the next time of day that is not on a quiet day. Last, a deadline that would land
    on a quiet day or in the player's quiet hours moves to the end of that period.
    """
    if not clock.active:
        return None
    if clock.bank is not None:
        need = bank_left if bank_left is not None else clock.bank.start
        return settle(advance(start, need, clock.stopped(start, away)), clock.quiet_days, clock.tz, quiet)
    earliest = start + (clock.per_decision or timedelta(0))
    plain = next_daily(earliest, clock.daily_at, clock.tz) if clock.daily_at else earliest
    if not away and not clock.quiet_days:
        return settle(plain, clock.quiet_days, clock.tz, quiet) if quiet else plain
    end = advance(start, plain - start, clock.stopped(start, away))
    if clock.daily_at:
        end = next_daily(end - timedelta(microseconds=1), clock.daily_at, clock.tz)
        while clock.quiet_days and end.astimezone(zone_for(clock.tz)).weekday() in clock.quiet_days:
            end = next_daily(end, clock.daily_at, clock.tz)
    return settle(end, clock.quiet_days, clock.tz, quiet)


def reminder_points(clock: Clock, chosen: tuple[timedelta, ...] = ()) -> tuple[timedelta, ...]:
    """How long before a deadline to remind: the player's own points, else the game's one reminder."""
    if chosen:
        return chosen
    return (clock.remind_before,) if clock.remind_before is not None else ()


def next_reminder(
    points: tuple[timedelta, ...], due: datetime | None, now: datetime, sent_now: bool = False
) -> datetime | None:
    """The first reminder point for deadline `due` from `now` on (after `now` if one was just sent at it).

    Points already past when a deadline is set are skipped: the your-move email has just gone.
    """
    if due is None:
        return None
    upcoming = [due - p for p in points if due - p > now or (due - p == now and not sent_now)]
    return min(upcoming) if upcoming else None


def bank_left(
    clock: Clock, bank_seconds: int | None, since: datetime | None, now: datetime, away: list[Span] = ()
) -> timedelta | None:
    """A seat's time bank at `now`: its stored bank, less the running time since its clock started (if it runs)."""
    if clock.bank is None or bank_seconds is None:
        return None
    left = timedelta(seconds=bank_seconds)
    if since is None or since >= now:
        return left
    return max(left - running(since, now, clock.stopped(since, away)), timedelta(0))
