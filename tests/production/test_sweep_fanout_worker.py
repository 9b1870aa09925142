"""Beat's sweep fans out to a real worker process (PostgreSQL, Redis): it only queues batches, and
the worker reminds and times out. Each overdue seat times out exactly once and each reminder goes
once, with two sweeps dispatched at once, a dispatch racing an in-process sweep, or a batch task
delivered twice (as after a killed worker).
"""

from __future__ import annotations

import re
import uuid
from datetime import timedelta
from unittest import mock

import pytest
import redis
from django.conf import settings
from django.utils import timezone

from games import tasks
from games.actions import deadlines, replay
from games.models import Event, Game, Notification, Seat
from tests.production.conftest import Worker, wait_for
from tests.production.test_postgres_redis_worker import _at_once

pytestmark = [pytest.mark.production, pytest.mark.django_db(transaction=True)]

BATCH_DONE = re.compile(r"games\.tasks\.(?:remind_batch|time_out_batch)\[[^\]]+\] succeeded")


@pytest.fixture
def overdue(clocked, monkeypatch):
    """Started games whose every seat is past its reminder and its deadline, in real time (the
    worker's clock is not the test's); small batches, so a handful of seats makes several tasks."""
    monkeypatch.setattr(deadlines, "BATCH", 3)

    def make(n: int) -> list[Game]:
        games = [clocked() for _ in range(n)]
        now = timezone.now()
        Seat.objects.filter(game__in=games).update(
            deadline=now - timedelta(minutes=1), remind_at=now - timedelta(minutes=11)
        )
        return games

    return make


@pytest.fixture
def fresh_claims():
    """Forget the minute claims of earlier runs on this Redis database (tasks._first_this_minute)."""
    name = settings.DATABASES["default"]["NAME"]
    with redis.Redis.from_url(settings.CELERY_BROKER_URL) as client:
        for key in client.scan_iter(f"cafe-turns:sweep:{name}:*"):
            client.delete(key)


def batches_done(worker: Worker) -> int:
    return len(BATCH_DONE.findall(worker.output()))


def task_result(worker: Worker, task_id: str) -> str | None:
    found = re.search(rf"\[{task_id}\] succeeded in [0-9.]+s: (\S+)", worker.output())
    return found and found.group(1)


def mail_sent(games: list[Game], worker: Worker) -> None:
    """Wait for the mail the batches queued, so the worker is idle when the test empties the tables."""
    unsent = Notification.objects.filter(game__in=games, status=Notification.Status.PENDING)
    wait_for(lambda: not unsent.exists(), 60, "the batches' mail", worker)


def assert_each_seat_timed_out_and_reminded_once(games: list[Game]) -> None:
    seats = Seat.objects.filter(game__in=games)
    assert Event.objects.filter(game__in=games, kind=Event.Kind.TIMEOUT).count() == seats.count()
    assert {s.misses for s in seats} == {1}
    reminders = Notification.objects.filter(game__in=games, kind=Notification.Kind.REMINDER)
    assert sorted(reminders.values_list("seat_id", flat=True)) == sorted(s.pk for s in seats)
    for game in games:
        game.refresh_from_db()
        assert Event.objects.filter(game=game, kind=Event.Kind.TIMEOUT).count() == 2
        assert not replay.rebuild_differs(game), "the stored state is the replayed one"


def test_two_beat_sweeps_at_once_fan_out_once_to_the_worker(overdue, fresh_claims, real_celery, celery_worker):
    games = overdue(5)  # 10 seats: 4 reminder batches, 4 timeout batches
    before = batches_done(celery_worker)

    at = timezone.now()  # the minute the two sweeps take (the worker's wait below may cross into the next)
    results = _at_once(2, lambda i: tasks.sweep())

    assert all(kind == "ok" for kind, _ in results), results
    sweeps = [r for _, r in results]
    assert sorted(r["dispatched"] for r in sweeps) == [0, 1], "the second beat's sweep saw this minute taken"
    [sent] = [r for r in sweeps if r["dispatched"]]
    assert sent == {**sent, "reminders": 10, "reminder_batches": 4, "overdue": 10, "timeout_batches": 4}
    # beat's process only queued: the worker does the work
    wait_for(lambda: batches_done(celery_worker) >= before + 8, 60, "the worker to run 8 batches", celery_worker)
    mail_sent(games, celery_worker)
    assert_each_seat_timed_out_and_reminded_once(games)
    with mock.patch.object(tasks.timezone, "now", return_value=at):
        assert tasks.sweep()["dispatched"] == 0, "once a minute"
    assert deadlines.sweep(timezone.now())["timed_out"] == 0


def test_dispatches_racing_each_other_and_an_in_process_sweep_time_each_seat_out_once(
    overdue, real_celery, celery_worker
):
    games = overdue(6)  # 12 seats
    now = timezone.now()
    before = batches_done(celery_worker)

    # two dispatches with no claim between them, and this process sweeping the same seats at once
    results = _at_once(3, lambda i: deadlines.fan_out(now) if i < 2 else deadlines.sweep(now))

    assert all(kind == "ok" for kind, _ in results), results
    queued = sum(r["reminder_batches"] + r["timeout_batches"] for _, r in results[:2])
    assert queued >= 8, results  # the first dispatch saw all 24 rows; a later one may see fewer
    wait_for(
        lambda: batches_done(celery_worker) >= before + queued, 60, f"the worker to run {queued} batches", celery_worker
    )
    mail_sent(games, celery_worker)
    assert_each_seat_timed_out_and_reminded_once(games)


def test_a_batch_delivered_twice_changes_nothing_the_second_time(overdue, real_celery, celery_worker):
    games = overdue(3)
    now = timezone.now()
    _, rows = deadlines.due(now)
    rows = [list(r) for r in rows if r[1] in {g.pk for g in games}]
    first, second = str(uuid.uuid4()), str(uuid.uuid4())

    tasks.time_out_batch.apply_async((rows, now.isoformat()), task_id=first)
    assert wait_for(lambda: task_result(celery_worker, first), 60, "the batch", celery_worker) == "6"
    mail_sent(games, celery_worker)
    after = (
        list(Game.objects.filter(pk__in=[g.pk for g in games]).order_by("pk").values("version", "state", "to_move")),
        list(Seat.objects.filter(game__in=games).order_by("pk").values("deadline", "misses", "waiting_since")),
        Event.objects.filter(game__in=games).count(),
        Notification.objects.filter(game__in=games).count(),
    )

    tasks.time_out_batch.apply_async((rows, now.isoformat()), task_id=second)  # the same message again
    assert wait_for(lambda: task_result(celery_worker, second), 60, "the batch again", celery_worker) == "0"
    assert after == (
        list(Game.objects.filter(pk__in=[g.pk for g in games]).order_by("pk").values("version", "state", "to_move")),
        list(Seat.objects.filter(game__in=games).order_by("pk").values("deadline", "misses", "waiting_since")),
        Event.objects.filter(game__in=games).count(),
        Notification.objects.filter(game__in=games).count(),
    )
    assert Event.objects.filter(game__in=games, kind=Event.Kind.TIMEOUT).count() == 6
    mail_sent(games, celery_worker)
