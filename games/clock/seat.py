"""One seat's clock: its stored time bank, its vacations, its quiet hours and reminder points, and
what they make of its deadline, its next reminder and what is left of its bank.

The write path and the sweep ask here and write what they are told (the clock writes nothing), so
pages, emails and the write path all reckon a seat's clock the same way. A seat is read as given
(its fields, its player, its vacations through its own relation): this module imports no model.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, NamedTuple

from games.clock import terms
from games.clock.calendar import QuietHours, Span, charge
from games.clock.rules import Clock, bank_left, deadline, next_reminder, reminder_points

if TYPE_CHECKING:  # for the hints only: a seat arrives as an object, its model is never imported here
    from games.models import Seat


class Due(NamedTuple):
    """A wait's deadline and the first reminder for it (None: no deadline, or no reminder to send)."""

    deadline: datetime | None
    remind_at: datetime | None


class Charge(NamedTuple):
    """What an answer took from the seat's bank (the answer's event records it) and the bank after it."""

    seconds: int
    left: int


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


def quiet_hours_of(seat: Seat) -> QuietHours | None:
    """The seat's player's quiet hours in their timezone (none for a bot seat or a player without them)."""
    player = seat.player if seat.player_id else None
    if player is None or not player.quiet_hours:
        return None
    return terms.quiet_hours(player.quiet_hours, player.timezone)


def deadline_for(game_clock: Clock, seat: Seat, start: datetime) -> datetime | None:
    """The seat's deadline for a wait whose clock runs from `start` (a bank: from its clock_since)."""
    if not game_clock.active or seat.is_bot:
        return None
    left = None
    if game_clock.bank is not None:
        start = seat.clock_since or start
        left = timedelta(seconds=stored_bank(game_clock, seat))
    return deadline(game_clock, start, away(seat, start), left, quiet_hours_of(seat))


def charge_bank(game_clock: Clock, seat: Seat, now: datetime) -> Charge:
    """What an answer at `now` takes from the seat's bank: the running time since its clock started.

    The write path records the seconds in the answer's event, so the banks can be replayed from
    the log (replay.banks), and stores the bank after it, its clock starting again at `now`.
    """
    left = timedelta(seconds=stored_bank(game_clock, seat))
    since = seat.clock_since
    charged = charge(left, since, now, game_clock.stopped(since, away(seat, since)))
    after = game_clock.bank.after(left, timedelta(seconds=charged))
    return Charge(charged, int(after.total_seconds()))


def reminder_for(
    game_clock: Clock, seat: Seat, due: datetime | None, now: datetime, sent_now: bool = False
) -> datetime | None:
    """The seat's next reminder for this deadline: at the player's own points, else the game's one reminder."""
    if seat.is_bot or due is None:
        return None
    player = seat.player if seat.player_id else None
    chosen = terms.stored_points(player.reminder_points) if player is not None and player.reminder_points else ()
    return next_reminder(reminder_points(game_clock, chosen), due, now, sent_now)


def deadline_again(game_clock: Clock, seat: Seat, start: datetime, now: datetime) -> Due | None:
    """A running wait's deadline worked out again, with its reminder; None if it is unchanged (its
    reminders then stay as they were)."""
    due = deadline_for(game_clock, seat, start)
    if due == seat.deadline:
        return None
    return Due(due, reminder_for(game_clock, seat, due, now))


class Resumed(NamedTuple):
    """A seat's clock after a pause: its deadline, its next reminder, and when its bank's clock started."""

    deadline: datetime
    remind_at: datetime | None
    clock_since: datetime | None


def after_pause(game_clock: Clock, seat: Seat, paused_for: timedelta, now: datetime) -> Resumed:
    """Every clock stood still for `paused_for`: the deadline moves by as much, and a time bank's
    clock starts as much later (the pause is not charged to it)."""
    due, remind_at = shifted(game_clock, seat, paused_for, now)
    since = seat.clock_since + paused_for if seat.clock_since is not None else None
    return Resumed(due, remind_at, since)


def shifted(game_clock: Clock, seat: Seat, by: timedelta, now: datetime) -> Due:
    """The seat's deadline moved by `by` (a pause's length, an organiser's extension), with its next reminder."""
    due = seat.deadline + by
    return Due(due, reminder_for(game_clock, seat, due, now))
