"""Time: reminders, timeouts (through the write path, in batches) and vacations.

The sweep is idempotent: run it twice at once, or on two workers, and each overdue seat times
out once and each reminder goes once (every step re-checks under a lock).
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import digest, dispatch, notify, pending
from games.clock import vacation
from games.clock.seat import reminder_for
from games.clock.vacation import Books, allowance_left
from games.engine import step_rng
from games.engine.typed import HORIZON_DAYS
from games.models import Event, Game, Seat, Vacation

from .write import (
    SubmitError,
    hand_seat_to_bot_locked,
    lock_game,
    lock_games,
    mailed_view,
    note_locked,
    play_answer_locked,
    reset_deadline_locked,
    seat_at,
    write_step,
)

log = logging.getLogger(__name__)

BATCH = 250  # seats per transaction (and per task): a few bulk queries each, a second or so of work


def remind(seat_pk: int, now: datetime | None = None) -> bool:
    """Send the reminder for a seat's current deadline, once (again only if the deadline moved)."""
    return _remind_batch([seat_pk], now or timezone.now()) == 1


def remind_batch(pks: list[int], now: datetime) -> int:
    """One batch of a sweep's reminders, its mail sent by one task once it commits.

    Idempotent: a batch done twice (two sweeps, or a retry after a killed worker) sends nothing the
    second time, since `reminded_for` already names the deadline; a cheap unlocked look first skips
    seats that are done, so a duplicate batch costs one query.
    """
    due = list(_due_reminders().filter(pk__in=pks, remind_at__lte=now).values_list("pk", flat=True))
    return _with_mail(_remind_batch, due, now) if due else 0


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
    if not digest.comes_first(seat.player, seat.deadline, now):
        notify.reminder(game, seat, mailed_view(game.engine, game.state, seat.index), prompt)
    # the player's next point for this deadline, if any; after the last, the deadline counts as reminded
    later = reminder_for(game.clock, seat, seat.deadline, now, sent_now=True)
    pending.update_seat(seat, remind_at=later, reminded_for=seat.deadline if later is None else seat.reminded_for)
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


def _draws(game: Game) -> bool:
    return game.auto_vacation and bool(game.vacation_days)


def _draw_vacation(game: Game, seat: Seat, now: datetime, books: Books | None) -> bool:
    """Keep a seat that would time out waiting, on the vacation hours the clock draws for it: the
    hours extend its last drawn row or make a new one, and its deadline moves past them."""
    drawn = vacation.draw_vacation(game.clock, game.vacation_days, seat, now, books)
    if drawn is None:
        return False
    if drawn.extends is not None:
        pending.update_row(Vacation(pk=drawn.extends, seat=seat), ends=drawn.ends)
    else:
        pending.add_row(Vacation(seat=seat, starts=drawn.first, ends=drawn.ends, automatic=True))
    pending.update_seat(seat, deadline=drawn.deadline, remind_at=None, away_until=drawn.away_until)
    return True


def _time_out_locked(game: Game, seats: list[Seat], index: int, now: datetime, books: Books | None = None) -> bool:
    """Time a seat out (True), or, with automatic vacation and allowance left, draw vacation hours instead."""
    seat = seat_at(seats, index)
    if game.status != Game.Status.ACTIVE or seat.deadline is None or seat.deadline > now:
        return False
    engine = game.engine
    prompts = engine.prompts(game.state)
    if seat.index not in prompts:
        return False
    if _draws(game) and seat.player_id and not seat.is_bot:
        if _draw_vacation(game, seat, now, books):
            return False
    if game.timeout_policy == Game.TimeoutPolicy.BOT:
        answer = engine.bot_answer(game.state, seat.index, step_rng(game.seed + ":bot", game.version + 1))
    else:
        answer = engine.default_answer(game.state, seat.index)
    misses = seat.misses + 1
    pending.update_seat(seat, misses=misses, deadline=None, remind_at=None)
    play_answer_locked(game, prompts, seat.index, answer, "deadline", None, Event.Kind.TIMEOUT, seats)
    if game.bot_after_misses and misses >= game.bot_after_misses and not seat.is_bot:
        reason = f"{seat.name} missed {misses} deadlines in a row"
        hand_seat_to_bot_locked(game, seat, None, reason, via="deadline", seats=seats)
    return True


Overdue = tuple[int, int, int]  # (seat pk, game pk, seat index): what a timeout batch needs


def due(now: datetime) -> tuple[list[int], list[Overdue]]:
    """The seats a sweep at `now` reminds and times out: two index queries, no lock, no state loaded.

    Cheap enough for beat's one dispatching process; every batch re-checks each seat under its
    game's lock, so a row that changed since is simply skipped.
    """
    reminders = list(_due_reminders().filter(remind_at__lte=now).order_by("pk").values_list("pk", flat=True))
    overdue = list(_overdue().filter(deadline__lte=now).order_by("deadline").values_list("pk", "game_id", "index"))
    return reminders, overdue


def chunks(items: list, size: int = BATCH) -> list[list]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def fan_out(now: datetime, batch: int | None = None) -> dict[str, int]:
    """Find what is due and queue one task per batch (games.dispatch), for every worker to share.

    Reminder batches are queued first, so a reminder never trails the timeout it warns of. Safe to
    run twice at once: each batch is idempotent (see remind_batch and time_out_batch).
    """
    reminders, overdue = due(now)
    reminder_batches = chunks(reminders, batch or BATCH)
    timeout_batches = chunks(overdue, batch or BATCH)
    for pks in reminder_batches:
        dispatch.queue_reminders(pks, now)
    for rows in timeout_batches:
        dispatch.queue_timeouts([list(r) for r in rows], now)
    return {
        "reminders": len(reminders),
        "reminder_batches": len(reminder_batches),
        "overdue": len(overdue),
        "timeout_batches": len(timeout_batches),
    }


