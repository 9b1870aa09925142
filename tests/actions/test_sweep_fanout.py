"""Beat's sweep fans its batches out as tasks (eager here, so they run inline; tests/production runs
them on a real worker): one task per batch, arguments that survive JSON, and every batch idempotent."""

from __future__ import annotations

import json

import pytest

from games import tasks
from games.actions import deadlines
from games.models import Event, Game, Notification, Seat

pytestmark = pytest.mark.django_db


def snapshot(games: list[Game]) -> tuple:
    """Everything a replayed batch could change."""
    return (
        list(Game.objects.filter(pk__in=[g.pk for g in games]).order_by("pk").values_list("pk", "version")),
        list(
            Seat.objects.filter(game__in=games).order_by("pk").values_list("pk", "deadline", "misses", "reminded_for")
        ),
        Event.objects.filter(game__in=games).count(),
        Notification.objects.filter(game__in=games).count(),
    )


def test_the_sweep_queues_one_task_per_batch_reminders_first(clocked, travel, monkeypatch):
    games = [clocked() for _ in range(3)]
    now = travel(61)  # every seat is past its reminder and its deadline
    queued: list[tuple[str, list, str]] = []
    for name in ("remind_batch", "time_out_batch"):
        task = getattr(tasks, name)
        monkeypatch.setattr(task, "delay", lambda items, at, name=name: queued.append((name, items, at)))

    assert deadlines.fan_out(now, batch=4) == {
        "reminders": 6,
        "reminder_batches": 2,
        "overdue": 6,
        "timeout_batches": 2,
    }
    assert [name for name, _, _ in queued] == ["remind_batch"] * 2 + ["time_out_batch"] * 2
    assert json.loads(json.dumps(queued)) == [list(q) for q in queued], "the arguments are plain JSON"
    assert {at for _, _, at in queued} == {now.isoformat()}
    assert sorted(pk for _, pks, _ in queued[:2] for pk in pks) == sorted(
        Seat.objects.filter(game__in=games).values_list("pk", flat=True)
    )
    assert [len(rows) for _, rows, _ in queued[2:]] == [4, 2]
    assert all(len(row) == 3 for _, rows, _ in queued[2:] for row in rows), "rows of [seat, game, index]"
    assert Event.objects.filter(game__in=games, kind="timeout").count() == 0, "queued, not run"

    # run each task as a worker would, then again as a retried (redelivered) task would
    done = [getattr(tasks, name).run(items, at) for name, items, at in queued]
    assert done == [4, 2, 4, 2]
    after = snapshot(games)
    assert [getattr(tasks, name).run(items, at) for name, items, at in queued] == [0, 0, 0, 0]
    assert snapshot(games) == after, "a replayed batch changes nothing"
    assert Notification.objects.filter(game__in=games, kind="reminder").count() == 6
    for game in games:
        assert Event.objects.filter(game=game, kind="timeout").count() == 2


def test_eager_fan_out_does_the_work_inline_and_a_second_finds_nothing(clocked, travel):
    games = [clocked() for _ in range(2)]
    now = travel(61)
    assert deadlines.fan_out(now, batch=3)["timeout_batches"] == 2
    assert Event.objects.filter(game__in=games, kind="timeout").count() == 4
    assert deadlines.fan_out(now) == {"reminders": 0, "reminder_batches": 0, "overdue": 0, "timeout_batches": 0}


def test_a_reminded_seat_is_not_queued_again_each_minute(clocked, travel):
    clocked()
    deadlines.fan_out(travel(52))
    assert Notification.objects.filter(kind="reminder").count() == 2
    assert deadlines.due(travel(53)) == ([], []), "reminded already, not yet overdue"


def test_the_beat_task_reports_what_it_queued(clocked, travel):
    clocked()
    travel(61)
    result = tasks.sweep()
    assert result["dispatched"] == 1
    assert (result["reminders"], result["overdue"], result["timeout_batches"]) == (2, 2, 1)
    assert Event.objects.filter(kind="timeout").count() == 2, "eager: the batches ran inline"
    assert {"digests", "mail", "bots"} <= set(result)
