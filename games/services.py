"""The one write path. Nothing else appends an Event or changes Game.state.

Every change runs in one transaction: lock the game row (where the database has row locks),
check the version the player saw, let the pure engine apply the answer, append the Event, update
the projection (with a version-guarded UPDATE that holds without row locks too, e.g. on SQLite),
write the outbox rows, and schedule bots and mail with on_commit so nothing is sent for a
change that did not commit.

Organiser actions (pause, rewind, replace a seat...) are events here too, each with who did it
and why; a rewind or an undo voids later events instead of deleting them.
"""

from __future__ import annotations

import logging
import secrets
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games.engine import IllegalMove, OptionsError, step_rng
from games.engine.cards import content_hash
from games.engine.prompts import prompt_key
from games.engine.protocol import Title
from games.engine.typed import HORIZON_DAYS, Unreadable, clean_text

from . import clock, notify, pending
from .forms import Posted
from .models import Event, Game, Message, Seat, Vacation, new_nonce
from .present import seat_view

log = logging.getLogger(__name__)

PEOPLE_VIAS = {"web", "email", "conditional"}
# answers given while the player is not on the page: the next step of their turn gets its own email
AWAY_VIAS = {"email", "conditional", "deadline"}
PLAYED = (Event.Kind.ANSWER, Event.Kind.TIMEOUT)


class SubmitError(Exception):
    """A refused request; `message` is for the person, `code` for code and tests. Nothing was written."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.message = message
        self.code = code

    def __reduce__(self):
        # a Celery task that raises it must be able to send it back (pickle calls __init__ with these)
        return (type(self), (self.message, self.code))


@dataclass
class Applied:
    event: Event
    game: Game


def new_seed() -> str:
    """A game's secret seed: unpredictable, so nobody can foresee a shuffle (tests pin it)."""
    return secrets.token_hex(16)


# --- creating and starting games -------------------------------------------------------------


