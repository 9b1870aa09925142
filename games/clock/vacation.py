"""Vacation hours: what each seat has used of its game's yearly allowance, and the hours a seat about
to time out draws from it instead (automatic vacation).

A vacation counts against the allowance as soon as it is declared (two vacations cannot book the
same days twice), but only the part already begun has been used: a vacation that starts next week
has used nothing yet. People read both as whole days (`days_used`, `days_left`).

The clock reckons, the sweep writes: `draw_vacation` says which hours to draw and where the seat's
deadline then falls, and games/actions/deadlines.py stores them. The book is read from the
Vacation rows, so this is the one clock module that imports a model.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, NamedTuple

from django.utils import timezone

from games.clock.calendar import HOUR, hours_to_draw, settle
from games.clock.rules import Clock
from games.clock.seat import quiet_hours_of
from games.models import Vacation

if TYPE_CHECKING:
    from games.models import Game, Seat


class Book(NamedTuple):
    """A seat's vacation this year: what it took from the allowance, how much of that has begun, and
    where and in which row its drawn hours end."""

    used: timedelta  # taken from the yearly allowance: every vacation declared or drawn, begun or not
    until: datetime | None  # the end of the last automatically drawn hour
    last: int | None  # the row holding that hour, which the next contiguous hours extend
    begun: timedelta = timedelta(0)  # the part of `used` already under way or over (the rest is booked)

    @property
    def booked(self) -> timedelta:
        """Vacation declared that has not begun yet."""
        return self.used - self.begun


Books = dict[int, Book]  # seat pk -> its book


class Drawn(NamedTuple):
    """Vacation hours a seat draws: from `first` to `ends`, extending row `extends` (None: a new row)."""

    first: datetime
    ends: datetime
    extends: int | None
    deadline: datetime  # the seat's deadline after them, out of any quiet period
    away_until: datetime


def vacation_books(seat_pks: list[int], now: datetime) -> Books:
    """What each seat has used of its yearly allowance, and where its drawn hours end: one query for a batch."""
    books: Books = {pk: Book(timedelta(0), None, None) for pk in seat_pks}
    rows = Vacation.objects.filter(seat_id__in=seat_pks, ends__gt=now - timedelta(days=365))
    for row, pk, starts, ends, automatic in rows.values_list("pk", "seat_id", "starts", "ends", "automatic"):
        used, until, last, begun = books[pk]
        if automatic and (until is None or ends > until):
            until, last = ends, row
        books[pk] = Book(used + (ends - starts), until, last, begun + max(min(ends, now) - starts, timedelta(0)))
    return books


def vacation_used(seat: Seat) -> timedelta:
    """The vacation time this seat has taken from its game's allowance over the last 365 days (what
    it declared, begun or not: see `Book.begun` for what it has had so far)."""
    return vacation_books([seat.pk], timezone.now())[seat.pk].used


# a span within this of a whole day reads as that day (a vacation granted "from now" is a few
# seconds short of its days)
_SLACK = 60


def days_used(span: timedelta) -> int:
    """Vacation used, in whole days as people count them: a day begun counts whole."""
    return max(0, math.ceil((span.total_seconds() - _SLACK) / 86400))


def days_left(span: timedelta) -> int:
    """Vacation left, in whole days: only whole days are promised."""
    return max(0, math.floor((span.total_seconds() + _SLACK) / 86400))


def vacation_left(game: Game, used: timedelta) -> timedelta:
    """What is left of the game's yearly allowance after `used` of it (never below nothing)."""
    return max(timedelta(days=game.vacation_days) - used, timedelta(0))


def allowance_left(game: Game, seat: Seat) -> timedelta:
    """What is left of the game's yearly vacation allowance for this seat."""
    return vacation_left(game, vacation_used(seat))


def draw_vacation(game_clock: Clock, days: int, seat: Seat, now: datetime, books: Books | None) -> Drawn | None:
    """The vacation hours that keep a seat past its deadline waiting, on an allowance of `days` a year,
    an hour at a time (never one hour twice), or None when the allowance cannot cover them.

    Hours that follow on from the last drawn ones extend its row: one row per stretch of drawn
    time, not one per sweep. `books` (the batch's) is brought up to date with the hours drawn.
    """
    if books is None or seat.pk not in books:
        books = vacation_books([seat.pk], now)
    used, until, last, begun = books[seat.pk]
    first, hours = hours_to_draw(seat.deadline, now, until, timedelta(days=days) - used)
    if not hours:
        return None
    ends = first + hours * HOUR
    extends = last if last is not None and first == until else None  # a new row's key is known only once written
    books[seat.pk] = Book(used + (ends - first), ends, extends, begun + max(min(ends, now) - first, timedelta(0)))
    deadline = settle(ends, game_clock.quiet_days, game_clock.tz, quiet_hours_of(seat))
    away = ends if seat.away_until is None or seat.away_until < ends else seat.away_until
    return Drawn(first, ends, extends, deadline, away)
