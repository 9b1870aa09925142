"""The games waiting on a person, as the top bar counts them and the seat page's "next game" button
follows them: the same rule as the home page's first list (games.home), read in one query.

A game waits on a person when it is in play and one of their seats is asked (`waiting_since` is set
by the write path when a seat is asked, and cleared when it is not), or when it is a game played
again that waits for their yes.
"""

from __future__ import annotations

from django.db.models import F, Q, QuerySet
from django.utils.functional import cached_property

from .models import Game, Seat

WAITING = Q(game__status=Game.Status.ACTIVE, waiting_since__isnull=False) | Q(
    game__status=Game.Status.DRAFT, accepted=False
)


def waiting_seats(user) -> QuerySet[Seat]:
    """This person's seats that wait on them, the most urgent first (as the home page lists them)."""
    return Seat.objects.filter(WAITING, player=user).order_by(
        F("deadline").asc(nulls_last=True), F("waiting_since").asc(nulls_last=True), "game_id"
    )


def next_seat(user, besides_game: int) -> Seat | None:
    """The most urgent seat of this person's waiting in another game than `besides_game`, if any."""
    return (
        waiting_seats(user)
        .exclude(game_id=besides_game)
        .select_related("game")
        .only("pk", "nonce", "game_id", "game__name")
        .first()
    )


class WaitingOnMe:
    """How many games wait on a signed-in person, counted (one query) only when a page shows it."""

    def __init__(self, user):
        self.user = user

    @cached_property
    def count(self) -> int:
        if self.user is None or not self.user.is_authenticated:
            return 0
        return waiting_seats(self.user).order_by().values("game_id").distinct().count()
