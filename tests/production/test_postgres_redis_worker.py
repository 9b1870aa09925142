"""The production path for real: PostgreSQL, Redis as the Celery broker, a real worker process,
anymail's test backend for sending.

(a) a game with one person and one bot runs through the worker: the bot's moves and every email
    go through Redis to the worker, which plays and sends (rows become 'sent' with the ESP's id);
(b) 20 clients submit the same answer for the same seat at once: exactly one is applied;
(c) the sweep resends mail a crashed worker left pending exactly once, even with two sweeps at once.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core import mail as django_mail
from django.db import connection
from django.utils import timezone

from games import tasks
from games.actions import organise, play, replay
from games.actions.write import SubmitError
from games.engine.prompts import prompt_key
from games.models import Event, Game, Notification
from tests.production.conftest import wait_for

pytestmark = [pytest.mark.production, pytest.mark.django_db(transaction=True)]


def test_the_database_and_broker_are_the_real_servers(real_celery):
    assert connection.vendor == "postgresql"
    assert connection.settings_dict["NAME"].startswith("test_")
    with real_celery.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1)
        assert conn.transport.driver_type == "redis"


# --- (a) a bot game through Redis and the worker ----------------------------------------------


def _notes_sent(game: Game) -> list[Notification] | None:
    notes = list(Notification.objects.filter(game=game))
    if notes and all(n.status == Notification.Status.SENT for n in notes):
        return notes
    return None


def test_a_bot_game_is_played_and_mailed_by_the_worker_through_redis(organiser, real_celery, celery_worker):
    # the session's worker may have lived through an earlier test's Redis outage: judge this test's lines
    log_from = len(celery_worker.output())
    game = organise.create_game(organiser, "pebbles", "Worker table", {}, ["ana@example.com", None])
    game = organise.start_game(game)
    # start_game only queued things: in this process nothing was sent and no bot has moved
    assert len(getattr(django_mail, "outbox", [])) == 0
    assert not Event.objects.filter(game=game, kind=Event.Kind.ANSWER).exists()

    # the worker takes the bot's move from Redis and plays it ...
    bot_move = wait_for(
        lambda: Event.objects.filter(game=game, kind=Event.Kind.ANSWER, seat=1, via="bot").first(),
        30,
        "the worker to play the bot's first move",
        celery_worker,
    )
    assert bot_move.seq >= 1
    # ... and sends Ana's invitation and her first "your move" through anymail's test backend
    notes = wait_for(lambda: _notes_sent(game), 30, "the first emails to be sent by the worker", celery_worker)
    assert {n.kind for n in notes} == {Notification.Kind.INVITE, Notification.Kind.YOUR_MOVE}
    for n in notes:
        assert n.recipient == "ana@example.com" and n.attempts == 1 and n.sent_at is not None
        assert n.message_id != "", f"{n.kind} row sent without the ESP's message id"
    assert len(getattr(django_mail, "outbox", [])) == 0, "the worker sent the mail, not this process"

    # Play Ana's seat from here; the worker answers for the bot each time it is asked.
    engine = game.engine
    rounds = 0
    while True:
        game.refresh_from_db()
        if game.status == Game.Status.ENDED:
            break
        prompts = engine.prompts(game.state)
        if 0 in prompts:
            answer = engine.default_answer(game.state, 0)
            try:
                play.submit(game.pk, 0, answer, game.version, via="web", prompt_key=prompt_key(prompts[0]))
            except SubmitError as e:  # the bot moved between our read and our submit
                assert e.code == "stale", e.message
            rounds += 1
            continue
        version = game.version
        wait_for(
            lambda v=version: Game.objects.filter(pk=game.pk).exclude(version=v).exists(),
            30,
            f"the worker to move the bot at version {version}",
            celery_worker,
        )
        assert rounds < 100

    bot_answers = Event.objects.filter(game=game, kind=Event.Kind.ANSWER, seat=1)
    assert bot_answers.count() >= 2 and set(bot_answers.values_list("via", flat=True)) == {"bot"}
    assert Event.objects.filter(game=game, kind=Event.Kind.ENDED).count() == 1
    assert not replay.rebuild_differs(game), "replaying the log gives the stored projection"

    notes = wait_for(lambda: _notes_sent(game), 30, "every email of the game to be sent", celery_worker)
    assert [n.kind for n in notes].count(Notification.Kind.FINAL) == 1
    ids = [n.message_id for n in notes]
    assert all(ids) and len(set(ids)) == len(ids), f"each email has its own ESP id: {ids}"
    assert "Traceback" not in celery_worker.output()[log_from:], celery_worker.output()[-6000:]


# --- (b) 20 clients, one seat, one answer ------------------------------------------------------


def _at_once(n: int, work):
    """Run work(i) in n threads released together; each thread uses and closes its own connection."""
    barrier = threading.Barrier(n)
    results: list = [None] * n

    def run(i):
        try:
            barrier.wait(10)
            results[i] = ("ok", work(i))
        except Exception as e:  # noqa: BLE001 - every outcome is collected and asserted below
            results[i] = ("error", e)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads), "a submit hung"
    return results


@pytest.mark.parametrize("phase", ["simultaneous", "turn"])
def test_twenty_clients_submit_the_same_answer_at_once_and_exactly_one_is_applied(make_game, phase):
    game = make_game(seats=("ana@example.com", "ben@example.com"))
    engine = game.engine
    if phase == "turn":  # get past the sealed secrets, to a plain one-seat turn
        for seat in (0, 1):
            play.submit(game.pk, seat, 1, None, via="web")
        game.refresh_from_db()
    prompts = engine.prompts(game.state)
    seat = 0 if phase == "simultaneous" else next(iter(prompts))
    assert seat in prompts
    answer = engine.default_answer(game.state, seat)
    key = prompt_key(prompts[seat])
    version = game.version
    answers_before = Event.objects.filter(game=game, kind=Event.Kind.ANSWER, seat=seat).count()

    results = _at_once(20, lambda i: play.submit(game.pk, seat, answer, version, via="web", prompt_key=key))

    applied = [r for kind, r in results if kind == "ok"]
    refused = [r for kind, r in results if kind == "error"]
    assert len(applied) == 1, results
    assert len(refused) == 19
    for e in refused:
        assert isinstance(e, SubmitError), repr(e)
        assert e.code in {"already_answered", "stale"}, (e.code, e.message)
        assert len(e.message) > 20 and "nothing" in e.message.lower(), e.message
    assert Event.objects.filter(game=game, kind=Event.Kind.ANSWER, seat=seat).count() == answers_before + 1
    game.refresh_from_db()
    assert game.version == version + 1
    assert applied[0].event.seq == version + 1
    assert not replay.rebuild_differs(game)


# --- (c) the sweep resends a stuck row once, even with two sweeps at once ----------------------


def _stuck(game: Game, n: int, minutes_old: int) -> list[int]:
    seat = game.seats.get(index=0)
    pks = [
        Notification.objects.create(
            game=game,
            seat=seat,
            recipient=f"stuck{i}@example.com",
            kind=Notification.Kind.YOUR_MOVE,
            subject=f"Stuck {i}",
            body_text="Your move.",
        ).pk
        for i in range(n)
    ]
    Notification.objects.filter(pk__in=pks).update(created_at=timezone.now() - timedelta(minutes=minutes_old))
    return pks


def _sent_per_row(pks: list[int]) -> dict[int, int]:
    counts = dict.fromkeys(pks, 0)
    for m in django_mail.outbox:
        pk = int(m.extra_headers.get("X-Cafe-Notification", 0))
        if pk in counts:
            counts[pk] += 1
    return counts


def test_two_sweeps_at_once_resend_each_stuck_row_exactly_once(make_game):
    game = make_game(seats=("ana@example.com", "ben@example.com"))
    django_mail.outbox.clear()
    stuck = _stuck(game, 12, minutes_old=10)  # a worker crashed before sending these
    fresh = _stuck(game, 2, minutes_old=0)  # a worker may still be sending these: left alone

    results = _at_once(2, lambda i: tasks.sweep())

    assert all(kind == "ok" for kind, _ in results), results
    assert sum(r["mail"] for _, r in results) >= len(stuck)
    assert _sent_per_row(stuck) == dict.fromkeys(stuck, 1), "each stuck row is sent exactly once"
    assert _sent_per_row(fresh) == dict.fromkeys(fresh, 0)
    rows = Notification.objects.filter(pk__in=stuck)
    assert {r.status for r in rows} == {Notification.Status.SENT}
    assert {r.attempts for r in rows} == {1}
    assert Notification.objects.filter(pk__in=fresh, status=Notification.Status.PENDING).count() == 2

    # and a later sweep sends none of them again
    tasks.sweep()
    assert _sent_per_row(stuck) == dict.fromkeys(stuck, 1)
