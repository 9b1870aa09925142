"""Join links: a host shares a draft game's open seats; whoever follows the link asks for one and
takes it by the confirmation mailed to their address (so nobody can seat someone else's address).

One person holds at most one seat in a game; the link stops working when every seat is taken,
when the host revokes it, and when the game starts.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from games import links, notify
from games.models import Game, Seat, new_nonce

from .write import SubmitError, lock_game


def ask_to_join(game: Game, address: str, name: str) -> None:
    """Mail the address a link that confirms the join (nothing is taken until it is followed)."""
    url = settings.SITE_URL + reverse("join-confirm") + "?t=" + links.confirm_token(game, address, name)
    notify.join_confirmation(game, address, url)


def claim_seat(data: dict, user) -> Seat:
    """Seat the confirmed person in the first open seat of the game, if the link still works."""
    with transaction.atomic():
        game = lock_game(data["g"])
        if game.status != Game.Status.DRAFT:
            raise SubmitError(_("This game has started, so its seats are no longer open."), "started")
        if game.seats.filter(player=user).exists():
            raise SubmitError(_("You have a seat in this game already: one seat per person."), "seated")
        seat = game.seats.select_for_update().filter(player=None, is_bot=False).order_by("index").first()
        if seat is None:
            raise SubmitError(_("Every seat of this game is taken."), "full")
        if not game.join_nonce or game.join_nonce != data["j"]:
            raise SubmitError(_("The host has revoked this join link. Ask them for a new one."), "revoked")
        seat.player, seat.joined = user, True
        seat.save(update_fields=["player", "joined"])
        if data["n"] and not user.name:
            type(user).objects.filter(pk=user.pk).update(name=data["n"])
        if not game.seats.filter(player=None, is_bot=False).exists():
            Game.objects.filter(pk=game.pk).update(join_nonce="")  # full: the link stops working
        return seat


def set_join_link(game: Game, on: bool) -> str:
    """A fresh join link (the old one stops working), or none at all."""
    with transaction.atomic():
        game = lock_game(game.pk)
        if game.status != Game.Status.DRAFT:
            raise SubmitError(_("Join links are for games that have not started."), "started")
        if on and not game.seats.filter(player=None, is_bot=False).exists():
            raise SubmitError(_("Every seat is taken: there is nothing to share."), "full")
        nonce = new_nonce() if on else ""
        Game.objects.filter(pk=game.pk).update(join_nonce=nonce)
        return nonce