def sweep(now: datetime | None = None, batch: int = BATCH, threads: int = 1) -> dict[str, int]:
    """Reminders, then timeouts, here and now, with the counts done (beat's sweep uses fan_out).

    Safe to run twice at once: each step re-checks under a lock. Timeouts go in batches: one
    transaction locks a batch's games and seats in two queries, plays every overdue seat through
    the write path with its writes held (games.pending), and writes them in a handful of bulk
    queries. A batch that meets a race (a player answered at that very moment) is rolled back and
    done again one seat at a time. `threads` > 1 runs the batches on threads with their own
    connections (on a database server; the time is mostly Python's, so workers scale it better).
    """
    now = now or timezone.now()
    reminders, overdue = due(now)
    if connection.vendor == "sqlite":
        threads = 1
    return {
        "reminded": _in_batches(remind_batch, reminders, now, batch, threads),
        "timed_out": _in_batches(time_out_batch, overdue, now, batch, threads),
    }


def time_out_batch(overdue: list[Overdue], now: datetime) -> int:
    """One batch of a sweep's timeouts, its mail sent by one task once it commits.

    Idempotent: a batch done twice (two sweeps, or a retry after a killed worker) times out nothing
    the second time, since each seat's deadline was cleared (or moved past `now`) by the first; a
    cheap unlocked look first skips seats that are done, so a duplicate batch costs one query.
    """
    rows = [tuple(row) for row in overdue]
    still = set(_overdue().filter(pk__in=[pk for pk, _, _ in rows], deadline__lte=now).values_list("pk", flat=True))
    rows = [row for row in rows if row[0] in still]
    return _with_mail(_time_out_batch, rows, now) if rows else 0


def _due_reminders():
    """Seats that may owe a reminder (the time is checked by the caller; the rest under the lock)."""
    waiting = Seat.objects.filter(game__status=Game.Status.ACTIVE, deadline__isnull=False, is_bot=False)
    return waiting.exclude(reminded_for=F("deadline"))


def _overdue():
    return Seat.objects.filter(game__status=Game.Status.ACTIVE)


def _time_out_batch(overdue: list[Overdue], now: datetime) -> int:
    try:
        with write_step(), pending.held():
            locked = lock_games(sorted({game_id for _, game_id, _ in overdue}))
            drawing = [pk for pk, game_id, _ in overdue if game_id in locked and _draws(locked[game_id][0])]
            books = vacation.vacation_books(drawing, now) if drawing else {}
            return sum(
                _time_out_locked(*locked[game_id], index, now, books)
                for _, game_id, index in overdue
                if game_id in locked
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


def _with_mail(step, items: list, now: datetime) -> int:
    """Run one batch; the outbox rows it wrote go out in one task once it has committed."""
    with dispatch.collected() as mail:
        done = step(items, now)
    if mail:
        dispatch.send_now(mail)
    return done


def _in_batches(step, items: list, now: datetime, batch: int, threads: int) -> int:
    parts = chunks(items, batch)
    if threads <= 1 or len(parts) <= 1:
        return sum(step(part, now) for part in parts)

    def in_thread(part: list) -> int:
        try:
            return step(part, now)
        finally:
            connection.close()

    with ThreadPoolExecutor(threads) as pool:
        return sum(pool.map(in_thread, parts))


def declare_vacation(seat: Seat, starts: datetime, ends: datetime) -> Vacation:
    """A player is away from one game: their clocks there stop for its length, within its yearly allowance."""
    check_absence(starts, ends)
    with transaction.atomic():
        game = lock_game(seat.game_id)
        if game.status not in (Game.Status.ACTIVE, Game.Status.PAUSED):
            raise SubmitError(_("Vacations can be declared while a game is in play."), "not_playing")
        left = allowance_left(game, seat)
        if ends - starts > left:
            days = vacation.days_left(left)
            raise SubmitError(
                ngettext(
                    "This game allows %(n)s vacation day a year;",
                    "This game allows %(n)s vacation days a year;",
                    game.vacation_days,
                )
                % {"n": game.vacation_days}
                + " "
                + ngettext("you have %(n)s day left.", "you have %(n)s days left.", days) % {"n": days},
                "allowance",
            )

        return grant_vacation_locked(game, seat, starts, ends)


def check_absence(starts: datetime, ends: datetime) -> None:
    """The bounds every declared absence keeps (one game's vacation, or the calendar's absence)."""
    if ends <= starts:
        raise SubmitError(_("A vacation must end after it starts."), "bad_vacation")
    now = timezone.now()
    if ends <= now:
        raise SubmitError(_("That vacation is already over."), "bad_vacation")
    if starts < now - timedelta(days=2) or ends > now + timedelta(days=HORIZON_DAYS + 2):
        raise SubmitError(_("Give dates from today to a year from now."), "bad_vacation")


def grant_vacation_locked(
    game: Game, seat: Seat, starts: datetime, ends: datetime, absence=None, via: str = "web"
) -> Vacation:
    """Record a vacation on a locked game: the seat is away, its running deadline moves, the log says so."""
    vacation = Vacation.objects.create(seat=seat, starts=starts, ends=ends, absence=absence)
    if seat.away_until is None or ends > seat.away_until:
        Seat.objects.filter(pk=seat.pk).update(away_until=ends)
    seat.refresh_from_db()
    if seat.deadline and seat.waiting_since:
        reset_deadline_locked(game, seat, seat.waiting_since)
    note_locked(game, "vacation", seat=seat.index, via=via, starts=starts.isoformat(), ends=ends.isoformat())
    return vacation