def create_game(
    organiser, title: str, name: str, options: dict[str, Any], seats: list[str | None], **clock_settings
) -> Game:
    """A draft game. `seats` lists an email address per seat, or None for a bot."""
    engine = _engine(title)
    if not engine.min_players <= len(seats) <= engine.max_players:
        raise OptionsError(f"{engine.name} takes {engine.min_players} to {engine.max_players} players.")
    from accounts.models import User

    with transaction.atomic():
        game = Game.objects.create(title=title, name=name, organiser=organiser, options=options, **clock_settings)
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
        seed = new_seed()
        state = engine.setup([s.name for s in seats], options, step_rng(seed, 0))
        cardset_hash = content_hash(options["cardset"]) if "cardset" in options else ""
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

    `answer` is the answer itself, or a posted form (forms.Posted) read against the question under
    the lock.

    `expected_version` is the version the player saw. If the table moved on since, the answer is
    still taken when this seat has not answered since and its question is the same one it saw
    (`prompt_key`, or a prefix of it from an email address): other seats answering a
    simultaneous decision must not void yours. A second click on the same form is refused as
    already answered.
    """
    with _write(), pending.held():
        locked = _lock_games([game_id])
        if not locked:
            raise SubmitError("There is no such game.", "no_game")
        [(game, seats)] = locked.values()  # seats read once, with the lock: _after_step needs them all
        if expected_version is not None and not 0 <= expected_version <= game.version:
            # no page or email of ours ever showed that version: never trust it to find "since when"
            raise SubmitError("This form does not come from this game's pages. Nothing was played.", "bad_version")
        _check_playing(game)
        prompts = game.engine.prompts(game.state)
        if expected_version is not None and expected_version != game.version:
            _check_stale(game, seat_index, expected_version, prompts, prompt_key)
        if seat_index not in prompts:
            raise SubmitError("It is not your move right now: nothing is being asked of your seat.", "not_your_turn")
        if via in PEOPLE_VIAS and _seat(seats, seat_index).stand_in:
            raise SubmitError("A bot is playing this seat now. Take your seat back first.", "stand_in")
        return _play(game, prompts, seat_index, answer, via, actor, Event.Kind.ANSWER, seats)


def _play(
    game: Game, prompts: dict, seat_index: int, answer: Any, via: str, actor, kind: str, seats: list[Seat] | None = None
) -> Applied:
    engine = game.engine
    try:
        if isinstance(answer, Posted):
            answer = answer.read(prompts[seat_index])
        answer = prompts[seat_index].validate(answer)
        seq = game.version + 1
        new_state = engine.apply(game.state, seat_index, answer, step_rng(game.seed, seq))
    except IllegalMove as e:
        raise SubmitError(f"{e} Nothing was played.", "illegal") from None
    event = _append(game, seq, kind, seat_index, {"answer": answer}, via, actor, new_state)
    seats = seats if seats is not None else list(game.seats.select_related("player"))
    acting = _seat(seats, seat_index)
    if via in PEOPLE_VIAS and acting.misses:
        pending.update_seat(acting, misses=0)
    _after_step(game, engine, before=prompts, via=via, acted=seat_index, seats=seats)
    return Applied(event, game)


def _seat(seats: list[Seat], index: int) -> Seat:
    return next(s for s in seats if s.index == index)


class _write:
    """A transaction that turns a lost race for a seq into a clear refusal."""

    def __enter__(self):
        self.atomic = transaction.atomic()
        self.atomic.__enter__()

    def __exit__(self, kind, exc, tb):
        suppress = self.atomic.__exit__(kind, exc, tb)
        if isinstance(exc, IntegrityError):
            raise SubmitError(
                "Someone else's move arrived at the same moment. Nothing was played; try again.", "stale"
            ) from None
        return suppress


def _check_playing(game: Game) -> None:
    if game.status == Game.Status.ENDED:
        raise SubmitError("This game is over; nothing more can be played.", "ended")
    if game.status == Game.Status.PAUSED:
        raise SubmitError("This game is paused; answers are taken again once it resumes.", "paused")
    if game.status != Game.Status.ACTIVE:
        raise SubmitError("This game has not started yet.", "not_started")


def _check_stale(game: Game, seat_index: int, expected: int, prompts: dict, key: str | None) -> None:
    answered = (
        Event.objects.filter(game=game, seq__gt=expected, seat=seat_index, kind__in=PLAYED)
        .exclude(seq__in=_voided(game))
        .exists()
    )
    if answered:
        raise SubmitError("You have already answered this. Nothing more was played.", "already_answered")
    if seat_index not in prompts or not key or not prompt_key(prompts[seat_index]).startswith(key):
        raise SubmitError(
            "The table changed since you were asked, so nothing was played. Here is the table as it is now.",
            "stale",
        )


def _locked(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise SubmitError("There is no such game.", "no_game") from None


def _append(game: Game, seq: int, kind: str, seat: int | None, payload: dict, via: str, actor, new_state) -> Event:
    event = pending.add_event(Event(game=game, seq=seq, kind=kind, seat=seat, payload=payload, via=via, actor=actor))
    pending.update_game(game, state=new_state, version=seq, updated_at=timezone.now())
    return event


def _note(game: Game, action: str, actor=None, seat: int | None = None, via: str = "admin", **payload) -> Event:
    """An admin event: who did what and why. It moves the version (forms opened before are stale)."""
    seq = game.version + 1
    return _append(game, seq, Event.Kind.ADMIN, seat, {"action": action, **payload}, via, actor, game.state)


def _after_step(
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
            deadline = _deadline_for(game_clock, seat, now) if game.status == Game.Status.ACTIVE else None
            pending.update_seat(
                seat,
                waiting_since=now,
                deadline=deadline,
                remind_at=clock.reminder_at(game_clock, deadline),
                reminded_for=None,
            )
            if seat.is_bot or seat.plan:
                wake = True
            elif seat.index != quiet:
                notify.your_move(game, seat, _mailed_view(engine, state, seat.index), prompts[seat.index])
        elif continues and seat.deadline is None and game_clock.active and not seat.is_bot:
            # the same turn goes on after a timeout or a take-back: a fresh deadline, no new email
            _reset_deadline(game, seat, now)
        elif not asked and seat.waiting_since is not None:
            pending.update_seat(seat, waiting_since=None, deadline=None, remind_at=None)
    pending.update_game(game, to_move=", ".join(waiting)[:200], waiting_since=now)
    if via == "email" and acted is not None and acted not in prompts:
        _offer_plan(game, engine, _seat(seats, acted))
    if wake and via not in ("bot", "conditional"):
        from . import tasks

        transaction.on_commit(lambda: tasks.advance_bots.delay(game.pk), robust=True)


def _offer_plan(game: Game, engine: Title, seat: Seat) -> None:
    """A player answering by email is offered their next question in advance, where the title can say it."""
    upcoming = getattr(engine, "upcoming", None)
    prompt = upcoming(game.state, seat.index) if upcoming else None
    if prompt is not None and not seat.plan:
        notify.plan_offer(game, seat, prompt)


def _deadline_for(game_clock: clock.Clock, seat: Seat, start: datetime) -> datetime | None:
    if not game_clock.active or seat.is_bot:
        return None
    if seat.away_until is None or seat.away_until <= start:
        return clock.deadline(game_clock, start)
    away = [(v.starts, v.ends) for v in seat.vacations.filter(ends__gt=start)]
    return clock.deadline(game_clock, start, away)


def _mailed_view(engine: Title, state, seat: int) -> dict:
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
            notify.final(game, seat, _mailed_view(engine, game.state, seat.index), outcome, names)


# --- bots and planned answers ----------------------------------------------------------------


def advance(game_id: int, limit: int = 2000) -> int:
    """Play what needs no person: bots' answers and answers left in advance, until a person is asked."""
    played = 0
    while played < limit:
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.ACTIVE:
            return played
        engine = game.engine
        prompts = engine.prompts(game.state)
        seats = {s.index: s for s in game.seats.all() if s.index in prompts}
        planned = [s for s in seats.values() if s.plan and not s.is_bot]
        if planned:
            _play_plan(game, planned[0], prompts)
            played += 1
            continue
        bots = [i for i, s in seats.items() if s.is_bot]
        if not bots:
            return played
        seat = bots[0]
        answer = engine.bot_answer(game.state, seat, step_rng(game.seed + ":bot", game.version + 1))
        try:
            submit(game.pk, seat, answer, game.version, via="bot", prompt_key=prompt_key(prompts[seat]))
        except SubmitError as e:
            # another advance (or a person, or the sweep) moved first: a quiet no-op, whatever the
            # refusal says. Go on only if the table moved; else stop rather than repeat the refusal.
            moved = Game.objects.filter(pk=game_id).values_list("version", flat=True).first() != game.version
            log.log(logging.INFO if moved else logging.WARNING, "advance: game %s seat %s: %s", game_id, seat, e.code)
            if not moved:
                return played
            continue
        played += 1
    return played


