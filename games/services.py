"""The one write path. Nothing else appends an Event or changes Game.state.

Every change runs in one transaction: lock the game row (where the database has row locks),
check the version the player saw, let the pure engine apply the answer, append the Event, update
the projection (with a version-guarded UPDATE that holds without row locks too, e.g. on SQLite),
write the outbox rows, and schedule bots and mail with on_commit so nothing is sent for a
change that did not commit.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.engine import IllegalMove, OptionsError, step_rng
from games.engine.cards import content_hash
from games.engine.protocol import Title

from . import notify
from .models import Event, Game, Seat

log = logging.getLogger(__name__)


class SubmitError(Exception):
    """A refused answer; `message` is for the player, `code` for code and tests. Nothing was written."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass
class Applied:
    event: Event
    game: Game


# --- creating and starting games -------------------------------------------------------------


def create_game(organiser, title: str, name: str, options: dict[str, Any], seats: list[str | None]) -> Game:
    """A draft game. `seats` lists an email address per seat, or None for a bot."""
    engine = _engine(title)
    if not engine.min_players <= len(seats) <= engine.max_players:
        raise OptionsError(f"{engine.name} takes {engine.min_players} to {engine.max_players} players.")
    from accounts.models import User

    with transaction.atomic():
        game = Game.objects.create(title=title, name=name, organiser=organiser, options=options)
        for i, email in enumerate(seats):
            player = User.objects.for_email(email) if email else None
            Seat.objects.create(game=game, index=i, player=player, is_bot=player is None)
    return game


