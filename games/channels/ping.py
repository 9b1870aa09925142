"""What a short channel (push, chat) says of an outbox row, and the row's idempotency key.

A ping row's context is frozen when the wait starts (games.notify): the game's name, whose move,
the question's one line, the deadline, the reader's timezone, and who reads it: a person (their
own device or webhook) or a game's shared chat. Links are made when the row is sent, as for email:
a person's channel gets their seat's signed link, a game's chat the game's public spectator page,
never a seat link (a shared channel is read by many).

A ping is said in its reader's language, kept in the row (`lang`: the person's, or for a game's
shared chat its host's), and the question (an engine message) is said in it by games.messages.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from accounts import languages
from games import links
from games.messages import reading_for, say
from games.models import Game, Notification, Seat
from games.reader_time import local_time

QUESTION_CHARS = 140


@dataclass(frozen=True)
class Ping:
    """What a short channel (push, chat) says of a notification: a few words and where to go.

    `url` is the seat's own link for a person's channel, and the game's public page for a game's
    shared chat (never a seat link: a chat channel is read by many)."""

    title: str
    body: str
    url: str
    game_name: str = ""
    whose_move: str = ""
    deadline: str = ""  # in words, in the reader's timezone ("Sat 28 Nov, 18:00 (Europe/Paris)")
    tag: str = ""  # one per wait: a later ping of the same wait replaces the earlier on a device


def idempotency_key(note: Notification) -> str:
    """The row's Message-ID, the same on every try: a repeat after a crash can be dropped by it."""
    domain = settings.DEFAULT_FROM_EMAIL.rsplit("@", 1)[-1].strip(" >") or "localhost"
    stamp = note.created_at.isoformat() if note.created_at else ""
    digest = hashlib.sha256(f"{note.pk}:{stamp}:{settings.SECRET_KEY}".encode()).hexdigest()[:16]
    return f"<cafe-turns.{note.pk}.{digest}@{domain}>"


def one_line(text: object, limit: int = QUESTION_CHARS) -> str:
    """A question as one short line: whitespace folded, cut with an ellipsis."""
    line = " ".join(str(text or "").split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def game_page(game: Game | None) -> str:
    """The game's public page (its spectator link), or "" if its host keeps none."""
    if game is None or not game.watch_nonce:
        return ""
    return links.watch_url(game)


def ping_of(note: Notification) -> Ping:
    """The row as a ping, in its reader's language (a row from before languages: the site's)."""
    ctx: dict[str, Any] = note.context or {}
    with translation.override(languages.valid(ctx.get("lang")) or settings.LANGUAGE_CODE):
        return _ping_of(note, ctx)


def _question(note: Notification, question: Any) -> str:
    """The question's words: an engine message said with the players' names of now."""
    if isinstance(question, str) or question is None:
        return str(question or "")
    game = note.game if note.game_id else None
    names = {s.index: s.name for s in game.seats.select_related("player")} if game is not None else {}
    return say(question, reading_for(game, names))


def _ping_of(note: Notification, ctx: dict[str, Any]) -> Ping:
    game_name = str((ctx.get("game") or {}).get("name") or "")
    whose = str(ctx.get("whose") or "")
    due_at = ctx.get("deadline_at")
    deadline = local_time(datetime.fromisoformat(due_at), str(ctx.get("tz") or "UTC")) if due_at else ""
    tag = f"cafe-turns:{note.seat_id or note.game_id}:{ctx.get('wait', '')}"
    ref = ctx.get("seat")
    if ctx.get("audience") == "game":
        url = game_page(note.game)  # a shared channel: never a seat link
    else:
        url = links.url_for(Seat(pk=ref["pk"], nonce=ref["nonce"])) if ref else ""
    if ctx.get("ended"):
        title = str(ctx.get("title") or _("Game over in %(game)s") % {"game": game_name})
        return Ping(title=title, body=title + ".", url=url, game_name=game_name, tag=tag)
    due = " " + _("Due %(deadline)s.") % {"deadline": deadline} if deadline else ""
    if ctx.get("audience") == "game":
        title = _("%(player)s's move in %(game)s") % {"player": whose, "game": game_name}
        body = _("%(player)s's move in %(game)s.") % {"player": whose, "game": game_name} + due
    else:
        question = one_line(_question(note, ctx.get("question")))
        title = _("Your move in %(game)s") % {"game": game_name}
        if question:
            body = _("Your move, %(player)s: %(question)s") % {"player": whose, "question": question}
        else:
            body = _("Your move, %(player)s.") % {"player": whose}
        body += due
    return Ping(title=title, body=body, url=url, game_name=game_name, whose_move=whose, deadline=deadline, tag=tag)
