"""Table talk: messages on a game's board, mailed to the other people at the table."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import notify
from games.engine.typed import Unreadable, clean_text
from games.models import Game, Message, Seat

from .write import SubmitError, lock_game

TALK_CHARS = 2000


TALK_LIMIT = 5  # messages per seat ...


TALK_WINDOW = timedelta(minutes=10)  # ... in this long


def post_message(seat: Seat, text: str, via: str = "web") -> Message:
    """A message on the game's board, mailed to every other person (with their next email if asked)."""
    try:
        text = clean_text(text, TALK_CHARS, what="Your message")
    except Unreadable as e:
        raise SubmitError(str(e), "too_long") from None
    if not text:
        raise SubmitError(_("The message is empty."), "empty")
    with transaction.atomic():
        game = lock_game(seat.game_id)
        if game.status == Game.Status.DRAFT:
            raise SubmitError(_("The board opens when the game starts."), "not_started")
        recent = game.messages.filter(seat=seat, created_at__gte=timezone.now() - TALK_WINDOW).count()
        if recent >= TALK_LIMIT:
            raise SubmitError(
                ngettext(
                    "You can post %(n)s message every 10 minutes; please wait a little.",
                    "You can post %(n)s messages every 10 minutes; please wait a little.",
                    TALK_LIMIT,
                )
                % {"n": TALK_LIMIT},
                "rate",
            )

        message = Message.objects.create(game=game, seat=seat, author=seat.name, text=text, via=via)
        Game.objects.filter(pk=game.pk).update(last_message=message.pk)
        game.last_message = message.pk
        for other in game.seats.select_related("player").exclude(pk=seat.pk).filter(player__isnull=False):
            if other.waiting_since is None or other.stand_in:
                notify.table_talk(game, other)
        Seat.objects.filter(pk=seat.pk).update(seen_message=message.pk)
        return message