def start_game(game: Game, actor=None) -> Game:
    """Deal the table: the first event records the seed and the card set, so replay needs nothing else."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.DRAFT:
            raise SubmitError("This game has already started.", "started")
        engine = game.engine
        seats = list(game.seats.select_related("player"))
        options = dict(game.options)
        load = getattr(engine, "load_cardset", None)
        if load is not None and "cardset" not in options:
            options["cardset"] = load()
        seed = secrets.token_hex(16)
        state = engine.setup([s.name for s in seats], options, step_rng(seed, 0))
        cardset_hash = content_hash(options.get("cardset")) if "cardset" in options else ""
        Event.objects.create(
            game=game,
            seq=0,
            kind=Event.Kind.CREATED,
            payload={
                "seed": seed,
                "players": [s.name for s in seats],
                "options": options,
                "cardset_hash": cardset_hash,
            },
            via="admin" if actor else "",
            actor=actor,
        )
        game.seed, game.cardset_hash, game.state, game.version = seed, cardset_hash, state, 0
        game.status = Game.Status.ACTIVE
        game.save()
        for seat in seats:
            if not seat.is_bot:
                notify.invite(game, seat)
        _after_step(game, engine, before={}, via="start")
    return game


# --- the write path --------------------------------------------------------------------------


def submit(
    game_id: int,
    seat_index: int,
    answer: Any,
    expected_version: int | None,
    via: str,
    actor=None,
    prompt_key: str | None = None,
) -> Applied:
    """Apply one seat's answer, or raise SubmitError and write nothing.

    `expected_version` is the version the player saw. If the table moved on since, the answer is
    still taken when this seat has not answered since and its question is the same one it saw
    (`prompt_key`): other seats answering a simultaneous decision must not void yours. A second
    click on the same form is refused as already answered.
    """
    try:
        with transaction.atomic():
            game = _locked(game_id)
            if game.status == Game.Status.ENDED:
                raise SubmitError("This game is over; nothing more can be played.", "ended")
            if game.status != Game.Status.ACTIVE:
                raise SubmitError("This game is paused; answers are taken again once it resumes.", "paused")
            engine = game.engine
            state = game.state
            prompts = engine.prompts(state)
            if expected_version is not None and expected_version != game.version:
                _check_stale(game, seat_index, expected_version, prompts, prompt_key)
            if seat_index not in prompts:
                raise SubmitError(
                    "It is not your move right now: nothing is being asked of your seat.", "not_your_turn"
                )
            try:
                answer = prompts[seat_index].validate(answer)
                seq = game.version + 1
                new_state = engine.apply(state, seat_index, answer, step_rng(game.seed, seq))
            except IllegalMove as e:
                raise SubmitError(f"{e} Nothing was played.", "illegal") from None
            event = _append(game, seq, Event.Kind.ANSWER, seat_index, {"answer": answer}, via, actor, new_state)
            _after_step(game, engine, before=prompts, via=via)
            return Applied(event, game)
    except IntegrityError:
        # another submit took this seq between our read and our insert (databases without row locks)
        raise SubmitError(
            "Someone else's move arrived at the same moment. Nothing was played; try again.", "stale"
        ) from None


def prompt_key(prompt) -> str:
    """A short fingerprint of a question, so a stale form can tell whether it was asked the same thing."""
    return content_hash(prompt.to_dict())[:16]


def _check_stale(game: Game, seat_index: int, expected: int, prompts: dict, key: str | None) -> None:
    answered = Event.objects.filter(game=game, seq__gt=expected, seat=seat_index, kind=Event.Kind.ANSWER).exists()
    if answered:
        raise SubmitError("You have already answered this. Nothing more was played.", "already_answered")
    if seat_index not in prompts or key is None or prompt_key(prompts[seat_index]) != key:
        raise SubmitError(
            "The table changed since you opened this page, so nothing was played. Here is the table as it is now.",
            "stale",
        )


def _locked(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise SubmitError("There is no such game.", "no_game") from None


def _append(game: Game, seq: int, kind: str, seat: int | None, payload: dict, via: str, actor, new_state) -> Event:
    event = Event.objects.create(game=game, seq=seq, kind=kind, seat=seat, payload=payload, via=via, actor=actor)
    updated = Game.objects.filter(pk=game.pk, version=game.version).update(
        state=new_state, version=seq, updated_at=timezone.now()
    )
    if updated != 1:
        raise IntegrityError("version moved")
    game.state, game.version = new_state, seq
    return event


def _after_step(game: Game, engine: Title, before: dict, via: str) -> None:
    """Waits, mail and bots after a change: one email per wait, not per step.

    Bots are woken after commit, except after a bot's own answer: play_bots is still looping then.
    """
    state = game.state
    outcome = engine.outcome(state)
    now = timezone.now()
    seats = list(game.seats.select_related("player"))
    if outcome is not None:
        _end(game, engine, outcome, seats)
        return
    prompts = engine.prompts(state)
    waiting = []
    for seat in seats:
        asked = seat.index in prompts
        if asked:
            waiting.append(seat.name)
        continues = asked and seat.index in before and seat.waiting_since is not None
        if asked and not continues:
            seat.waiting_since = now
            seat.save(update_fields=["waiting_since"])
            if not seat.is_bot:
                notify.your_move(game, seat, engine.view(state, seat.index), prompts[seat.index])
        elif not asked and seat.waiting_since is not None:
            seat.waiting_since = None
            seat.save(update_fields=["waiting_since"])
    Game.objects.filter(pk=game.pk).update(to_move=", ".join(waiting)[:200], waiting_since=now)
    if via != "bot" and any(s.is_bot and s.index in prompts for s in seats):
        from . import tasks

        transaction.on_commit(lambda: tasks.advance_bots.delay(game.pk), robust=True)


def _end(game: Game, engine: Title, outcome, seats: list[Seat]) -> None:
    seq = game.version + 1
    names = {s.index: s.name for s in seats}
    payload = {
        "scores": {str(k): v for k, v in outcome.scores.items()},
        "winners": outcome.winners,
        "breakdown": {str(k): v for k, v in outcome.breakdown.items()},
        "tiebreak": outcome.tiebreak,
    }
    Event.objects.create(game=game, seq=seq, kind=Event.Kind.ENDED, payload=payload, via="engine")
    Game.objects.filter(pk=game.pk).update(
        version=seq, status=Game.Status.ENDED, to_move="", waiting_since=None, updated_at=timezone.now()
    )
    game.version, game.status = seq, Game.Status.ENDED
    Seat.objects.filter(game=game).update(waiting_since=None)
    for seat in seats:
        if not seat.is_bot:
            notify.final(game, seat, engine.view(game.state, seat.index), outcome, names)


# --- bots ------------------------------------------------------------------------------------


def play_bots(game_id: int, limit: int = 500) -> int:
    """Let every bot that is asked something answer, until a person is asked or the game ends."""
    played = 0
    while played < limit:
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.ACTIVE:
            return played
        engine = game.engine
        prompts = engine.prompts(game.state)
        bots = [s.index for s in game.seats.filter(is_bot=True) if s.index in prompts]
        if not bots:
            return played
        seat = bots[0]
        answer = engine.bot_answer(game.state, seat, step_rng(game.seed + ":bot", game.version + 1))
        try:
            submit(game.pk, seat, answer, game.version, via="bot", prompt_key=prompt_key(prompts[seat]))
        except SubmitError as e:
            if e.code != "stale":
                raise
        played += 1
    return played


# --- the log is the truth --------------------------------------------------------------------


def replay(game: Game, upto: int | None = None) -> tuple[Any, int]:
    """Fold the log (up to and including seq `upto`) into a state: (state, last seq folded)."""
    events = list(game.events.order_by("seq") if upto is None else game.events.filter(seq__lte=upto).order_by("seq"))
    if not events or events[0].kind != Event.Kind.CREATED:
        raise ValueError(f"game {game.pk} has no creation event")
    engine = game.engine
    first = events[0].payload
    state = engine.setup(first["players"], first["options"], step_rng(first["seed"], 0))
    last = 0
    for e in events[1:]:
        if e.kind in (Event.Kind.ANSWER, Event.Kind.TIMEOUT):
            state = engine.apply(state, e.seat, e.payload["answer"], step_rng(first["seed"], e.seq))
        last = e.seq
    return state, last


def rebuild_differs(game: Game) -> bool:
    """True when the stored projection is not what replaying the log gives."""
    state, last = replay(game)
    return state != game.state or last != game.version


def _engine(slug: str) -> Title:
    from games.titles import get_title

    try:
        return get_title(slug)
    except KeyError as e:
        raise OptionsError(str(e)) from None
