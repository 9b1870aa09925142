"""A mail server that hangs, refuses or loses its sender mid-send, for real (issue 22).

The service runs as in production: a Celery worker for the default queue (sweep batches, bots) and
a mailer for the mail queue, both real processes on Redis and the test database, sending by SMTP to
a server on 127.0.0.1 (tests/production/smtp_server.py). Beat's sweep is called in this process.
"""

from __future__ import annotations

import os
import signal
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import links, mail, tasks
from games.actions import organise, play, replay
from games.engine.prompts import prompt_key
from games.models import Event, Game, Notification, Seat
from tests.production import service
from tests.production.conftest import wait_for
from tests.production.smtp_server import MailServer

pytestmark = [pytest.mark.production, pytest.mark.django_db(transaction=True)]

PEOPLE = ("ana", "gone", "full")
SENT, FAILED, GAVE_UP = Notification.Status.SENT, Notification.Status.FAILED, Notification.Status.GAVE_UP


@pytest.fixture
def smtp():
    server = MailServer()
    yield server
    server.stop()


@pytest.fixture
def every_sweep_dispatches(monkeypatch):
    """Each call of the sweep here dispatches (beat would, once a minute; a test calls it sooner)."""
    monkeypatch.setattr(tasks, "_first_this_minute", lambda now: True)


def start(tmp, smtp: MailServer, queue: str, kind: str) -> service.Proc:
    """The worker ('default': sweep batches and bots) or the mailer ('mail'), sending through `smtp`."""
    queues = [queue] if kind == "default" else [service.mail_queue(queue)]
    return service.start_worker(
        dict(connection.settings_dict),
        tmp,
        queue,
        queues=queues,
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_URL=smtp.url,
        MAIL_TIMEOUT="2",
    )


def unsent_are_due_now() -> None:
    """Time passes: every unsent row's backoff (or a lost sender's lease) is over."""
    unsent = Notification.objects.exclude(status__in=[SENT, GAVE_UP])
    unsent.update(next_attempt_at=timezone.now() - timedelta(seconds=1))


def all_sent():
    notes = list(Notification.objects.all())
    return notes if notes and all(n.status == SENT for n in notes) else None


def answer_for(game: Game, seat_index: int) -> bool:
    """Play the seat's default answer through the write path, if it is asked."""
    game.refresh_from_db()
    prompt = game.engine.prompts(game.state).get(seat_index)
    if prompt is None or game.status != Game.Status.ACTIVE:
        return False
    answer = game.engine.default_answer(game.state, seat_index)
    play.submit(game.pk, seat_index, answer, game.version, via="web", prompt_key=prompt_key(prompt))
    return True


def test_a_hung_mail_server_holds_up_neither_sweep_nor_bots_and_its_mail_goes_once_it_answers(
    organiser, clocked, smtp, tmp_path, every_sweep_dispatches, real_celery, own_queue
):
    smtp.hang()
    worker = start(tmp_path, smtp, own_queue, "default")
    mailer = start(tmp_path, smtp, own_queue, "mail")
    try:
        bot_game = organise.create_game(organiser, "pebbles", "With a bot", {"pile": 60}, ["ana@example.com", None])
        bot_game = organise.start_game(bot_game)
        overdue = [clocked() for _ in range(3)]
        Seat.objects.filter(game__in=overdue).update(deadline=timezone.now() - timedelta(minutes=1))
        t0 = time.monotonic()

        # Ana plays; the bot answers through the worker each time, while every mail hangs.
        def bot_moves() -> int:
            return Event.objects.filter(game=bot_game, via="bot").count()

        deadline = time.monotonic() + 60
        while bot_moves() < 6:
            assert time.monotonic() < deadline, f"the bot made {bot_moves()} moves in 60 s\n{worker.output()[-3000:]}"
            if not answer_for(bot_game, 0):
                time.sleep(0.2)
        # beat's sweep: the overdue seats time out in the worker, mail or no mail
        tasks.sweep()
        wait_for(
            lambda: Event.objects.filter(game__in=overdue, kind=Event.Kind.TIMEOUT).count() >= 6,
            30,
            "every overdue seat to time out while the mail server hangs",
            worker,
        )
        during = time.monotonic() - t0
        assert Notification.objects.filter(status=SENT).count() == 0, "nothing could be sent"
        wait_for(lambda: Notification.objects.filter(status=FAILED).exists(), 30, "a send to time out", mailer)
        timed_out = Notification.objects.get(pk=Notification.objects.filter(status=FAILED).first().pk)
        assert "did not answer in 2 s" in timed_out.last_error and timed_out.next_attempt_at
        assert mailer.alive() and worker.alive()

        # the mail server answers again: the next sweeps send everything, each mail once
        smtp.answer()
        deadline = time.monotonic() + 90
        while not all_sent() and time.monotonic() < deadline:
            unsent_are_due_now()
            tasks.sweep()
            time.sleep(3)
        notes = wait_for(all_sent, 5, "every row to be sent once the server answers", mailer)
        assert smtp.notification_ids() == {n.pk: 1 for n in notes}, "each notification reached the server once"
        assert set(smtp.message_ids().values()) == {1}
        assert {n.message_id for n in notes} == set(smtp.message_ids())
        for game in [bot_game, *overdue]:
            assert not replay.rebuild_differs(Game.objects.get(pk=game.pk))
        timeouts = Event.objects.filter(game__in=overdue, kind=Event.Kind.TIMEOUT).count()
        assert timeouts == 6, "each overdue seat timed out once"
        print(
            f"\nSMTP hang: {bot_moves()} bot moves and {timeouts} timeouts in {during:.1f} s with the mail server "
            f"hung; then {len(notes)} mails sent, each once (Message-IDs unique)"
        )
    finally:
        worker.stop()
        mailer.stop()


