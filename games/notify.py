"""Outbox rows for each kind of email, written in the transaction of their cause.

Each row holds what the email shows as plain JSON, frozen then (the seat's own view, its
question, the deadline in words), and the sender renders it: what a player reads is the table as
it was when they were asked, sending later (or again after an outage) cannot show anything newer
or anything another seat may not see, and the write path never spends its time on templates. A player's preferences decide whether a row is written at
all: unsubscribed people get nothing (their games go on), digest readers get one email a day.

Every row is written in its recipient's language (accounts.languages.for_user; a visitor with no
account, the language of the request that caused it): the subject as the row is written, the
bodies and the calendar file when it is sent, both inside `translation.override` of the language
kept in the row (`lang`). What the engine says (the question, its options, a refusal, the log) is
kept as its messages and said in that language by games.messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import css_inline
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from accounts import languages
from games.engine.prompts import key_of, prompt_key

from . import dispatch, links, pending
from .calendar_feed import words as calendar_words
from .calendar_files import Deadline, deadline_file
from .channels import pinging
from .clock import seat as seat_clock
from .clock import terms as clock_terms
from .clock.calendar import holding, quiet_hour_spans
from .messages import Reading, reading_for
from .messages import render as said
from .models import Game, Notification, Seat
from .present import as_shown, score_rows, table_template
from .reader_time import local_time

# mail clients ignore style sheets: every <style> rule becomes style="" attributes, and the tag goes
_INLINER = css_inline.CSSInliner(keep_style_tags=False, keep_link_tags=False, load_remote_stylesheets=False)


def inline_css(html: str) -> str:
    return _INLINER.inline(html) if "<style" in html else html


EMAIL_LOG_LINES = 6  # the "latest in the log" lines an email shows


# --- writing rows ----------------------------------------------------------------------------


def language_of(user) -> str:
    """The language a row to `user` is written in; without a person, the one active now (the
    request's of a visitor who asked for the mail), else the site's."""
    if user is not None:
        return languages.for_user(user)
    return languages.valid(translation.get_language()) or settings.LANGUAGE_CODE


def speaking(user) -> translation.override:
    """`with speaking(user):` the words written now (a subject) are in that person's language."""
    return translation.override(language_of(user))


def _wants(seat: Seat | None, immediate: bool) -> bool:
    """Whether this seat's person gets this email now (digest readers get decisions in their digest)."""
    if seat is None or not seat.player_id or (seat.is_bot and not seat.stand_in):
        return False
    user = seat.player
    if user.unsubscribed:
        return False
    return not (immediate and user.email_mode == user.EmailMode.DIGEST)


def _queue(
    game: Game | None,
    seat: Seat | None,
    kind: str,
    subject: str,
    template: str,
    ctx: dict[str, Any],
    reply: tuple[str, str] | None = None,
    due: bool = False,
    recipient: str | None = None,
    lang: str | None = None,
) -> Notification:
    """Write an outbox row with what the email will show, frozen now as plain JSON; `finish` renders it.

    Links, reply addresses and the calendar file are signed when the row is sent, from the seat's
    nonce as it is now: a player replaced before the send gets no working link in the old email.
    `reply` = (kind, question key) gives the email a reply address; `due` attaches the deadline.
    `lang`: the recipient's language (by default the seat's person's); `subject` is written in it.
    """
    user = seat.player if seat else None
    ctx = {
        "game": {"name": game.name, "title_name": game.title_name, "title": game.title} if game else None,
        "seat": {
            "pk": seat.pk,
            "nonce": seat.nonce,
            "index": seat.index,
            "name": seat.name,
            "player": {"display_name": user.display_name if user else ""},
        }
        if seat
        else None,
        "user_pk": user.pk if user else None,
        "subject": subject,
        "tz": user.timezone if user else "UTC",
        "lang": lang or language_of(user),
        **ctx,
    }
    if reply is not None and game is not None:
        ctx["reply"] = {"kind": reply[0], "version": game.version, "key": reply[1]}
    if due and seat is not None and seat.deadline is not None:
        ctx["deadline_at"] = seat.deadline.isoformat()
    note = Notification(
        game=game,
        seat=seat,
        recipient=recipient or user.email,
        kind=kind,
        subject=" ".join(subject.split())[:200],  # a name with a line break (the admin allows one) is one line
        template=template,
        context=ctx,
    )
    writes = pending.current()
    if writes is not None:
        writes.notes.append(note)  # inserted with the rest of the step's writes
        return note
    note.save()
    dispatch.send_after_commit([note.pk])
    return note


def finish(note: Notification) -> None:
    """Fill in a row's bodies, headers and calendar file from its frozen context (on the object only),
    in the recipient's language (a row from before languages: the site's)."""
    if note.body_text or not note.template:
        return
    lang = languages.valid((note.context or {}).get("lang")) or settings.LANGUAGE_CODE
    with translation.override(lang):
        _finish(note, lang)


def _reading(game: Game | None) -> Reading:
    """Whom a row's messages name: the players by their names of now, in the game's title's words."""
    if game is None:
        return Reading()
    return reading_for(game, {s.index: s.name for s in game.seats.select_related("player")})


def _finish(note: Notification, lang: str) -> None:
    reading = _reading(note.game if note.game_id else None)
    ctx = dict(note.context)
    view = ctx.pop("view", None)  # told as the seat saw it first (below), then said
    ctx = said(ctx, reading)  # every message in it as words, in the active language
    ctx["lang"] = lang
    ref = ctx.get("seat")
    frozen = Seat(pk=ref["pk"], nonce=ref["nonce"]) if ref else None
    if frozen is not None and "url" not in ctx:
        ctx["url"] = links.url_for(frozen)
        if ctx.get("link_to") == "history":  # the final email: the whole game, step by step
            ctx["seat_url"] = ctx["url"]
            ctx["url"] = settings.SITE_URL + reverse("seat-history", args=[links.token_for(frozen)]) + "?step=0"
    headers = dict(note.headers)
    headers["Content-Language"] = lang
    if ctx.get("reply") and frozen is not None:
        r = ctx["reply"]
        headers["Reply-To"] = links.reply_address(frozen, r["version"], r["key"], kind=r["kind"])
    ctx["home_url"] = settings.SITE_URL + reverse("home")
    if ctx.get("sign_in_user"):
        # signed when sent, so its few minutes start when the person can open it
        ctx["sign_in_url"] = links.sign_in_url(ctx["sign_in_user"])
    if ctx.get("user_pk"):
        ctx["unsubscribe_url"] = links.unsubscribe_url(ctx["user_pk"])
        headers["List-Unsubscribe"] = f"<{ctx['unsubscribe_url']}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    if ctx.get("deadline_at") and frozen is not None:
        due = datetime.fromisoformat(ctx["deadline_at"])
        question = ctx["prompt"].get("text", "") if isinstance(ctx.get("prompt"), dict) else ""
        deadline = Deadline(frozen.pk, ctx["game"]["name"], due, ctx["url"], question, calendar_words())
        note.ics = deadline_file(deadline, settings.REPLY_DOMAIN, timezone.now())
    if note.game_id:
        # the drawing takes the card catalogue from the game (fixed for its whole life) and draws
        # the seat's own cards as "yours"
        ctx["game"] = note.game
        if isinstance(view, dict) and ctx.get("log_at"):
            view = _as_told(note.game, view, ref["index"] if ref else None, ctx["log_at"])
        ctx["email_table"] = table_template(note.game.title, "email")
        ctx["as_seat"] = ref["index"] if ref else None
    if view is not None:
        ctx["view"] = said(view, reading)
    note.headers = headers
    note.body_text = render_to_string(f"emails/{note.template}.txt", ctx)
    note.body_html = inline_css(render_to_string(f"emails/{note.template}.html", ctx))


def _as_told(game: Game, view: dict[str, Any], seat: int | None, at: dict[str, int]) -> dict[str, Any]:
    """The frozen view with the moves made for a person said as such (the log as it was at version
    `at["version"]`, `at["total"]` lines long) and the players by their names of now. Read when the
    row is sent, once the steps it tells of are committed."""
    names = {s.index: s.name for s in game.seats.select_related("player")}
    return as_shown(game, view, seat, names, at["total"], upto=at["version"])


def _log_at(game: Game) -> dict[str, int]:
    """Where the frozen view's log lines stand: the game's version and its log's length now."""
    log = game.state.get("log") if isinstance(game.state, dict) else None
    return {"version": game.version, "total": len(log) if isinstance(log, list) else 0}


def render(note: Notification) -> tuple[str, str]:
    """The text and HTML bodies of a row, as they are or will be sent."""
    finish(note)
    return note.body_text, note.body_html


def _talk(seat: Seat) -> list[dict[str, str]]:
    """Table talk this seat has not been mailed yet; marks it as mailed."""
    if seat.game.last_message <= seat.seen_message:
        return []
    messages = list(seat.game.messages.filter(pk__gt=seat.seen_message).exclude(seat=seat)[:50])
    if messages:
        pending.update_seat(seat, seen_message=messages[-1].pk)
    return [{"author": m.author, "text": m.text} for m in messages]


def your_move(game: Game, seat: Seat, view: dict[str, Any], prompt, note: str = "") -> Notification | None:
    pings(game, seat, prompt)
    if not _wants(seat, immediate=True):
        return None
    with speaking(seat.player):
        subject = _("Your move in %(game)s") % {"game": game.name}
        return _asking(game, seat, view, prompt, Notification.Kind.YOUR_MOVE, subject, note)


# --- pings: every channel but email ------------------------------------------------------------


@dataclass
class _Wait:
    """A wait that pings: what its rows will say, fixed as the wait starts."""

    game: Game
    seat: Seat
    question: str
    wait: datetime
    now: datetime


class _Pings(list):
    """The waits of one held step or sweep batch, pinged together at its flush (one query per
    channel for every seat's targets, one for the waits already pinged)."""

    def __call__(self, writes: pending.Writes) -> None:
        writes.notes.extend(_ping_rows(self))


def _quiet_until(seat: Seat, now: datetime) -> datetime | None:
    """The end of the person's quiet hours if `now` falls in them: a ping waits until then."""
    span = holding(now, quiet_hour_spans(now, seat_clock.quiet_hours_of(seat)))
    return span[1] if span else None


def pings(game: Game, seat: Seat, prompt) -> list[Notification]:
    """One ping row per working target of every channel but email as a wait starts: the person's
    own (not for a digest reader, not on a channel they turned off for this seat, held through
    their quiet hours) and the game's shared chat (whose move and the deadline, never a seat link).

    A wait gives at most one ping per target: a question sent again (a fresh copy) pings nothing.
    Unsubscribing from email leaves these alone; a bot seat gets nothing. Within a held step (the
    write path, a sweep batch) the rows are written at its flush: returns [] then."""
    if seat.is_bot or seat.pk is None:
        return []
    now = timezone.now()
    wait = _Wait(game, seat, getattr(prompt, "text", ""), seat.waiting_since or now, now)
    writes = pending.current()
    if writes is None:
        rows = _ping_rows([wait])
        for row in rows:
            row.save()
        dispatch.send_after_commit([r.pk for r in rows if r.not_before is None])
        return rows
    batch = next((f for f in writes.before_flush if isinstance(f, _Pings)), None)
    if batch is None:
        batch = _Pings()
        writes.before_flush.append(batch)
    batch.append(wait)
    return []


def _ping_rows(waits: list[_Wait]) -> list[Notification]:
    users = {w.seat.player_id: w.seat.player for w in waits if w.seat.player_id}
    games = {w.game.pk: w.game for w in waits}
    found: dict[int, list[tuple[str, Any, bool]]] = {w.seat.pk: [] for w in waits}
    for channel in pinging():
        mine, shared = channel.targets_of(list(users.values()), list(games.values()))
        for w in waits:
            user = users.get(w.seat.player_id)
            personal = user is not None and user.email_mode != user.EmailMode.DIGEST
            if personal and channel.kind not in (w.seat.muted_channels or []):
                found[w.seat.pk] += [(channel.kind, t, True) for t in mine.get(user.pk, [])]
            found[w.seat.pk] += [(channel.kind, t, False) for t in shared.get(w.game.pk, [])]
    asked = [w for w in waits if found[w.seat.pk]]
    if not asked:
        return []
    earlier = Notification.objects.filter(
        seat_id__in=[w.seat.pk for w in asked],
        kind=Notification.Kind.YOUR_MOVE,
        created_at__gte=min(w.wait for w in asked),
    ).exclude(channel=Notification.Channel.EMAIL)
    pinged: dict[int, datetime] = {}
    for seat_pk, at in earlier.values_list("seat_id", "created_at"):
        pinged[seat_pk] = max(at, pinged.get(seat_pk, at))
    rows = []
    for w in asked:
        if w.seat.pk in pinged and pinged[w.seat.pk] >= w.wait:
            continue  # this wait has had its pings (a question sent again)
        rows += [_ping_row(w, kind, target, own) for kind, target, own in found[w.seat.pk]]
    return rows


def _ping_row(w: _Wait, kind: str, target: Any, own: bool) -> Notification:
    game, seat = w.game, w.seat
    user = seat.player if seat.player_id else None
    # a person's own channel speaks their language; a game's shared chat its host's
    lang = language_of(user) if own and user is not None else languages.for_user(game.organiser)
    ctx: dict[str, Any] = {
        "lang": lang,
        "game": {"name": game.name},
        "whose": seat.name,
        "deadline_at": seat.deadline.isoformat() if seat.deadline else None,
        "wait": w.wait.isoformat(),
    }
    if own and user is not None:
        ctx |= {
            "audience": "person",
            "tz": user.timezone,
            "seat": {"pk": seat.pk, "nonce": seat.nonce, "index": seat.index, "name": seat.name},
            "question": w.question,
        }
    else:  # a shared channel: no seat, no question (it may tell what only the seat may see)
        ctx |= {"audience": "game", "tz": game.timezone}
    # only a person's own channel keeps their quiet hours (reckoned here, for the seats that ping)
    held = _quiet_until(seat, w.now) if own and user is not None else None
    return Notification(
        game=game,
        seat=seat,
        recipient=user.email if own and user is not None else "",
        channel=kind,
        target_id=target.pk,
        kind=Notification.Kind.YOUR_MOVE,
        subject=_ping_subject(lang, game.name, seat.name if not own else None)[:200],
        context=ctx,
        not_before=held,
        next_attempt_at=held,
    )


def _ping_subject(lang: str, game_name: str, whose: str | None) -> str:
    with translation.override(lang):
        if whose is None:
            return _("Your move in %(game)s") % {"game": game_name}
        return _("%(player)s's move in %(game)s") % {"player": whose, "game": game_name}


def reminder(game: Game, seat: Seat, view: dict[str, Any], prompt) -> Notification | None:
    if not _wants(seat, immediate=False):
        return None
    with speaking(seat.player):
        due = local_time(seat.deadline, seat.player.timezone)
        subject = _("Reminder: your move in %(game)s is due %(due)s") % {"game": game.name, "due": due}
        return _asking(game, seat, view, prompt, Notification.Kind.REMINDER, subject)


def _bank_words(game: Game, seat: Seat, kind: str) -> str:
    """The seat's time bank as an email says it ("2 days 4 h"), or nothing without a bank.

    A your-move email goes as the wait starts, so it states the bank as stored; a reminder, what is left now.
    (games.clock.terms says it, in the active language once it speaks others.)
    """
    at = seat.clock_since if kind == Notification.Kind.YOUR_MOVE else timezone.now()
    left = seat_clock.bank_left_at(game.clock, seat, at or timezone.now())
    return clock_terms.span(left) if left is not None else ""


def _asking(game: Game, seat: Seat, view: dict[str, Any], prompt, kind: str, subject: str, note: str = ""):
    """An email that asks the seat its question: the table, the choices, the deadline, a reply address."""
    asked = prompt.to_dict()
    return _queue(
        game,
        seat,
        kind,
        subject,
        "your_move" if kind == Notification.Kind.YOUR_MOVE else "reminder",
        {
            "view": view,
            "prompt": asked,
            "note": note,
            "deadline": local_time(seat.deadline, seat.player.timezone),
            "bank": _bank_words(game, seat, kind),
            "messages": _talk(seat),
            "log_at": _log_at(game),
        },
        reply=("a", key_of(asked)),
        due=True,
    )


def invite(game: Game, seat: Seat) -> Notification | None:
    if not _wants(seat, immediate=False):
        return None
    with speaking(seat.player):
        subject = _("You are playing %(title)s: %(game)s") % {"title": game.title_name, "game": game.name}
    return _queue(
        game,
        seat,
        Notification.Kind.INVITE,
        subject,
        "invite",
        {"players": [s.name for s in game.seats.all()]},
    )


def final(game: Game, seat: Seat, view: dict[str, Any], outcome, names: dict[int, str]) -> Notification | None:
    if not _wants(seat, immediate=False):
        return None
    with speaking(seat.player):
        winners = _winners([str(names[i]) for i in outcome.winners])
        subject = ngettext(
            "Game over in %(game)s: %(winners)s wins",
            "Game over in %(game)s: %(winners)s share the win",
            len(outcome.winners),
        ) % {"game": game.name, "winners": winners}
    return _queue(
        game,
        seat,
        Notification.Kind.FINAL,
        subject,
        "final",
        {
            "rows": score_rows(outcome, names),
            "winners": winners,
            "shared": len(outcome.winners) > 1,
            "tiebreak": outcome.tiebreak,
            "view": view,
            "log_at": _log_at(game),
            "link_to": "history",
        },
    )


def _winners(names: list[str]) -> str:
    """The winners' names joined by "and" ("Ana and Ben"), in the active language."""
    return pgettext("between the names of winners", " and ").join(names)


def notice(game: Game, seat: Seat, subject: Any, text: Any) -> Notification | None:
    """Something everyone at the table should know (a bot took a seat, the game was ended...).

    `subject` and `text` are words, or callables taking nothing that write them (called in the
    recipient's language), or engine messages (the text is said when the mail is sent)."""
    if not _wants(seat, immediate=False):
        return None
    with speaking(seat.player):
        if callable(subject):
            subject = subject()
        elif not isinstance(subject, str):
            subject = said(subject, _reading(game))
        text = text() if callable(text) else text
    return _queue(game, seat, Notification.Kind.NOTICE, subject, "notice", {"text": text})


def paused(game: Game, seat: Seat, by: str, reason: str) -> Notification | None:
    """The game stopped: every clock with it, so nothing is due until it resumes."""

    def text() -> str:
        values = {"who": capfirst(by), "game": game.name, "reason": reason}
        said_it = (
            _("%(who)s paused %(game)s: %(reason)s.") % values if reason else _("%(who)s paused %(game)s.") % values
        )
        return (
            said_it
            + " "
            + _(
                "Every clock has stopped: nothing is due until the game resumes, and you will get an email when it does."
            )
        )

    return notice(game, seat, lambda: _("%(game)s is paused") % {"game": game.name}, text)


def resumed(game: Game, seat: Seat, by: str, reason: str) -> Notification | None:
    """The game goes on: the seat's deadline, moved by the length of the pause, in its own timezone."""
    if not _wants(seat, immediate=False):
        return None

    def text() -> str:
        values = {"who": capfirst(by), "game": game.name, "reason": reason}
        said_it = (
            _("%(who)s resumed %(game)s: %(reason)s.") % values if reason else _("%(who)s resumed %(game)s.") % values
        )
        if seat.deadline is not None:
            due = _("Your move is now due %(due)s.") % {"due": local_time(seat.deadline, seat.player.timezone)}
        else:
            due = _("Nothing is waiting on you right now; you will get an email when it is your move.")
        return f"{said_it} {due}"

    return notice(game, seat, lambda: _("%(game)s goes on") % {"game": game.name}, text)


def table_talk(game: Game, seat: Seat) -> Notification | None:
    """New messages for a seat that is not being asked anything (else they ride on its next email)."""
    if not _wants(seat, immediate=False):
        return None
    messages = _talk(seat)
    if not messages:
        return None
    with speaking(seat.player):
        subject = ngettext("New message at %(game)s", "New messages at %(game)s", len(messages)) % {"game": game.name}
    return _queue(
        game,
        seat,
        Notification.Kind.MESSAGE,
        subject,
        "table_talk",
        {"messages": messages},
        reply=("t", "talk"),
    )


def plan_offer(game: Game, seat: Seat, prompt) -> Notification | None:
    """For a player who answers by email: the next question as it looks now, to answer in advance."""
    if not _wants(seat, immediate=True):
        return None
    with speaking(seat.player):
        subject = _("Plan ahead in %(game)s") % {"game": game.name}
    return _queue(
        game,
        seat,
        Notification.Kind.PLAN,
        subject,
        "plan_offer",
        {"prompt": prompt.to_dict()},
        reply=("p", prompt_key(prompt)),
    )


def sign_in(user) -> Notification:
    """A one-time sign-in link, asked for on the sign-in page (sent even to an unsubscribed person:
    they asked for it just now)."""
    with speaking(user):
        subject = _("Your sign-in link for Café turns")
    return _queue(
        None,
        None,
        Notification.Kind.SIGN_IN,
        subject,
        "sign_in",
        {"sign_in_user": user.pk},
        recipient=user.email,
        lang=language_of(user),
    )


def rematch(game: Game, seat: Seat, actor) -> Notification | None:
    """An offer to play the same table again; the seat's link has the one-click yes."""
    if not _wants(seat, immediate=False):
        return None
    with speaking(seat.player):
        who = actor.display_name if actor is not None else _("The host")
        subject = _("%(who)s offers to play %(game)s again") % {"who": who, "game": game.previous.name}
    return _queue(
        game,
        seat,
        Notification.Kind.REMATCH,
        subject,
        "rematch",
        {"offered_by": who, "players": [s.name for s in game.seats.all()]},
    )


def join_confirmation(game: Game, address: str, url: str) -> Notification:
    """The link that confirms a join: whoever follows it from this address takes an open seat. In the
    language of the page the visitor asked from (they may have no account yet)."""
    lang = language_of(None)
    with translation.override(lang):
        subject = _("Confirm your seat in %(game)s") % {"game": game.name}
    return _queue(
        None,
        None,
        Notification.Kind.JOIN,
        subject,
        "join_confirm",
        {"join": {"name": game.name, "title_name": game.title_name, "host": game.organiser.display_name}, "url": url},
        recipient=address,
        lang=lang,
    )


def fresh_link(seat: Seat) -> Notification | None:
    if not _wants(seat, immediate=False):
        return None
    with speaking(seat.player):
        subject = _("Your link to %(game)s") % {"game": seat.game.name}
    return _queue(
        seat.game,
        seat,
        Notification.Kind.FRESH_LINK,
        subject,
        "fresh_link",
        {},
    )


def reply_problem(seat: Seat | None, recipient: str, problem: Any, prompt: dict | None, url: str = "") -> Notification:
    """The answer to a reply that could not be played: why, and the choices again. Nothing changed.

    In the language of the person the address belongs to (the seat's player, or an account with
    that address), else the site's. `problem`: words, or an engine message said when it is sent;
    `prompt`: the engine's own question (`to_dict()`), said in the recipient's language then too."""
    own = seat if seat and seat.player and seat.player.email == recipient else None
    person = own.player if own else _person(recipient)
    lang = languages.for_user(person) if person is not None else settings.LANGUAGE_CODE
    with translation.override(lang):
        subject = _("Your reply could not be played")
        if isinstance(problem, Promise):  # a translatable constant: said in the recipient's language
            problem = str(problem)
    return _queue(
        seat.game if seat else None,
        own,
        Notification.Kind.REPLY_PROBLEM,
        subject,
        "reply_problem",
        {"problem": problem, "prompt": prompt, "url": url},
        recipient=recipient,
        lang=lang,
    )


def _person(address: str):
    from accounts.models import User

    return User.objects.filter(email__iexact=address).first() if address else None
