"""Held writes (games/pending.py) and the batched sweep built on them.

The sweep plays every overdue seat through the one write path with its writes held, then writes a
batch in a few bulk statements. What it writes must be what the one-at-a-time path writes; a
batch must cost a fixed number of queries, not a dozen per seat; and a batch that meets a race
must be redone seat by seat, timing each seat out exactly once.
"""

from __future__ import annotations

import logging

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from games import pending, tasks
from games.actions import deadlines, organise
from games.models import Event, Game, Notification, Seat

pytestmark = pytest.mark.django_db(transaction=True)


def overdue_games(clocked, travel, n: int) -> list[Game]:
    games = [clocked() for _ in range(n)]
    travel(61)
    return games


def test_a_sweep_batch_costs_a_fixed_number_of_queries_not_a_dozen_per_seat(clocked, travel, monkeypatch):
    monkeypatch.setattr(tasks.send_notifications, "delay", lambda pks: None)  # count the sweep, not the mailer
    overdue_games(clocked, travel, 3)
    with CaptureQueriesContext(connection) as few:
        assert deadlines.sweep(batch=250)["timed_out"] == 6

    # (SQLite runs one UPDATE per row, PostgreSQL one for all; count the statements that are not those)
    def not_row_updates(queries):
        return [q for q in queries if not q["sql"].startswith("UPDATE")]

    travel(0)
    overdue_games(clocked, travel, 12)
    with CaptureQueriesContext(connection) as many:
        assert deadlines.sweep(batch=250)["timed_out"] == 24
    assert len(not_row_updates(many.captured_queries)) == len(not_row_updates(few.captured_queries))


def test_the_batched_sweep_writes_what_the_one_at_a_time_path_writes(clocked, travel, monkeypatch):
    monkeypatch.setattr(organise, "new_seed", lambda: "one seed for both tables")
    batched, single = overdue_games(clocked, travel, 2)
    overdue = list(Seat.objects.filter(game=single, deadline__isnull=False))
    for s in overdue:  # what the sweep does for each seat: the reminder, then the timeout
        assert deadlines.remind(s.pk)
    for s in overdue:
        assert deadlines.time_out(s.pk)
    assert deadlines.sweep()["timed_out"] == 2  # only `batched` is still overdue

    def shape(game: Game):
        game.refresh_from_db()
        events = [(e.seq, e.kind, e.seat, e.payload, e.via) for e in game.events.order_by("seq")]
        seats = [
            (s.index, s.misses, s.deadline is None, s.waiting_since is None, s.is_bot)
            for s in game.seats.order_by("index")
        ]
        mail = sorted((n.kind, n.seat.index, n.template) for n in game.notifications.all())
        return game.state, game.version, game.to_move, events, seats, mail

    assert shape(batched) == shape(single)


def test_a_batch_that_meets_a_race_is_redone_one_seat_at_a_time(clocked, travel, monkeypatch, caplog):
    games = overdue_games(clocked, travel, 3)
    real = pending.Writes.flush
    raced = []

    def flush_after_a_rival(self):
        if len(self.games) > 1 and not raced:  # the batch, not the seat-by-seat redo
            raced.append(True)
            rival = games[1]
            Game.objects.filter(pk=rival.pk).update(version=rival.version + 50)  # someone moved it
        real(self)

    monkeypatch.setattr(pending.Writes, "flush", flush_after_a_rival)
    with caplog.at_level(logging.INFO, logger="games.actions.deadlines"):
        result = deadlines.sweep()
    assert raced and "met a race" in caplog.text
    # the whole batch rolled back (the rival's move with it, here) and every seat was then timed
    # out on its own, exactly once
    assert result["timed_out"] == 6
    for game in games:
        assert Event.objects.filter(game=game, kind="timeout").count() == 2
        game.refresh_from_db()
        assert game.version == 2


def test_held_writes_are_not_written_if_the_block_raises(clocked):
    game = clocked()
    seat = Seat.objects.get(game=game, index=0)
    with pytest.raises(RuntimeError), transaction.atomic(), pending.held():
        pending.update_seat(seat, misses=7)
        pending.add_event(Event(game=game, seq=game.version + 1, kind="admin", payload={"action": "probe"}))
        raise RuntimeError("the step failed")
    seat.refresh_from_db()
    assert seat.misses == 0 and not game.events.filter(payload__action="probe").exists()
    assert pending.current() is None


def test_a_held_game_update_with_a_moved_version_is_refused(clocked):
    game = clocked()
    with pytest.raises(IntegrityError), transaction.atomic(), pending.held():
        game.version -= 1  # the version this step read has moved on since
        pending.update_game(game, to_move="nobody")
    game.refresh_from_db()
    assert game.to_move != "nobody"


def test_outbox_rows_of_a_batch_are_written_and_sent_once(clocked, travel):
    games = overdue_games(clocked, travel, 4)
    deadlines.sweep()
    rows = Notification.objects.filter(game__in=games, kind="your_move", created_at__gte=games[-1].created_at)
    assert rows.count() >= 4
    assert all(r.status == "sent" and r.body_text and not r.context for r in rows)
