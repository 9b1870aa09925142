"""Signed per-seat links: django.core.signing, bound to one seat and its current nonce.

Rotating a seat's nonce (a new player takes the seat) revokes every link sent before. A token
names its seat, so a token for seat A can never act for seat B.
"""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.db import connection
from django.db.models.expressions import RawSQL
from django.urls import reverse

from .models import Seat
from .state_parts import StateField

SALT = "games.seat-link"

# a long game's log is most of its state: the database keeps the newest entries and the length
_LOG = """"games_game"."state" -> 'log'"""
_TAIL_STATE = f"""CASE WHEN jsonb_typeof({_LOG}) = 'array'
    THEN jsonb_set("games_game"."state", '{{log}}', jsonb_path_query_array({_LOG}, ('$[last - ' || %s || ' to last]')::jsonpath))
    ELSE "games_game"."state" END"""
_LOG_LENGTH = f"CASE WHEN jsonb_typeof({_LOG}) = 'array' THEN jsonb_array_length({_LOG}) END"


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


def seat_from_token(token: str, lean: bool = False, log_lines: int | None = None) -> Seat:
    """The seat a link opens, with its game and player; LinkError in words if it opens none.

    `lean` reads only what an answer needs (the seat's game id, index and nonce): the write path
    reads the game and its seats itself, under the game's lock. `log_lines` reads the game's state
    with only that many of its newest log entries, for a page that shows no more; the seat's
    `log_total` then says how long the whole log is. Such a game must not be saved.
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
    if lean:
        found = found.only("game_id", "index", "nonce")
    else:
        found = found.select_related("game", "player")
        if log_lines and connection.vendor == "postgresql":
            found = found.defer("game__state").annotate(
                tail_state=RawSQL(_TAIL_STATE, [log_lines - 1], output_field=StateField()),
                log_total=RawSQL(_LOG_LENGTH, []),
            )
    seat = found.first()
    if seat is not None and hasattr(seat, "tail_state"):
        seat.game.state = seat.tail_state
    if seat is None:
        raise LinkError("This link is for a seat that no longer exists.")
    if seat.nonce != data.get("n"):
        raise LinkError("This link has been replaced by a newer one: use the link in your latest email.")
    return seat


# --- join links: a game's open seats, shared by its host ---------------------------------------

JOIN_SALT = "games.join-link"
CONFIRM_SALT = "games.join-confirm"
CONFIRM_MAX_AGE = 24 * 3600  # the emailed confirmation of a join


def join_token(game) -> str:
    return signing.dumps({"g": game.pk, "j": game.join_nonce}, salt=JOIN_SALT, compress=True)


def join_url(game) -> str:
    return settings.SITE_URL + reverse("join", args=[join_token(game)])


def game_from_join_token(token: str):
    """The draft game a join link opens; LinkError in words if it opens none (forged, revoked, started)."""
    from .models import Game

    game = _game_from_token(token, JOIN_SALT, "j", "join_nonce", "join")
    if game.status != Game.Status.DRAFT:
        raise LinkError("This game has started, so its join link no longer works.")
    return game


def _game_from_token(token: str, salt: str, key: str, field: str, what: str):
    """The game a shared link (join, watch) names, while its nonce is still the game's; else LinkError."""
    from .models import Game

    try:
        data = signing.loads(token, salt=salt)
    except signing.BadSignature:
        raise LinkError(f"This {what} link is not valid. It may have been cut short by your mail program.") from None
    game = Game.objects.filter(pk=data.get("g") if isinstance(data, dict) else None).first()
    if game is None or not getattr(game, field) or getattr(game, field) != data.get(key):
        raise LinkError(f"This {what} link no longer works: the host has revoked it. Ask them for a new one.")
    return game


def confirm_token(game, address: str, name: str) -> str:
    return signing.dumps(
        {"g": game.pk, "j": game.join_nonce, "a": address, "n": name}, salt=CONFIRM_SALT, compress=True
    )


def read_confirm_token(token: str) -> dict:
    try:
        data = signing.loads(token, salt=CONFIRM_SALT, max_age=CONFIRM_MAX_AGE)
    except signing.SignatureExpired:
        raise LinkError("This confirmation link has expired: follow the join link again.") from None
    except signing.BadSignature:
        raise LinkError(
            "This confirmation link is not valid. It may have been cut short by your mail program."
        ) from None
    if not isinstance(data, dict) or not all(
        isinstance(data.get(k), t) for k, t in (("g", int), ("j", str), ("a", str), ("n", str))
    ):
        raise LinkError("This confirmation link is not valid.")
    return data


# --- spectators: a read-only link to the table as nobody's seat sees it --------------------------

WATCH_SALT = "games.watch-link"


def watch_token(game) -> str:
    return signing.dumps({"g": game.pk, "w": game.watch_nonce}, salt=WATCH_SALT, compress=True)


def watch_url(game) -> str:
    return settings.SITE_URL + reverse("watch", args=[watch_token(game)])


def game_from_watch_token(token: str):
    """The game a spectator link opens; LinkError in words if it opens none (forged, revoked)."""
    return _game_from_token(token, WATCH_SALT, "w", "watch_nonce", "spectator")
