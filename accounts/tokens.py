"""Every signed token the service hands out is made and read here, and nowhere else.

| kind | made from | lifetime | how |
|---|---|---|---|
| seat link | a seat's id and nonce | SEAT_LINK_MAX_AGE (an expired one is still told apart) | django.core.signing |
| seat link in a calendar feed | the same, signed as of the start of its day | as a seat link, from that moment | django.core.signing |
| join link | a game's id and join nonce | until the host makes a new one | django.core.signing |
| join confirmation | a game's id and join nonce, an address, a name | CONFIRM_MAX_AGE | django.core.signing |
| spectator link | a game's id and watch nonce | until the host makes a new one | django.core.signing |
| reply address | a seat's id and nonce, the version, the question's key, the kind | the seat's nonce | an HMAC in the local part |
| unsubscribe link | a person's id | none | django.core.signing |
| calendar feed address | a person's id and calendar nonce | until they make a new one | django.core.signing (no timestamp) |
| sign-in link | a person | SESAME_MAX_AGE, spent once | django-sesame |

Why here, in accounts: accounts is the lowest layer and reads the sign-in link itself, and it
imports nothing of games; so every kind is made and read from plain ids and nonces, never from a
game model. games.links turns what is read here into seats and games (with the words a person
reads when a link opens nothing) and builds the URLs. Keeping every salt, lifetime and payload
side by side is what lets a reader check them at one glance: a token of one kind never reads as
another (each kind has its own salt), and rotating a nonce revokes every token made from it.
The salts are the ones the links already sent carry: changing one revokes them all.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core import signing
from django.utils.crypto import salted_hmac
from sesame.utils import get_query_string, get_user

SEAT_SALT = "games.seat-link"
JOIN_SALT = "games.join-link"
CONFIRM_SALT = "games.join-confirm"
CONFIRM_MAX_AGE = 24 * 3600  # the emailed confirmation of a join
WATCH_SALT = "games.watch-link"
REPLY_SALT = "games.reply"
UNSUBSCRIBE_SALT = "games.unsubscribe"
CALENDAR_SALT = "accounts.calendar-feed"


class BadToken(Exception):
    """A token that is not genuine: forged, cut short, or made for another kind."""


class ExpiredToken(BadToken):
    """A genuine token past its kind's lifetime; `payload` is what it said."""

    def __init__(self, payload: Any):
        super().__init__("expired")
        self.payload = payload


# --- seat links ---------------------------------------------------------------------------------


def seat_token(seat_pk: int, nonce: str, signed_at: int | None = None) -> str:
    """A seat link's token. `signed_at` (Unix seconds, not in the future) dates it earlier than now,
    so the same link comes out all day: a calendar feed then stays the same between polls (its
    ETag holds), and the link still has SEAT_LINK_MAX_AGE from that moment."""
    data = {"s": seat_pk, "n": nonce}
    if signed_at is None:
        return signing.dumps(data, salt=SEAT_SALT, compress=True)
    return _SignedAt(signed_at, salt=SEAT_SALT).sign_object(data, compress=True)


class _SignedAt(signing.TimestampSigner):
    """django.core.signing's timestamped token, stamped with a given moment rather than now."""

    def __init__(self, at: int, **kwargs: Any):
        super().__init__(**kwargs)
        self.at = at

    def timestamp(self) -> str:
        return signing.b62_encode(self.at)


def read_seat_token(token: str) -> tuple[Any, Any]:
    """(seat id, nonce) a seat link names; ExpiredToken (with them) or BadToken."""
    try:
        data = signing.loads(token, salt=SEAT_SALT, max_age=settings.SEAT_LINK_MAX_AGE)
    except signing.SignatureExpired:
        # genuine but old: the caller may offer to mail a fresh link to the seat's owner
        raise ExpiredToken(_seat_of(signing.loads(token, salt=SEAT_SALT))) from None
    except signing.BadSignature:
        raise BadToken from None
    return _seat_of(data)


def _seat_of(data: dict) -> tuple[Any, Any]:
    return data.get("s"), data.get("n")


# --- a game's shared links: join and spectate ---------------------------------------------------


def join_token(game_pk: int, join_nonce: str) -> str:
    return signing.dumps({"g": game_pk, "j": join_nonce}, salt=JOIN_SALT, compress=True)


def read_join_token(token: str) -> tuple[Any, Any]:
    """(game id, join nonce) a join link names (None for what it does not say); BadToken."""
    return _read_game_token(token, JOIN_SALT, "j")


def watch_token(game_pk: int, watch_nonce: str) -> str:
    return signing.dumps({"g": game_pk, "w": watch_nonce}, salt=WATCH_SALT, compress=True)


def read_watch_token(token: str) -> tuple[Any, Any]:
    """(game id, watch nonce) a spectator link names (None for what it does not say); BadToken."""
    return _read_game_token(token, WATCH_SALT, "w")


