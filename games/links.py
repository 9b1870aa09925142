"""The links and reply addresses a game hands out, as seats, games and URLs.

accounts.tokens signs and reads every token (it says why it lives there); this module gives it the
ids and nonces of seats, games and people, turns what it reads back into seats and games (or a
LinkError that says in words why a link opens nothing), and builds the URLs emails and pages carry.

A seat link is bound to one seat and its current nonce: rotating the nonce (a new player takes the
seat) revokes every link sent before. A token names its seat, so a token for seat A can never act
for seat B.
"""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models.expressions import RawSQL
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import tokens

from .mailin.addresses import canonical_form, parse_mailbox_url, plus_form
from .models import Seat
from .state_parts import StateField

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


def token_for(seat: Seat, signed_at: int | None = None) -> str:
    """`signed_at` dates the link earlier than now (accounts.tokens.seat_token): a calendar feed's
    links then stay the same all day."""
    return tokens.seat_token(seat.pk, seat.nonce, signed_at=signed_at)


def url_for(seat: Seat, signed_at: int | None = None) -> str:
    return settings.SITE_URL + reverse("seat", args=[token_for(seat, signed_at)])


def seat_from_token(token: str, lean: bool = False, log_lines: int | None = None) -> Seat:
    """The seat a link opens, with its game and player; LinkError in words if it opens none.

    `lean` reads only what an answer needs (the seat's game id, index and nonce): the write path
    reads the game and its seats itself, under the game's lock. `log_lines` reads the game's state
    with only that many of its newest log entries, for a page that shows no more; the seat's
    `log_total` then says how long the whole log is. Such a game must not be saved.
    """
    try:
        seat_pk, nonce = tokens.read_seat_token(token)
    except tokens.ExpiredToken as e:
        # genuine but old: find the seat so the page can offer to mail a fresh link to its owner
        seat_pk, nonce = e.payload
        seat = Seat.objects.filter(pk=seat_pk, nonce=nonce).select_related("game").first()
        raise LinkError(_("This link has expired. Links stay valid for a while after each email."), seat) from None
    except tokens.BadToken:
        raise LinkError(_("This link is not valid. It may have been cut short by your mail program.")) from None
    found = Seat.objects.filter(pk=seat_pk)
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
        raise LinkError(_("This link is for a seat that no longer exists."))
    if seat.nonce != nonce:
        raise LinkError(_("This link has been replaced by a newer one: use the link in your latest email."))
    return seat


# --- join links: a game's open seats, shared by its host ---------------------------------------


def join_token(game) -> str:
    return tokens.join_token(game.pk, game.join_nonce)


def join_url(game) -> str:
    return settings.SITE_URL + reverse("join", args=[join_token(game)])


def game_from_join_token(token: str):
    """The draft game a join link opens; LinkError in words if it opens none (forged, revoked, started)."""
    from .models import Game

    game = _game_from_token(token, tokens.read_join_token, "join_nonce", "join")
    if game.status != Game.Status.DRAFT:
        raise LinkError(_("This game has started, so its join link no longer works."))
    return game


# a shared link refused: (not valid, revoked), for each kind of link
SHARED_LINK_WORDS = {
    "join": (
        gettext_lazy("This join link is not valid. It may have been cut short by your mail program."),
        gettext_lazy("This join link no longer works: the host has revoked it. Ask them for a new one."),
    ),
    "spectator": (
        gettext_lazy("This spectator link is not valid. It may have been cut short by your mail program."),
        gettext_lazy("This spectator link no longer works: the host has revoked it. Ask them for a new one."),
    ),
}


def _game_from_token(token: str, read, field: str, what: str):
    """The game a shared link (join, watch) names, while its nonce is still the game's; else LinkError."""
    from .models import Game

    try:
        game_pk, nonce = read(token)
    except tokens.BadToken:
        raise LinkError(str(SHARED_LINK_WORDS[what][0])) from None
    game = Game.objects.filter(pk=game_pk).first()
    if game is None or not getattr(game, field) or getattr(game, field) != nonce:
        raise LinkError(str(SHARED_LINK_WORDS[what][1]))
    return game


def confirm_token(game, address: str, name: str) -> str:
    return tokens.confirm_token(game.pk, game.join_nonce, address, name)


def read_confirm_token(token: str) -> dict:
    try:
        data = tokens.read_confirm_token(token)
    except tokens.ExpiredToken:
        raise LinkError(_("This confirmation link has expired: follow the join link again.")) from None
    except tokens.BadToken:
        raise LinkError(
            _("This confirmation link is not valid. It may have been cut short by your mail program.")
        ) from None
    if data is None:
        raise LinkError(_("This confirmation link is not valid."))
    return data


# --- spectators: a read-only link to the table as nobody's seat sees it --------------------------


def watch_token(game) -> str:
    return tokens.watch_token(game.pk, game.watch_nonce)


def watch_url(game) -> str:
    return settings.SITE_URL + reverse("watch", args=[watch_token(game)])


def game_from_watch_token(token: str):
    """The game a spectator link opens; LinkError in words if it opens none (forged, revoked)."""
    return _game_from_token(token, tokens.read_watch_token, "watch_nonce", "spectator")


# --- reply addresses, unsubscribe and sign-in links (what an email carries) ----------------------


def reply_address(seat: Seat, version: int, key: str, kind: str = "a") -> str:
    """A per-seat reply address (accounts.tokens.reply_address): kind a = answer, t = table talk, p = plan.
    With an IMAP mailbox for replies (REPLY_IMAP_URL), the same token as a plus-address of that mailbox."""
    address = tokens.reply_address(seat.pk, seat.nonce, version, key, kind)
    mailbox = reply_mailbox_address()
    return plus_form(address, mailbox, settings.REPLY_LOCAL_PREFIX) if mailbox else address


def read_reply_address(address: str) -> tuple[Seat, str, int, str] | None:
    """(seat, kind, version, key) for a genuine reply address in either form, else None."""
    return tokens.read_reply_address(
        canonical_reply_address(address),
        lambda pk: Seat.objects.select_related("game", "player").filter(pk=pk).first(),
    )


# --- the plus-address form, when replies come through an IMAP mailbox (games.mailin) -------------


def reply_mailbox_address() -> str:
    """The IMAP mailbox's own address when replies are read from one (REPLY_IMAP_URL), else ""."""
    return _mailbox_address(getattr(settings, "REPLY_IMAP_URL", ""))


@lru_cache(maxsize=4)
def _mailbox_address(url: str) -> str:
    return parse_mailbox_url(url).address if url else ""


def canonical_reply_address(address: str) -> str:
    """A plus-address of the reply mailbox as `<prefix><token>@REPLY_DOMAIN`; any other address unchanged."""
    return canonical_form(address, reply_mailbox_address(), settings.REPLY_LOCAL_PREFIX, settings.REPLY_DOMAIN)


def unsubscribe_url(user_pk: int) -> str:
    return settings.SITE_URL + reverse("unsubscribe", args=[tokens.unsubscribe_token(user_pk)])


def sign_in_url(user_pk: int) -> str:
    user = get_user_model().objects.get(pk=user_pk)
    return settings.SITE_URL + reverse("sign-in-link") + tokens.sign_in_query(user)