def _play_plan(game: Game, seat: Seat, prompts: dict) -> None:
    """Try a seat's answers left in advance, in order; the first legal one is played, else it is asked."""
    with transaction.atomic():
        game = _locked(game.pk)
        seat = Seat.objects.select_for_update().get(pk=seat.pk)
        plan, seat.plan = seat.plan, []
        seat.save(update_fields=["plan"])
        prompts = game.engine.prompts(game.state)
        if game.status != Game.Status.ACTIVE or seat.index not in prompts:
            return
        for answer in plan:
            sid = transaction.savepoint_create()
            try:
                _play(game, prompts, seat.index, answer, "conditional", None, Event.Kind.ANSWER)
            except SubmitError:
                transaction.savepoint_rollback(sid)
                continue
            transaction.savepoint_commit(sid)
            return
        # none was legal: ask as usual
        notify.your_move(
            game,
            seat,
            _mailed_view(game.engine, game.state, seat.index),
            prompts[seat.index],
            note="None of the answers you left in advance could be played.",
        )


def set_plan(seat: Seat, answers: list[Any]) -> None:
    """Leave answers for this seat's next question, tried in order when it arrives."""
    with transaction.atomic():
        game = _locked(seat.game_id)
        _check_playing(game)
        if seat.index in game.engine.prompts(game.state):
            raise SubmitError("You are being asked now: answer the question instead.", "asked_now")
        Seat.objects.filter(pk=seat.pk).update(plan=list(answers)[:10])


# --- time: deadlines, reminders, timeouts ----------------------------------------------------