def test_a_permanent_refusal_is_not_retried_and_marks_the_address_a_temporary_one_is(
    organiser, smtp, tmp_path, client, real_celery, own_queue
):
    smtp.handler.refuse = {
        "gone@example.com": "550 5.1.1 <gone@example.com>: no such mailbox",
        "full@example.com": "452 4.2.2 <full@example.com>: mailbox full, try later",
    }
    smtp.answer()
    mailer = start(tmp_path, smtp, own_queue, "mail")
    try:
        game = organise.create_game(
            organiser, "pebbles", "Refusals", {}, ["ana@example.com", "gone@example.com", "full@example.com"]
        )
        game = organise.start_game(game)

        def settled():
            rows = Notification.objects.filter(game=game)
            return rows.exists() and not rows.filter(status__in=[Notification.Status.PENDING, "sending"]).exists()

        wait_for(settled, 60, "every first mail to be tried", mailer)
        rows = {k: list(Notification.objects.filter(game=game, recipient=f"{k}@example.com")) for k in PEOPLE}
        assert {n.status for n in rows["ana"]} == {SENT}
        # 550: given up at once, the address marked, its later mail held without a try
        assert {n.status for n in rows["gone"]} == {GAVE_UP}
        assert smtp.handler.rcpt["gone@example.com"] == 1, "a 5xx address is asked once, never again"
        assert sum(n.attempts for n in rows["gone"]) == 1
        tried = next(n for n in rows["gone"] if n.attempts == 1)
        assert "550" in tried.last_error and "no such mailbox" in tried.last_error
        assert all("Not sent: mail to this address was refused" in n.last_error for n in rows["gone"] if n != tried)
        gone = User.objects.get(email="gone@example.com")
        assert gone.mail_refused_at is not None and "550" in gone.mail_refused_reason
        # 452: a temporary refusal keeps its backoff, and the address is not marked
        assert {n.status for n in rows["full"]} == {FAILED}
        assert all(n.next_attempt_at and n.next_attempt_at > timezone.now() for n in rows["full"])
        assert User.objects.get(email="full@example.com").mail_refused_at is None

        # the host sees it beside the seat; the player is told on their seat page and clears it
        client.force_login(organiser)
        host_page = client.get(reverse("game-detail", args=[game.pk])).content.decode()
        assert "mail refused" in host_page
        seat = game.seats.get(index=1)
        visitor = Client()
        page = visitor.get(reverse("seat", args=[links.token_for(seat)])).content.decode()
        assert "We have stopped emailing you" in page and "550 5.1.1" in page
        visitor.post(reverse("seat-mail-works", args=[links.token_for(seat)]))
        assert User.objects.get(email="gone@example.com").mail_refused_at is None
        print(
            f"\nSMTP 5xx: gone@ asked {smtp.handler.rcpt['gone@example.com']} time, "
            f"{len(rows['gone'])} rows given up; full@ (452) rows waiting to retry: {len(rows['full'])}"
        )
    finally:
        mailer.stop()


def test_a_mailer_killed_between_sending_and_recording_sends_again_with_the_same_message_id(
    organiser, smtp, tmp_path, every_sweep_dispatches, real_celery, own_queue
):
    smtp.answer()
    mailer = start(tmp_path, smtp, own_queue, "mail")
    killed = []
    real_data = smtp.handler.handle_DATA

    async def kill_on_first_mail(server, session, envelope):
        reply = await real_data(server, session, envelope)
        if not killed:  # the server has the message; its sender dies before it hears 250
            killed.append(mailer.proc.pid)
            os.kill(mailer.proc.pid, signal.SIGKILL)
        return reply

    smtp.handler.handle_DATA = kill_on_first_mail
    replacement = None
    try:
        game = organise.create_game(organiser, "pebbles", "Lost sender", {}, ["ana@example.com", "ben@example.com"])
        organise.start_game(game)
        wait_for(lambda: killed and not mailer.alive(), 30, "the mailer to be killed mid-send")
        stuck = Notification.objects.filter(status="sending")
        assert stuck.count() == 1, "the row being sent stays claimed: nothing says it was sent"
        stuck_pk = stuck.get().pk

        replacement = start(tmp_path, smtp, own_queue, "mail")
        deadline = time.monotonic() + 60
        while not all_sent() and time.monotonic() < deadline:
            unsent_are_due_now()  # its lease is over
            tasks.sweep()
            time.sleep(2)
        notes = wait_for(all_sent, 5, "every row to be sent", replacement)
        copies = smtp.notification_ids()
        assert copies[stuck_pk] == 2, "at least once: the lost send is sent again"
        assert all(copies[n.pk] == 1 for n in notes if n.pk != stuck_pk)
        ids = smtp.message_ids()
        note = Notification.objects.get(pk=stuck_pk)
        assert ids[mail.message_id(note)] == 2, "both copies carry one Message-ID, so the repeat can be dropped"
        assert len(ids) == len(notes), "one Message-ID per notification"
    finally:
        mailer.stop()
        if replacement is not None:
            replacement.stop()
