"""The absence calendar: a person away from every game at once.

An absence is declared once. Each game the person plays in (now, or joins before it ends) grants
its part as a Vacation through the same path as a vacation declared in that game: their clocks
stop there, the running deadline moves, the log says so, and other seats see "away until". Each
game's yearly allowance still caps what it grants, so a long absence may be granted in part. A game
with no clock has nothing to stop, so it grants nothing and its allowance is left whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games.clock.vacation import allowance_left, days_used, vacation_books
from games.models import Absence, Game, Seat, Vacation

from .deadlines import check_absence, grant_vacation_locked
from .write import lock_game

PLAYING = (Game.Status.ACTIVE, Game.Status.PAUSED)


def declare_absence(player, starts: datetime, ends: datetime) -> Absence:
    check_absence(starts, ends)
    with transaction.atomic():
        absence = Absence.objects.create(player=player, starts=starts, ends=ends)
        for seat in Seat.objects.filter(player=player, is_bot=False, game__status__in=PLAYING).order_by("game_id"):
            _grant(seat, absence)
    return absence


def grant_absences_locked(seat: Seat, via: str = "web") -> None:
    """A seat that just got its person (a game starting, a replacement, a join): the parts of their
    absences still to come, in a game that is in play. Call inside the game's transaction."""
    if seat.player_id is None or seat.is_bot:
        return
    for absence in Absence.objects.filter(player_id=seat.player_id, ends__gt=timezone.now()):
        _grant(seat, absence, via=via)


def _grant(seat: Seat, absence: Absence, via: str = "web") -> Vacation | None:
    game = lock_game(seat.game_id)
    if game.status not in PLAYING or not game.clock.active:
        return None  # no clock runs there, so nothing is stopped and nothing charged
    if Vacation.objects.filter(seat=seat, absence=absence).exists():
        return None
    seat = Seat.objects.get(pk=seat.pk)
    starts = max(absence.starts, timezone.now())
    left = allowance_left(game, seat)
    if left <= timedelta(0) or absence.ends <= starts:
        return None
    return grant_vacation_locked(game, seat, starts, min(absence.ends, starts + left), absence=absence, via=via)


@dataclass
class Granted:
    """One game's part of an absence, for the calendar page: in whole days, what its vacations have
    used so far and what is booked but not begun."""

    game: Game
    starts: datetime | None
    ends: datetime | None
    used_days: int
    allowance_days: int
    booked_days: int = 0
    clock: bool = True  # False: the game has no clock, so the absence stops and charges nothing there

    @property
    def whole(self) -> bool:
        return self.ends is not None


def granted(absence: Absence) -> list[Granted]:
    """What each game of the person grants of this absence, and its allowance used this year."""
    rows = []
    grants = {v.seat.game_id: v for v in absence.grants.select_related("seat__game")}
    seats = list(
        Seat.objects.filter(player=absence.player, is_bot=False, game__status__in=PLAYING)
        .select_related("game")
        .order_by("game_id")
    )
    books = vacation_books([seat.pk for seat in seats], timezone.now()) if seats else {}
    for seat in seats:
        book = books[seat.pk]
        v = grants.get(seat.game_id)
        used = days_used(book.begun)
        rows.append(
            Granted(
                seat.game,
                v.starts if v else None,
                v.ends if v else None,
                used,
                seat.game.vacation_days,
                booked_days=max(0, days_used(book.used) - used),
                clock=seat.game.clock.active,
            )
        )
    return rows
