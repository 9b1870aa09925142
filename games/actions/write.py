"""The one write path: nothing else appends an Event or changes Game.state.

Every change runs in one transaction: lock the game row (where the database has row locks),
check the version the player saw, let the pure engine apply the answer, append the Event, update
the projection (with a version-guarded UPDATE that holds without row locks too, e.g. on SQLite),
write the outbox rows, and ask games.dispatch for bots and mail after commit, so nothing is sent
for a change that did not commit. The rooms beside this file (play, deadlines, organise, talk)
each hold one concern's writes and all go through the helpers here: the `_locked` ones expect the
caller to hold the game's lock, in its transaction (the convention is in games/actions/__init__.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import automatic, dispatch, notify, pending
from games.clock import seat as seat_clock
from games.engine import IllegalMove, step_rng
from games.engine.protocol import Title
from games.messages import Reading, reading_for, refusal, say
from games.models import Event, Game, Seat
from games.present import seat_view

from . import steps
from .answers import Unread
from .answers import read as read_answer
from .replay import banks, replay

PEOPLE_VIAS = {"web", "email", "conditional"}
# answers given while the player is not on the page: the next step of their turn gets its own email
AWAY_VIAS = {"email", "conditional", "deadline"}


class SubmitError(Exception):
    """A refused request; `message` is for the person, `code` for code and tests. Nothing was written."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.message = message
        self.code = code

    def __reduce__(self):
        # a Celery task that raises it must be able to send it back (pickle calls __init__ with these)
        return (type(self), (self.message, self.code))


def _reading(game: Game, seats) -> Reading:
    """Whose words a refusal names: the game's title and its players by seat."""
    return reading_for(game, {s.index: s.name for s in seats or ()})


def nothing_played(why) -> str:
    """A refused answer's reason, and that nothing was played."""
    return _("%(why)s Nothing was played.") % {"why": why}


@dataclass
class Applied:
    event: Event
    game: Game


class write_step:
    """A transaction that turns a lost race for a seq into a clear refusal."""

    def __enter__(self):
        self.atomic = transaction.atomic()
        self.atomic.__enter__()

    def __exit__(self, kind, exc, tb):
        suppress = self.atomic.__exit__(kind, exc, tb)
        if isinstance(exc, IntegrityError):
            raise SubmitError(
                _("Someone else's move arrived at the same moment. Nothing was played; try again."), "stale"
            ) from None
        return suppress


def check_playing(game: Game) -> None:
    if game.status == Game.Status.ENDED:
        raise SubmitError(_("This game is over; nothing more can be played."), "ended")
    if game.status == Game.Status.PAUSED:
        raise SubmitError(_("This game is paused; answers are taken again once it resumes."), "paused")
    if game.status != Game.Status.ACTIVE:
        raise SubmitError(_("This game has not started yet."), "not_started")


