"""Signed per-seat links: django.core.signing, bound to one seat and its current nonce.

Rotating a seat's nonce (a new player takes the seat) revokes every link sent before. A token
names its seat, so a token for seat A can never act for seat B.
"""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.urls import reverse

from .models import Seat

SALT = "games.seat-link"


class LinkError(Exception):
    """A link that cannot open a seat; the message says why in words, and `seat` is set only when
    the link was genuine but expired (so a fresh one may be mailed to that seat's own address)."""

    def __init__(self, message: str, seat: Seat | None = None):
        super().__init__(message)
        self.seat = seat


def token_for(seat: Seat) -> str:
    return signing.dumps({"s": seat.pk, "n": seat.nonce}, salt=SALT, compress=True)


def url_for(seat: Seat) -> str:
    return settings.SITE_URL + reverse("seat", args=[token_for(seat)])


def seat_from_token(token: str, lean: bool = False) -> Seat:
    """The seat a link opens, with its game and player; LinkError in words if it opens none.

    `lean` reads only what an answer needs (the seat's game id, index and nonce): the write path
    reads the game and its seats itself, under the game's lock.
    """
    try:
        data = signing.loads(token, salt=SALT, max_age=settings.SEAT_LINK_MAX_AGE)
    except signing.SignatureExpired:
        # genuine but old: find the seat so the page can offer to mail a fresh link to its owner
        data = signing.loads(token, salt=SALT)
        seat = Seat.objects.filter(pk=data.get("s"), nonce=data.get("n")).select_related("game").first()
        raise LinkError("This link has expired. Links stay valid for a while after each email.", seat) from None
    except signing.BadSignature:
        raise LinkError("This link is not valid. It may have been cut short by your mail program.") from None
    found = Seat.objects.filter(pk=data.get("s"))
    seat = (found.only("game_id", "index", "nonce") if lean else found.select_related("game", "player")).first()
    if seat is None:
        raise LinkError("This link is for a seat that no longer exists.")
    if seat.nonce != data.get("n"):
        raise LinkError("This link has been replaced by a newer one: use the link in your latest email.")
    return seat
