"""Quiet periods and clock time: the arithmetic behind time banks, quiet days, quiet hours and
automatic vacation hours.

Pure functions over plain values (no database), so daylight-saving changes and random calendars
are easy to test. A period is a half-open UTC interval [begin, end). A quiet day is the span
from one local midnight to the next in the game's timezone; quiet hours are the span from the
player's local "from" to their next local "to". Both are built from local wall times resolved
with zoneinfo, so "Saturday" and "23:00-07:00" stay local across a clock change.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

Span = tuple[datetime, datetime]
HOUR = timedelta(hours=1)
# settling a deadline moves it at most this many times (a quiet day, then quiet hours, ...)
MAX_SETTLE_STEPS = 64


@dataclass(frozen=True)
class QuietHours:
    """A player's night: no deadline of theirs falls from `start` to `end` local time (end may be the next day)."""

    start: time
    end: time
    tz: str = "UTC"


@lru_cache(maxsize=256)
def zone_for(tz: str) -> ZoneInfo:
    """The timezone by its name, built once; an unknown name reads as UTC."""
    try:
        return ZoneInfo(tz)
    except (KeyError, ValueError, OSError):
        return ZoneInfo("UTC")


def _at(day: date, wall: time, zone: ZoneInfo) -> datetime:
    return datetime.combine(day, wall, tzinfo=zone).astimezone(UTC)


@lru_cache(maxsize=8192)
def _day_span(day: date, tz: str) -> Span:
    """One local day, midnight to midnight, in UTC (kept: the sweep asks for the same few days again and again)."""
    zone = zone_for(tz)
    return _at(day, time.min, zone), _at(day + timedelta(days=1), time.min, zone)


def quiet_day_spans(after: datetime, days: frozenset[int], tz: str) -> Iterator[Span]:
    """The game's quiet days (0 = Monday) as UTC spans, in order, from the one holding `after` on (endless)."""
    if not days:
        return
    day = after.astimezone(zone_for(tz)).date() - timedelta(days=1)
    while True:
        if day.weekday() in days:
            begin, end = _day_span(day, tz)
            if end > begin:
                yield begin, end
        day += timedelta(days=1)


def quiet_hour_spans(after: datetime, quiet: QuietHours | None) -> Iterator[Span]:
    """A player's quiet hours as UTC spans, in order, from the one holding `after` on (endless)."""
    if quiet is None or quiet.start == quiet.end:
        return
    zone = zone_for(quiet.tz)
    day = after.astimezone(zone).date() - timedelta(days=1)
    overnight = quiet.end <= quiet.start
    while True:
        begin = _at(day, quiet.start, zone)
        end = _at(day + timedelta(days=1) if overnight else day, quiet.end, zone)
        if end > begin:  # a span a clock change swallows whole is empty
            yield begin, end
        day += timedelta(days=1)


def merged(*streams: Iterable[Span]) -> Iterator[Span]:
    """Several ordered span streams as one, ordered by begin (overlaps are left to the readers)."""
    return heapq.merge(*streams, key=lambda s: s[0])


def advance(start: datetime, need: timedelta, spans: Iterable[Span]) -> datetime:
    """The moment `need` of running time (time outside every span) has passed since `start`."""
    t, left = start, max(need, timedelta(0))
    for begin, end in spans:
        if end <= t:
            continue
        if begin > t:
            if begin - t >= left:
                return t + left
            left -= begin - t
        t = max(t, end)
    return t + left


def running(start: datetime, stop: datetime, spans: Iterable[Span]) -> timedelta:
    """The running time from `start` to `stop`: time outside every span, each instant counted once."""
    if stop <= start:
        return timedelta(0)
    total, t = timedelta(0), start
    for begin, end in spans:
        if begin >= stop:
            break
        if end <= t:
            continue
        if begin > t:
            total += begin - t
        t = max(t, end)
        if t >= stop:
            return total
    return total + max(stop - t, timedelta(0))


def holding(t: datetime, spans: Iterable[Span]) -> Span | None:
    """The span that holds `t`, if any (spans ordered by begin; the first begins before `t`)."""
    for begin, end in spans:
        if begin > t:
            return None
        if t < end:
            return begin, end
    return None


def quiet_span(t: datetime, days: frozenset[int], tz: str, quiet: QuietHours | None) -> Span | None:
    """The game's quiet day or the player's quiet hours that `t` falls in, if any."""
    return holding(t, quiet_day_spans(t, days, tz)) or holding(t, quiet_hour_spans(t, quiet))


def settle(t: datetime, days: frozenset[int], tz: str, quiet: QuietHours | None) -> datetime:
    """`t`, or, if it lands in a quiet day or quiet hours, the end of that period (and so on)."""
    for _ in range(MAX_SETTLE_STEPS):
        span = quiet_span(t, days, tz, quiet)
        if span is None:
            return t
        t = span[1]
    raise ValueError("the quiet periods leave no time for a deadline")


@dataclass(frozen=True)
class Bank:
    """A time bank: a starting reserve, an increment per decision, a cap (None: no cap)."""

    start: timedelta
    increment: timedelta = timedelta(0)
    cap: timedelta | None = None

    def after(self, left: timedelta, charged: timedelta) -> timedelta:
        """The bank after a decision that took `charged` of it: never negative, never above the cap."""
        rest = max(left - charged, timedelta(0)) + self.increment
        return min(rest, self.cap) if self.cap is not None else rest


def replay_bank(bank: Bank, charges: Iterable[int]) -> int:
    """The bank in whole seconds after decisions that took these many seconds each (the log's record)."""
    left = bank.start
    for seconds in charges:
        left = bank.after(left, timedelta(seconds=seconds))
    return int(left.total_seconds())


def charge(left: timedelta, since: datetime, now: datetime, spans: Iterable[Span]) -> int:
    """Whole seconds a decision asked at `since` and answered at `now` takes from a bank of `left`."""
    used = running(since, now, spans)
    return int(min(used, max(left, timedelta(0))).total_seconds())


def hours_to_draw(
    deadline: datetime, now: datetime, taken_until: datetime | None, left: timedelta
) -> tuple[datetime, int]:
    """Vacation hours a seat past its deadline draws to keep waiting: (first hour's start, how many).

    The hours start at the deadline, or where the last drawn hour ended if later, so no hour is
    drawn twice; enough are drawn to reach past `now`. None (0) if the allowance cannot cover them.
    """
    first = max(deadline, taken_until) if taken_until else deadline
    need = max(1, math.floor((now - first) / HOUR) + 1) if first <= now else 0
    have = math.floor(max(left, timedelta(0)) / HOUR)
    return first, (need if need <= have else 0)