def remind(seat_pk: int, now: datetime | None = None) -> bool:
    """Send the reminder for a seat's current deadline, once (again only if the deadline moved)."""
    return _remind_batch([seat_pk], now or timezone.now()) == 1


def _remind_batch(pks: list[int], now: datetime) -> int:
    """Reminders for many seats in one transaction: the seats locked in one query, the writes held."""
    with transaction.atomic(), pending.held():
        found = Seat.objects.select_for_update(of=("self",)).select_related("game", "player").filter(pk__in=pks)
        return sum(_remind_locked(seat, now) for seat in found.order_by("pk"))


def _remind_locked(seat: Seat, now: datetime) -> bool:
    if (
        seat.game.status != Game.Status.ACTIVE
        or seat.deadline is None
        or seat.remind_at is None
        or seat.remind_at > now
        or seat.reminded_for == seat.deadline
        or seat.is_bot
    ):
        return False
    game = seat.game
    prompt = game.engine.prompts(game.state).get(seat.index)
    if prompt is None:
        return False
    notify.reminder(game, seat, _mailed_view(game.engine, game.state, seat.index), prompt)
    pending.update_seat(seat, reminded_for=seat.deadline)
    return True


def time_out(seat_pk: int, now: datetime | None = None) -> bool:
    """Answer for a seat whose deadline passed, by the game's policy; exactly once per deadline."""
    now = now or timezone.now()
    with _write(), pending.held():
        seat = Seat.objects.filter(pk=seat_pk).only("game_id", "index").first()
        if seat is None:
            return False
        locked = _lock_games([seat.game_id])
        if not locked:
            return False
        [(game, seats)] = locked.values()
        return _time_out_locked(game, seats, seat.index, now)


def _lock_games(game_ids: list[int]) -> dict[int, tuple[Game, list[Seat]]]:
    """Lock games (in id order, so two sweeps never deadlock) and their seats: two queries for any number."""
    games = {g.pk: g for g in Game.objects.select_for_update().filter(pk__in=game_ids).order_by("pk")}
    seats: dict[int, list[Seat]] = {pk: [] for pk in games}
    found = Seat.objects.select_for_update(of=("self",)).select_related("player").filter(game_id__in=list(games))
    for seat in found.order_by("game_id", "index"):
        seat.game = games[seat.game_id]  # one game object per game: its version moves as steps are played
        seats[seat.game_id].append(seat)
    return {pk: (games[pk], seats[pk]) for pk in games}


def _time_out_locked(game: Game, seats: list[Seat], index: int, now: datetime) -> bool:
    seat = _seat(seats, index)
    if game.status != Game.Status.ACTIVE or seat.deadline is None or seat.deadline > now:
        return False
    engine = game.engine
    prompts = engine.prompts(game.state)
    if seat.index not in prompts:
        return False
    if game.timeout_policy == Game.TimeoutPolicy.BOT:
        answer = engine.bot_answer(game.state, seat.index, step_rng(game.seed + ":bot", game.version + 1))
    else:
        answer = engine.default_answer(game.state, seat.index)
    misses = seat.misses + 1
    pending.update_seat(seat, misses=misses, deadline=None, remind_at=None)
    _play(game, prompts, seat.index, answer, "deadline", None, Event.Kind.TIMEOUT, seats)
    if game.bot_after_misses and misses >= game.bot_after_misses and not seat.is_bot:
        reason = f"{seat.name} missed {misses} deadlines in a row"
        _hand_to_bot(game, seat, None, reason, via="deadline", seats=seats)
    return True


def sweep(now: datetime | None = None, batch: int = 250, threads: int | None = None) -> dict[str, int]:
    """Reminders, then timeouts. Safe to run twice at once: each step re-checks under a lock.

    Timeouts go in batches: one transaction locks a batch's games and seats in two queries, plays
    every overdue seat through the write path with its writes held (games.pending), and writes
    them in a handful of bulk queries. A batch that meets a race (a player answered at that very
    moment) is rolled back and done again one seat at a time. On a database server the batches run
    on a few threads with their own connections.
    """
    now = now or timezone.now()
    active = Seat.objects.filter(game__status=Game.Status.ACTIVE)
    reminders = list(active.filter(remind_at__lte=now).values_list("pk", flat=True))
    overdue = list(active.filter(deadline__lte=now).order_by("deadline").values_list("pk", "game_id", "index"))
    if threads is None:
        threads = 1 if connection.vendor == "sqlite" else settings.SWEEP_THREADS
    return {
        "reminded": _in_batches(_remind_batch, reminders, now, batch, threads),
        "timed_out": _in_batches(_time_out_batch, overdue, now, batch, threads),
    }


