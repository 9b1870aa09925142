"""One seat's clock: its stored time bank, its vacations, and what is left of its bank at a moment.

The write path charges a bank by it and the emails state it, so both reckon a bank the same way
(the seat's vacations stop it, as the game's quiet days do).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from games.clock.calendar import Span
from games.clock.rules import Clock, bank_left
from games.models import Seat


def bank_start(game_clock: Clock) -> int:
    """The bank every seat starts with, in whole seconds."""
    return int(game_clock.bank.start.total_seconds())


def stored_bank(game_clock: Clock, seat: Seat) -> int:
    """The seat's bank in whole seconds as stored, or the bank's start before its first wait."""
    return seat.bank_seconds if seat.bank_seconds is not None else bank_start(game_clock)


def away(seat: Seat, after: datetime) -> list[Span]:
    """The seat's vacations that end after `after` (a query only when it has one that late)."""
    if seat.away_until is None or seat.away_until <= after:
        return []
    return [(v.starts, v.ends) for v in seat.vacations.filter(ends__gt=after)]


def bank_left_at(game_clock: Clock, seat: Seat, now: datetime) -> timedelta | None:
    """The seat's bank at `now`: as stored, less the running time since its clock started (None: no bank)."""
    if game_clock.bank is None:
        return None
    since = seat.clock_since
    spans = away(seat, since) if since is not None and since < now else []
    return bank_left(game_clock, stored_bank(game_clock, seat), since, now, spans)
