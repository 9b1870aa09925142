"""A person's private calendar feed (/me/calendar/<token>.ics): every deadline now running on them.

Read only, in one query: the person's seats that wait on a decision with a deadline in a game in
play (a paused game's deadlines are not running: they come back, moved, when it resumes), each
with its own question and its own signed link. games.calendar_files writes the file, in the
person's language (their profile's: a calendar app has no browser language to go by).

Calendar apps poll the feed, so it answers "unchanged" cheaply and truthfully. Its ETag is a
digest of the file. Its Last-Modified, and each event's DTSTAMP, LAST-MODIFIED and SEQUENCE,
come from when that content was first served, remembered in the cache: the database keeps no
"changed at" for a deadline (a pause, an extension, vacation hours drawn by the sweep all move
it), so the feed notes a change when it first sees one. A forgotten stamp is taken as "changed
now", which costs a client one full download and never makes it keep a stale copy. Each new
stamp is at least a second after the one it replaces, so two changes within a second are still
two revisions to a client that compares Last-Modified.

Seat links in the feed are signed as of the start of their day: the file is the same all day
(its ETag holds between polls), and a link from it stays valid SEAT_LINK_MAX_AGE less a day.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from datetime import UTC, datetime

from django.conf import settings
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts import languages, tokens

from . import links
from .calendar_files import Deadline, Words, feed_file
from .messages import reading_for, say
from .models import Game, Seat

STAMP_TIMEOUT = 60 * 24 * 3600  # seconds the cache remembers a stamp (a forgotten one only costs a download)
DAY = 24 * 3600


@dataclass(frozen=True)
class Feed:
    body: bytes
    etag: str  # unquoted
    last_modified: datetime


def words() -> Words:
    """A calendar file's words in the active language."""
    return Words(
        summary=_("Your move in %(game)s"),
        answer_here=_("Answer here: %(url)s"),
        feed_name=_("Café turns: my deadlines"),
    )


def deadlines_of(user_pk: int, now: datetime) -> list[Deadline]:
    """The person's running deadlines, soonest first, in the active language (one query, and one
    for each game's players' names when a question names a seat)."""
    return _deadlines(_seats(user_pk), now)


def _seats(user_pk: int):
    return (
        Seat.objects.filter(
            player_id=user_pk,
            is_bot=False,
            deadline__isnull=False,
            waiting_since__isnull=False,
            game__status=Game.Status.ACTIVE,
        )
        .select_related("game", "player")
        .only(
            "pk",
            "nonce",
            "index",
            "deadline",
            "game",
            "game__name",
            "game__title",
            "game__state",
            "game__status",
            "player",
            "player__language",
        )
        .order_by("deadline", "pk")
    )


def _deadlines(seats, now: datetime) -> list[Deadline]:
    signed_at = int(now.timestamp()) // DAY * DAY
    found = []
    said = words()
    for seat in seats:
        game = seat.game
        prompt = game.engine.prompts(game.state).get(seat.index)
        if prompt is None:  # nothing asked of this seat (so nothing will time out): no deadline runs
            continue
        found.append(
            Deadline(
                seat_pk=seat.pk,
                game_name=game.name,
                due=seat.deadline,
                url=links.url_for(seat, signed_at),
                question=_question(prompt.text, game),
                words=said,
            )
        )
    return found


def _question(text, game: Game) -> str:
    """The question in words; the players' names are read only when it names a seat."""
    if isinstance(text, str):
        return text
    names = {s.index: s.name for s in game.seats.select_related("player")} if "$seat" in repr(text) else {}
    return say(text, reading_for(game, names))


def feed_for(user_pk: int, now: datetime, language: str | None = None) -> Feed:
    """The person's feed as a file, with its ETag and Last-Modified, in the person's language:
    `language` (their profile's, from the caller who has read them), else the one their seats'
    query reads with them, else the active one. Still one query."""
    seats = list(_seats(user_pk))
    if language is None and seats:
        language = languages.for_user(seats[0].player)
    with translation.override(languages.valid(language) or translation.get_language() or settings.LANGUAGE_CODE):
        return _feed(user_pk, seats, now)


def _feed(user_pk: int, seats: list[Seat], now: datetime) -> Feed:
    deadlines = _deadlines(seats, now)
    contents = {_seat_key(d.seat_pk): _content(d) for d in deadlines}
    feed_key = f"calendar:feed:{user_pk}"
    contents[feed_key] = "\n".join(contents.values())
    stamps = revisions(contents, now)
    body = feed_file([(d, stamps[_seat_key(d.seat_pk)]) for d in deadlines], settings.REPLY_DOMAIN, words())
    return Feed(body=body, etag=hashlib.sha256(body).hexdigest()[:32], last_modified=max(stamps.values()))


def _seat_key(seat_pk: int) -> str:
    return f"calendar:seat:{seat_pk}"


def _content(deadline: Deadline) -> str:
    # the words are content too: a feed read in a new language is a new revision
    return json.dumps([deadline.due.isoformat(), deadline.game_name, deadline.question, deadline.url, deadline.summary])


def revisions(contents: dict[str, str], now: datetime) -> dict[str, datetime]:
    """When each key's content was first served (whole seconds), as far as the cache remembers."""
    held = cache.get_many(list(contents))
    floor = math.ceil(now.timestamp())
    stamps: dict[str, int] = {}
    changed: dict[str, list] = {}
    for key, content in contents.items():
        digest = hashlib.sha256(content.encode("utf-8", "surrogatepass")).hexdigest()
        was = held.get(key)
        valid = isinstance(was, list) and len(was) == 2 and isinstance(was[1], int)
        if valid and was[0] == digest:
            stamps[key] = was[1]
            continue
        stamps[key] = max(floor, was[1] + 1) if valid else floor
        changed[key] = [digest, stamps[key]]
    if changed:
        cache.set_many(changed, STAMP_TIMEOUT)
    return {key: datetime.fromtimestamp(stamp, UTC) for key, stamp in stamps.items()}


def feed_url(user) -> str:
    """The person's feed address, to copy into a calendar app (the same each time it is shown)."""
    token = tokens.calendar_token(user.pk, user.calendar_nonce)
    return settings.SITE_URL + reverse("calendar-feed", args=[token])


def subscribe_url(user) -> str:
    """The same address as webcal://, which offers it to the device's calendar app."""
    return "webcal://" + feed_url(user).split("://", 1)[-1]