def _time_out_batch(overdue: list[tuple[int, int, int]], now: datetime) -> int:
    try:
        with _write(), pending.held():
            locked = _lock_games(sorted({game_id for _, game_id, _ in overdue}))
            return sum(
                _time_out_locked(*locked[game_id], index, now) for _, game_id, index in overdue if game_id in locked
            )
    except SubmitError as e:
        log.info("sweep: a batch of %d met a race (%s); one seat at a time", len(overdue), e.code)
        return sum(_skipping_races(time_out, pk, now) for pk, _, _ in overdue)


def _skipping_races(step, pk: int, now: datetime) -> int:
    try:
        return step(pk, now)
    except SubmitError as e:  # lost a race with a player's own answer: nothing to do
        log.info("sweep: seat %s skipped (%s)", pk, e.code)
        return 0


def _in_batches(step, items: list, now: datetime, batch: int, threads: int) -> int:
    chunks = [items[i : i + batch] for i in range(0, len(items), batch)]

    def run(chunk: list) -> int:
        with notify.collected() as mail:
            done = step(chunk, now)
        if mail:
            from . import tasks

            try:
                tasks.send_notifications.delay(mail)
            except Exception:  # noqa: BLE001 - broker down: the rows stay pending and the next sweep sends them
                log.warning("sweep: could not queue %d emails; the next sweep sends them", len(mail))
        return done

    if threads <= 1 or len(chunks) <= 1:
        return sum(run(c) for c in chunks)

    def in_thread(chunk: list) -> int:
        try:
            return run(chunk)
        finally:
            connection.close()

    with ThreadPoolExecutor(threads) as pool:
        return sum(pool.map(in_thread, chunks))


def declare_vacation(seat: Seat, starts: datetime, ends: datetime) -> Vacation:
    """A player is away: their clocks stop for its length, within the game's yearly allowance."""
    if ends <= starts:
        raise SubmitError("A vacation must end after it starts.", "bad_vacation")
    now = timezone.now()
    if ends <= now:
        raise SubmitError("That vacation is already over.", "bad_vacation")
    if starts < now - timedelta(days=2) or ends > now + timedelta(days=HORIZON_DAYS + 2):
        raise SubmitError("Give dates from today to a year from now.", "bad_vacation")
    with transaction.atomic():
        game = _locked(seat.game_id)
        if game.status not in (Game.Status.ACTIVE, Game.Status.PAUSED):
            raise SubmitError("Vacations can be declared while a game is in play.", "not_playing")
        year_ago = timezone.now() - timedelta(days=365)
        used = sum(((v.ends - v.starts) for v in seat.vacations.filter(ends__gt=year_ago)), timedelta(0))
        allowance = timedelta(days=game.vacation_days)
        if used + (ends - starts) > allowance:
            left = round(max(allowance - used, timedelta(0)).total_seconds() / 86400, 1)
            raise SubmitError(
                f"This game allows {game.vacation_days} vacation days a year; you have {left:g} days left.",
                "allowance",
            )
        vacation = Vacation.objects.create(seat=seat, starts=starts, ends=ends)
        if seat.away_until is None or ends > seat.away_until:
            Seat.objects.filter(pk=seat.pk).update(away_until=ends)
        seat.refresh_from_db()
        if seat.deadline and seat.waiting_since:
            _reset_deadline(game, seat, seat.waiting_since)
        _note(game, "vacation", seat=seat.index, via="web", starts=starts.isoformat(), ends=ends.isoformat())
        return vacation


def _reset_deadline(game: Game, seat: Seat, start: datetime) -> None:
    deadline = _deadline_for(game.clock, seat, start)
    pending.update_seat(seat, deadline=deadline, remind_at=clock.reminder_at(game.clock, deadline))


# --- pausing and organiser actions -----------------------------------------------------------


