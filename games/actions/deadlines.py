"""Time: reminders, timeouts (through the write path, in batches) and vacations.

The sweep is idempotent: run it twice at once, or on two workers, and each overdue seat times
out once and each reminder goes once (every step re-checks under a lock).
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from games import dispatch, notify, pending
from games.engine import step_rng
from games.engine.typed import HORIZON_DAYS
from games.models import Event, Game, Seat, Vacation

from .write import (
    SubmitError,
    hand_seat_to_bot,
    lock_game,
    lock_games,
    mailed_view,
    note,
    play_answer,
    reset_deadline,
    seat_at,
    write_step,
)

log = logging.getLogger(__name__)


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
    notify.reminder(game, seat, mailed_view(game.engine, game.state, seat.index), prompt)
    pending.update_seat(seat, reminded_for=seat.deadline)
    return True


def time_out(seat_pk: int, now: datetime | None = None) -> bool:
    """Answer for a seat whose deadline passed, by the game's policy; exactly once per deadline."""
    now = now or timezone.now()
    with write_step(), pending.held():
        seat = Seat.objects.filter(pk=seat_pk).only("game_id", "index").first()
        if seat is None:
            return False
        locked = lock_games([seat.game_id])
        if not locked:
            return False
        [(game, seats)] = locked.values()
        return _time_out_locked(game, seats, seat.index, now)


def _time_out_locked(game: Game, seats: list[Seat], index: int, now: datetime) -> bool:
    seat = seat_at(seats, index)
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
    play_answer(game, prompts, seat.index, answer, "deadline", None, Event.Kind.TIMEOUT, seats)
    if game.bot_after_misses and misses >= game.bot_after_misses and not seat.is_bot:
        reason = f"{seat.name} missed {misses} deadlines in a row"
        hand_seat_to_bot(game, seat, None, reason, via="deadline", seats=seats)
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
        with write_step(), pending.held():
            locked = lock_games(sorted({game_id for _, game_id, _ in overdue}))
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
        with dispatch.collected() as mail:
            done = step(chunk, now)
        if mail:
            dispatch.send_now(mail)
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
        game = lock_game(seat.game_id)
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
            reset_deadline(game, seat, seat.waiting_since)
        note(game, "vacation", seat=seat.index, via="web", starts=starts.isoformat(), ends=ends.isoformat())
        return vacation