def lock_game(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise SubmitError(_("There is no such game."), "no_game") from None


def lock_games(game_ids: list[int]) -> dict[int, tuple[Game, list[Seat]]]:
    """Lock games (in id order, so two sweeps never deadlock) and their seats: two queries for any number."""
    games = {g.pk: g for g in Game.objects.select_for_update().filter(pk__in=game_ids).order_by("pk")}
    seats: dict[int, list[Seat]] = {pk: [] for pk in games}
    found = Seat.objects.select_for_update(of=("self",)).select_related("player").filter(game_id__in=list(games))
    for seat in found.order_by("game_id", "index"):
        seat.game = games[seat.game_id]  # one game object per game: its version moves as steps are played
        seats[seat.game_id].append(seat)
    return {pk: (games[pk], seats[pk]) for pk in games}


def seat_at(seats: list[Seat], index: int) -> Seat:
    return next(s for s in seats if s.index == index)


def append_locked(
    game: Game, seq: int, kind: str, seat: int | None, payload: dict, via: str, actor, new_state
) -> Event:
    event = pending.add_event(Event(game=game, seq=seq, kind=kind, seat=seat, payload=payload, via=via, actor=actor))
    pending.update_game(game, state=new_state, version=seq, updated_at=timezone.now())
    return event


def note_locked(game: Game, action: str, actor=None, seat: int | None = None, via: str = "admin", **payload) -> Event:
    """An admin event: who did what and why. It moves the version (forms opened before are stale)."""
    seq = game.version + 1
    return append_locked(game, seq, Event.Kind.ADMIN, seat, {"action": action, **payload}, via, actor, game.state)


def play_answer_locked(
    game: Game, prompts: dict, seat_index: int, answer: Any, via: str, actor, kind: str, seats: list[Seat] | None = None
) -> Applied:
    engine = game.engine
    try:
        # a raw answer (a posted form, a reply's text) is read here, against the question under the lock
        answer = prompts[seat_index].validate(read_answer(answer, prompts[seat_index]))
        seq = game.version + 1
        new_state = engine.apply(game.state, seat_index, answer, step_rng(game.seed, seq))
    except Unread as e:
        raise SubmitError(say(e.args[0] if e.args else "", _reading(game, seats)), "illegal") from None
    except IllegalMove as e:
        raise SubmitError(nothing_played(refusal(e, _reading(game, seats))), "illegal") from None
    seats = seats if seats is not None else list(game.seats.select_related("player"))
    acting = seat_at(seats, seat_index)
    # the lines this step logs, and how it was made when made for a person (games.automatic says it)
    how = automatic.made_how(via, acting.player_id is not None, game.timeout_policy)
    payload = {**_charged(game, acting, answer), **automatic.marks(game.state, new_state, how)}
    event = append_locked(game, seq, kind, seat_index, payload, via, actor, new_state)
    if via in PEOPLE_VIAS and acting.misses:
        pending.update_seat(acting, misses=0)
    after_step_locked(game, engine, before=prompts, via=via, acted=seat_index, seats=seats)
    return Applied(event, game)


def _charged(game: Game, acting: Seat, answer: Any) -> dict:
    """An answer's payload, with the seconds it took charged to the seat's time bank, if it has one.

    The charge goes in the answer's event, so the banks replay from the log (replay.banks); the
    seat's clock restarts now, so a later step of the same send is charged nothing.
    """
    payload = {"answer": answer}
    game_clock = game.clock
    if game_clock.bank is not None and acting.clock_since is not None and not acting.is_bot:
        now = timezone.now()
        charged = seat_clock.charge_bank(game_clock, acting, now)
        pending.update_seat(acting, bank_seconds=charged.left, clock_since=now)
        payload["charged"] = charged.seconds
    return payload


def play_steps_locked(
    game: Game, prompts: dict, seat_index: int, answers: list[Any], via: str, actor, seats: list[Seat]
) -> list[Applied]:
    """Several answers of one seat's turn, in order, as one change: all of them or none.

    Each answer is read against the question as it stands after the one before (games/actions/
    steps.py walks the run on the pure engine first, so a refused step writes nothing and says which
    and why). Then one Event per step, as for single answers (the log replays the same), one
    projection update under the version read with the lock, and waits and mail once, after the last
    step: the seat still asked gets no email, a seat asked now gets one.
    """
    engine = game.engine
    first = game.version + 1
    try:
        walked = steps.walk(
            engine,
            game.state,
            seat_index,
            answers,
            rng=lambda i: step_rng(game.seed, first + i),
            probe=lambda i: step_rng(game.seed + ":probe", first + i),
        )
    except steps.Refused as refused:
        error = SubmitError(refused.message(_("Nothing was played.")), refused.code)
        error.refused = refused  # which step, for submit_steps to tell it as the page showed it
        raise error from None
    acting = seat_at(seats, seat_index)
    how = automatic.made_how(via, acting.player_id is not None, game.timeout_policy)
    applied = []
    for i, step in enumerate(walked):
        payload = {**_charged(game, acting, step.answer), **automatic.marks(game.state, step.state, how)}
        event = append_locked(game, first + i, Event.Kind.ANSWER, seat_index, payload, via, actor, step.state)
        applied.append(Applied(event, game))
    if via in PEOPLE_VIAS and acting.misses:
        pending.update_seat(acting, misses=0)
    after_step_locked(game, engine, before=prompts, via=via, acted=seat_index, seats=seats)
    return applied


def after_step_locked(
    game: Game,
    engine: Title,
    before: dict,
    via: str,
    quiet: int | None = None,
    acted: int | None = None,
    seats: list[Seat] | None = None,
) -> None:
    """Waits, deadlines, mail, bots and planned answers after a change: one email per wait, not per step.

    Bots and plans are played after commit, except after a bot's or a plan's own answer:
    `advance` is still looping then.
    """
    state = game.state
    outcome = engine.outcome(state)
    now = timezone.now()
    if seats is None:
        seats = list(game.seats.select_related("player"))
    if outcome is not None:
        _end(game, engine, outcome, seats)
        return
    prompts = engine.prompts(state)
    waiting = []
    wake = False
    game_clock = game.clock
    for seat in seats:
        asked = seat.index in prompts
        if asked:
            waiting.append(seat.name)
        continues = asked and seat.index in before and seat.waiting_since is not None
        if continues and seat.index == acted and via in AWAY_VIAS:
            # the player is not on the page (they answered by email, a plan answered for them, or
            # the deadline did): the next step of their turn needs an email of its own
            continues = False
        if asked and not continues:
            if game_clock.bank is not None and not seat.is_bot:  # set first: the deadline reads them
                pending.update_seat(seat, clock_since=now, bank_seconds=seat_clock.stored_bank(game_clock, seat))
            deadline = seat_clock.deadline_for(game_clock, seat, now) if game.status == Game.Status.ACTIVE else None
            pending.update_seat(
                seat,
                waiting_since=now,
                deadline=deadline,
                remind_at=seat_clock.reminder_for(game_clock, seat, deadline, now),
                reminded_for=None,
            )
            if seat.is_bot or seat.plan:
                wake = True
            elif seat.index != quiet:
                notify.your_move(game, seat, mailed_view(engine, state, seat.index), prompts[seat.index])
        elif continues and seat.deadline is None and game_clock.active and not seat.is_bot:
            # the same turn goes on after a timeout or a take-back: a fresh deadline, no new email
            reset_deadline_locked(game, seat, now)
        elif continues and game_clock.bank is not None and seat.index == acted and not seat.is_bot:
            # the same turn goes on after an answer that was charged to the bank: its deadline moves
            reset_deadline_locked(game, seat, now)
        elif not asked and seat.waiting_since is not None:
            pending.update_seat(seat, waiting_since=None, deadline=None, remind_at=None)
    pending.update_game(game, to_move=", ".join(waiting)[:200], waiting_since=now)
    if via == "email" and acted is not None and acted not in prompts:
        _offer_plan(game, engine, seat_at(seats, acted))
    if wake and via not in ("bot", "conditional"):
        dispatch.move_bots(game.pk)


def _offer_plan(game: Game, engine: Title, seat: Seat) -> None:
    """A player answering by email is offered their next question in advance, where the title can say it."""
    upcoming = engine.upcoming
    prompt = upcoming(game.state, seat.index) if upcoming else None
    if prompt is not None and not seat.plan:
        notify.plan_offer(game, seat, prompt)


def reset_deadline_locked(game: Game, seat: Seat, start: datetime) -> None:
    """A running wait's deadline, worked out again by the clock; an unchanged one keeps its reminders as they were."""
    moved = seat_clock.deadline_again(game.clock, seat, start, timezone.now())
    if moved is not None:
        pending.update_seat(seat, deadline=moved.deadline, remind_at=moved.remind_at)


def mailed_view(engine: Title, state, seat: int) -> dict:
    """A seat's view for an email: the table and the latest few log lines (an email shows no more)."""
    return seat_view(engine, state, seat, notify.EMAIL_LOG_LINES)[0]


def _end(game: Game, engine: Title, outcome, seats: list[Seat]) -> None:
    seq = game.version + 1
    names = {s.index: s.name for s in seats}
    payload = {
        "scores": {str(k): v for k, v in outcome.scores.items()},
        "winners": outcome.winners,
        "breakdown": {str(k): v for k, v in outcome.breakdown.items()},
        "tiebreak": outcome.tiebreak,
    }
    pending.add_event(Event(game=game, seq=seq, kind=Event.Kind.ENDED, payload=payload, via="engine"))
    pending.update_game(
        game,
        version=seq,
        status=Game.Status.ENDED,
        to_move="",
        waiting_since=None,
        updated_at=timezone.now(),
    )
    for seat in seats:
        if seat.waiting_since or seat.deadline or seat.remind_at:
            pending.update_seat(seat, waiting_since=None, deadline=None, remind_at=None)
    for seat in seats:
        if seat.player_id:
            notify.final(game, seat, mailed_view(engine, game.state, seat.index), outcome, names)


def void_steps_locked(
    game: Game, seqs: list[int], action: str, actor, seat: int | None, via: str, undoing: int | None = None, **payload
) -> Event:
    """Void steps and re-fold the log. A rewind asks everyone afresh; an undo leaves the others' waits alone."""
    before = game.engine.prompts(game.state) if undoing is not None else {}
    event = Event.objects.create(
        game=game,
        seq=game.version + 1,
        kind=Event.Kind.ADMIN,
        seat=seat,
        payload={"action": action, "voids": seqs, **payload},
        via=via,
        actor=actor,
    )
    state, last = replay(game)
    Game.objects.filter(pk=game.pk).update(state=state, version=last, updated_at=timezone.now())
    game.state, game.version = state, last
    if undoing is None:
        Seat.objects.filter(game=game).update(waiting_since=None)
    if game.clock.bank is not None:  # a voided answer's charge is given back: the banks are the log's again
        start = seat_clock.bank_start(game.clock)
        left = banks(game)
        for seat in game.seats.all():
            if seat.bank_seconds is not None and seat.bank_seconds != left.get(seat.index, start):
                Seat.objects.filter(pk=seat.pk).update(bank_seconds=left.get(seat.index, start))
    after_step_locked(game, game.engine, before=before, via=via, quiet=undoing)
    return event


def hand_seat_to_bot_locked(
    game: Game, seat: Seat, actor, reason: str, via: str = "admin", seats: list[Seat] | None = None
) -> None:
    pending.update_seat(seat, is_bot=True, stand_in=bool(seat.player_id), deadline=None, remind_at=None)
    note_locked(game, "hand_to_bot", actor, seat=seat.index, via=via, reason=reason)
    if seats is None:
        seats = list(game.seats.select_related("player"))
    for other in seats:
        if not other.player_id:
            continue
        notify.notice(
            game,
            seat if other.pk == seat.pk else other,
            f"A bot plays for {seat.name} now",
            f"{reason or 'The organiser decided'}: a bot plays for {seat.name} from now on. The game goes on."
            + (" You can take your seat back with your link at any later decision." if other.pk == seat.pk else ""),
        )
    if seat.index in game.engine.prompts(game.state):
        dispatch.move_bots(game.pk)