def pause(game: Game, actor=None, reason: str = "", via: str = "admin") -> None:
    """Clocks stop; answers wait until resume."""
    with transaction.atomic():
        game = _locked(game.pk)
        if game.status != Game.Status.ACTIVE:
            raise SubmitError("Only a game in play can be paused.", "not_playing")
        _note(game, "pause", actor, via=via, reason=reason)
        Game.objects.filter(pk=game.pk).update(status=Game.Status.PAUSED, paused_at=timezone.now())
        Seat.objects.filter(game=game).update(wants_pause=False)


def resume(game: Game, actor=None, reason: str = "") -> None:
    """Clocks go on where they stopped: every deadline moves by the length of the pause."""
    with transaction.atomic():
        game = _locked(game.pk)
        if game.status != Game.Status.PAUSED:
            raise SubmitError("This game is not paused.", "not_paused")
        paused_for = timezone.now() - (game.paused_at or timezone.now())
        for seat in game.seats.exclude(deadline=None):
            seat.deadline += paused_for
            seat.remind_at = clock.reminder_at(game.clock, seat.deadline)
            seat.save(update_fields=["deadline", "remind_at"])
        _note(game, "resume", actor, reason=reason, paused_seconds=int(paused_for.total_seconds()))
        Game.objects.filter(pk=game.pk).update(status=Game.Status.ACTIVE, paused_at=None)


def vote_pause(seat: Seat, yes: bool = True) -> bool:
    """Players agree to pause: when every person's seat says yes, the game pauses. True if it did."""
    with transaction.atomic():
        game = _locked(seat.game_id)
        if game.status != Game.Status.ACTIVE:
            raise SubmitError("Only a game in play can be paused.", "not_playing")
        Seat.objects.filter(pk=seat.pk).update(wants_pause=yes)
        people = game.seats.filter(player__isnull=False, stand_in=False, is_bot=False)
        if yes and not people.filter(wants_pause=False).exists():
            pause(game, None, "every player agreed", via="vote")
            return True
        return False


def extend_deadline(game: Game, hours: float, actor=None, reason: str = "", seat_index: int | None = None) -> None:
    """Move the current deadlines later; a new reminder goes out for a moved deadline."""
    with transaction.atomic():
        game = _locked(game.pk)
        seats = game.seats.exclude(deadline=None)
        if seat_index is not None:
            seats = seats.filter(index=seat_index)
        delta = timedelta(hours=hours)
        for seat in seats:
            seat.deadline += delta
            seat.remind_at = clock.reminder_at(game.clock, seat.deadline)
            seat.save(update_fields=["deadline", "remind_at"])
        _note(game, "extend", actor, seat=seat_index, hours=hours, reason=reason)


def replace_player(seat: Seat, email: str, actor=None, reason: str = "") -> Seat:
    """Someone new takes the seat: a fresh link for them, the old links stop working."""
    from accounts.models import User

    with transaction.atomic():
        game = _locked(seat.game_id)
        if game.status == Game.Status.ENDED:
            raise SubmitError("This game is over.", "ended")
        seat = Seat.objects.select_for_update().get(pk=seat.pk)
        old = seat.player.email if seat.player else "a bot"
        seat.player = User.objects.for_email(email)
        seat.is_bot = seat.stand_in = False
        seat.nonce, seat.misses, seat.plan = new_nonce(), 0, []
        seat.save()
        _note(game, "replace_player", actor, seat=seat.index, old=old, new=seat.player.email, reason=reason)
        notify.invite(game, seat)
        prompt = game.engine.prompts(game.state).get(seat.index) if game.state else None
        if prompt is not None:
            seat.waiting_since = timezone.now()
            _reset_deadline(game, seat, seat.waiting_since)
            Seat.objects.filter(pk=seat.pk).update(waiting_since=seat.waiting_since)
            notify.your_move(game, seat, _mailed_view(game.engine, game.state, seat.index), prompt)
        return seat


def hand_to_bot(seat: Seat, actor=None, reason: str = "") -> None:
    with transaction.atomic():
        game = _locked(seat.game_id)
        _hand_to_bot(game, Seat.objects.select_for_update().get(pk=seat.pk), actor, reason)