def _read_game_token(token: str, salt: str, key: str) -> tuple[Any, Any]:
    try:
        data = signing.loads(token, salt=salt)
    except signing.BadSignature:
        raise BadToken from None
    if not isinstance(data, dict):
        return None, None
    return data.get("g"), data.get(key)


def confirm_token(game_pk: int, join_nonce: str, address: str, name: str) -> str:
    return signing.dumps({"g": game_pk, "j": join_nonce, "a": address, "n": name}, salt=CONFIRM_SALT, compress=True)


def read_confirm_token(token: str) -> dict | None:
    """A join confirmation's {"g": game id, "j": join nonce, "a": address, "n": name}; None if a
    genuine one does not hold those; ExpiredToken or BadToken."""
    try:
        data = signing.loads(token, salt=CONFIRM_SALT, max_age=CONFIRM_MAX_AGE)
    except signing.SignatureExpired:
        raise ExpiredToken(None) from None
    except signing.BadSignature:
        raise BadToken from None
    if not isinstance(data, dict) or not all(
        isinstance(data.get(k), t) for k, t in (("g", int), ("j", str), ("a", str), ("n", str))
    ):
        return None
    return data


# --- reply addresses ----------------------------------------------------------------------------


def reply_address(seat_pk: int, nonce: str, version: int, key: str, kind: str = "a") -> str:
    """A per-seat reply address: kind a = answer the question, t = table talk, p = a plan.

    Lower-case hex only, since some mail systems fold the case of local parts; the HMAC covers the
    seat's nonce, so replacing the player revokes old reply addresses like old links.
    """
    body = f"{kind}-{seat_pk}-{version}-{key[:8]}"
    mac = salted_hmac(REPLY_SALT, f"{body}-{nonce}", algorithm="sha256").hexdigest()[:20]
    return f"{settings.REPLY_LOCAL_PREFIX}{body}-{mac}@{settings.REPLY_DOMAIN}"


_REPLY_LOCAL = re.compile(r"([a-z])-([0-9]{1,12})-([0-9]{1,12})-([0-9a-z]{1,16})-([0-9a-f]{20})")


def read_reply_address(address: str, find_seat: Callable[[int], Any]) -> tuple[Any, str, int, str] | None:
    """(seat, kind, version, key) for a genuine reply address, else None.

    `find_seat(id)` gives the seat the address names (anything with a `nonce`), or None: the HMAC
    is checked against the seat's nonce as it is now. Only our own REPLY_DOMAIN (any case) counts:
    the signed local part at another domain is mail to someone else. The local part is read by one
    strict pattern, ASCII digits only.
    """
    local, at, domain = address.rpartition("@")
    if not at or domain.lower() != settings.REPLY_DOMAIN.lower() or len(local) > 128:
        return None
    local = local.lower()
    prefix = settings.REPLY_LOCAL_PREFIX.lower()
    if not local.startswith(prefix):
        return None
    found = _REPLY_LOCAL.fullmatch(local[len(prefix) :])
    if found is None:
        return None
    parts = found.groups()
    kind, seat_pk, version, key, mac = parts
    seat = find_seat(int(seat_pk))
    if seat is None:
        return None
    body = f"{kind}-{seat_pk}-{version}-{key}"
    expected = salted_hmac(REPLY_SALT, f"{body}-{seat.nonce}", algorithm="sha256").hexdigest()[:20]
    if not signing.constant_time_compare(mac, expected):
        return None
    return seat, kind, int(version), key


# --- people: unsubscribe and sign in ------------------------------------------------------------


def unsubscribe_token(user_pk: int) -> str:
    return signing.dumps({"u": user_pk}, salt=UNSUBSCRIBE_SALT)


def user_from_unsubscribe(token: str):
    """The person an unsubscribe link names, or None."""
    from .models import User

    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    return User.objects.filter(pk=data.get("u")).first()


# --- a person's calendar feed -------------------------------------------------------------------


def calendar_token(user_pk: int, nonce: str) -> str:
    """The private calendar feed's address for a person: the same every time it is shown (no
    timestamp: calendar apps keep polling it for years), until a new nonce revokes it."""
    return signing.Signer(salt=CALENDAR_SALT).sign_object({"u": user_pk, "n": nonce})


def read_calendar_token(token: str) -> tuple[Any, Any]:
    """(person id, calendar nonce) a feed address names (None for what it does not say); BadToken."""
    try:
        data = signing.Signer(salt=CALENDAR_SALT).unsign_object(token)
    except (signing.BadSignature, ValueError, UnicodeError):
        # a genuine signature over bytes that are not our JSON cannot happen; a damaged token can
        raise BadToken from None
    if not isinstance(data, dict):
        return None, None
    return data.get("u"), data.get("n")


def sign_in_query(user) -> str:
    """The query string ("?sesame=...") that signs this person in once, within SESAME_MAX_AGE."""
    return get_query_string(user)


def user_from_sign_in(token: str, spend: bool):
    """The person a sign-in token names, or None. `spend` signs them in (the link then works no
    more); without it the token is only looked at (a GET: mail scanners fetch links)."""
    return get_user(token) if spend else get_user(token, update_last_login=False)