def _hand_to_bot(
    game: Game, seat: Seat, actor, reason: str, via: str = "admin", seats: list[Seat] | None = None
) -> None:
    pending.update_seat(seat, is_bot=True, stand_in=bool(seat.player_id), deadline=None, remind_at=None)
    _note(game, "hand_to_bot", actor, seat=seat.index, via=via, reason=reason)
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
        from . import tasks

        transaction.on_commit(lambda: tasks.advance_bots.delay(game.pk), robust=True)


def take_back_seat(seat: Seat) -> None:
    """The absent player returns: the bot standing in for them steps aside."""
    with transaction.atomic():
        game = _locked(seat.game_id)
        seat = Seat.objects.select_for_update().get(pk=seat.pk)
        if not seat.stand_in:
            raise SubmitError("Your seat is yours already.", "not_stand_in")
        _check_playing(game)
        seat.is_bot = seat.stand_in = False
        seat.misses = 0
        seat.save(update_fields=["is_bot", "stand_in", "misses"])
        _note(game, "take_back", seat=seat.index, via="web")
        prompt = game.engine.prompts(game.state).get(seat.index)
        if prompt is not None:
            seat.waiting_since = timezone.now()
            Seat.objects.filter(pk=seat.pk).update(waiting_since=seat.waiting_since)
            _reset_deadline(game, seat, seat.waiting_since)


def rewind(game: Game, to_seq: int, actor=None, reason: str = "") -> Event:
    """Go back to the table as it was after step `to_seq`: later steps are voided, never deleted."""
    with transaction.atomic():
        game = _locked(game.pk)
        if game.status not in (Game.Status.ACTIVE, Game.Status.PAUSED):
            raise SubmitError("Only a game in play can be rewound.", "not_playing")
        voided = _voided(game)
        later = list(
            game.events.filter(seq__gt=to_seq, kind__in=PLAYED).exclude(seq__in=voided).values_list("seq", flat=True)
        )
        if not later:
            raise SubmitError("There is nothing after that step to undo.", "nothing")
        return _void(game, later, "rewind", actor, None, "admin", reason=reason, to=to_seq)


def undo(seat: Seat) -> Event:
    """Take back this seat's last answer, if nobody has acted and nothing was revealed or drawn since."""
    with transaction.atomic():
        game = _locked(seat.game_id)
        _check_playing(game)
        why_not = undo_refusal(game, seat)
        if why_not:
            raise SubmitError(why_not, "no_undo")
        last = last_played(game)
        return _void(game, [last.seq], "undo", None, seat.index, "web", undoing=seat.index)


def undo_refusal(game: Game, seat: Seat) -> str:
    """Why this seat cannot undo now, in words; empty when it can."""
    last = last_played(game)
    if last is None or last.seat != seat.index or last.kind != Event.Kind.ANSWER or last.via not in PEOPLE_VIAS:
        return "There is no answer of yours to take back: someone else has acted since, or you have not answered."
    if game.events.filter(seq__gt=last.seq, kind=Event.Kind.ADMIN).exclude(payload__action="vacation").exists():
        return "The game was changed by the organiser since your answer, so it cannot be taken back."
    before, _ = replay(game, upto=last.seq - 1)
    engine = game.engine
    a = engine.apply(before, seat.index, last.payload["answer"], step_rng(game.seed, last.seq))
    b = engine.apply(before, seat.index, last.payload["answer"], step_rng(game.seed + ":probe", last.seq))
    if a != b:
        return "Your answer made the game shuffle or draw at random, so it cannot be taken back."
    if _revealed(engine, before, a, seat.index):
        return "Your answer revealed a hidden card to you, so it cannot be taken back."
    return ""


def _revealed(engine: Title, before, after, seat: int) -> bool:
    """True when the seat now sees a card id it could not see before."""

    def seen(state) -> set[str]:
        return {c.get("id") for p in engine.view(state, seat).get("panels", []) for c in p.get("cards", []) or []}

    return bool(seen(after) - seen(before))


def last_played(game: Game) -> Event | None:
    """The last answer or timeout that still counts (not voided by a rewind or an undo)."""
    return game.events.filter(kind__in=PLAYED).exclude(seq__in=_voided(game)).order_by("-seq").first()


def _void(
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
    _after_step(game, game.engine, before=before, via=via, quiet=undoing)
    return event


def end_game(game: Game, actor=None, reason: str = "") -> None:
    """The organiser stops the game where it stands; everyone is told why."""
    with transaction.atomic():
        game = _locked(game.pk)
        if game.status == Game.Status.ENDED:
            raise SubmitError("This game is over already.", "ended")
        _note(game, "end", actor, reason=reason)
        Game.objects.filter(pk=game.pk).update(status=Game.Status.ENDED, to_move="", waiting_since=None)
        Seat.objects.filter(game=game).update(waiting_since=None, deadline=None, remind_at=None)
        for seat in game.seats.select_related("player").filter(player__isnull=False):
            notify.notice(game, seat, f"{game.name} was ended", f"The organiser ended {game.name}. {reason}".strip())


def resend_last(seat: Seat, actor=None, reason: str = "") -> None:
    """Send this seat its current question again (a fresh copy with a fresh link)."""
    with transaction.atomic():
        game = _locked(seat.game_id)
        prompt = game.engine.prompts(game.state).get(seat.index) if game.state else None
        if prompt is None or seat.is_bot:
            raise SubmitError("This seat is not being asked anything now.", "not_asked")
        _note(game, "resend", actor, seat=seat.index, reason=reason)
        notify.your_move(game, seat, _mailed_view(game.engine, game.state, seat.index), prompt)


# --- table talk ----------------------------------------------------------------------------

TALK_CHARS = 2000
TALK_LIMIT = 5  # messages per seat ...
TALK_WINDOW = timedelta(minutes=10)  # ... in this long


def post_message(seat: Seat, text: str, via: str = "web") -> Message:
    """A message on the game's board, mailed to every other person (with their next email if asked)."""
    try:
        text = clean_text(text, TALK_CHARS, what="Your message")
    except Unreadable as e:
        raise SubmitError(str(e), "too_long") from None
    if not text:
        raise SubmitError("The message is empty.", "empty")
    with transaction.atomic():
        game = _locked(seat.game_id)
        if game.status == Game.Status.DRAFT:
            raise SubmitError("The board opens when the game starts.", "not_started")
        recent = game.messages.filter(seat=seat, created_at__gte=timezone.now() - TALK_WINDOW).count()
        if recent >= TALK_LIMIT:
            raise SubmitError(f"You can post {TALK_LIMIT} messages every 10 minutes; please wait a little.", "rate")
        message = Message.objects.create(game=game, seat=seat, author=seat.name, text=text, via=via)
        Game.objects.filter(pk=game.pk).update(last_message=message.pk)
        game.last_message = message.pk
        for other in game.seats.select_related("player").exclude(pk=seat.pk).filter(player__isnull=False):
            if other.waiting_since is None or other.stand_in:
                notify.table_talk(game, other)
        Seat.objects.filter(pk=seat.pk).update(seen_message=message.pk)
        return message


# --- the log is the truth --------------------------------------------------------------------


def _voided(game: Game, upto: int | None = None) -> set[int]:
    qs = game.events.filter(kind=Event.Kind.ADMIN, payload__has_key="voids")
    if upto is not None:
        qs = qs.filter(seq__lte=upto)
    return {s for p in qs.values_list("payload", flat=True) for s in p["voids"]}


def replay(game: Game, upto: int | None = None) -> tuple[Any, int]:
    """Fold the log (up to and including seq `upto`) into a state: (state, last seq folded).

    Voided steps (by a rewind or an undo up to `upto`) are skipped; everything else applies with
    the generator of its own seq, so the same log always gives the same table.
    """
    events = list(game.events.order_by("seq") if upto is None else game.events.filter(seq__lte=upto).order_by("seq"))
    if not events or events[0].kind != Event.Kind.CREATED:
        raise ValueError(f"game {game.pk} has no creation event")
    engine = game.engine
    first = events[0].payload
    voided = {s for e in events if e.kind == Event.Kind.ADMIN for s in e.payload.get("voids", [])}
    state = engine.setup(first["players"], first["options"], step_rng(first["seed"], 0))
    last = 0
    for e in events[1:]:
        if e.kind in PLAYED and e.seq not in voided:
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
