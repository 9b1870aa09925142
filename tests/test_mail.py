"""The outbox: rows written with their cause, sent once, failures kept and retried with backoff."""

from __future__ import annotations

import pytest
from django.core import mail as django_mail

from games import tasks
from games.channels import outbox
from games.models import Notification

pytestmark = pytest.mark.django_db(transaction=True)


class Boom(Exception):
    pass


@pytest.fixture
def failing_backend(monkeypatch):
    def fail(self, messages):
        raise Boom("ESP is down")

    monkeypatch.setattr("django.core.mail.backends.locmem.EmailBackend.send_messages", fail)


def test_a_failed_send_is_kept_with_its_error_and_a_next_try(make_game, failing_backend):
    make_game()
    notes = Notification.objects.all()
    assert notes and all(n.status == Notification.Status.FAILED for n in notes)
    note = notes.first()
    assert "ESP is down" in note.last_error and note.attempts >= 1 and note.next_attempt_at


def test_an_outage_loses_nothing_each_row_is_sent_once_when_it_ends(make_game, monkeypatch):
    from django.core.mail.backends.locmem import EmailBackend

    real = EmailBackend.send_messages
    monkeypatch.setattr(EmailBackend, "send_messages", lambda self, m: (_ for _ in ()).throw(Boom("down")))
    make_game()
    assert Notification.objects.filter(status="sent").count() == 0
    monkeypatch.setattr(EmailBackend, "send_messages", real)
    Notification.objects.update(next_attempt_at=None, created_at="2000-01-01T00:00:00Z")
    result = tasks.sweep()
    assert result["mail"] == 4
    assert Notification.objects.filter(status="sent").count() == 4
    assert len(django_mail.outbox) == 4
    tasks.sweep()
    assert len(django_mail.outbox) == 4, "a sent row is never sent again"


def test_sending_a_row_twice_sends_it_once(make_game):
    make_game()
    note = Notification.objects.first()
    count = len(django_mail.outbox)
    assert outbox.send(note.pk) == "sent"
    assert len(django_mail.outbox) == count


def test_a_broker_outage_at_commit_loses_no_mail(make_game, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(tasks.send_notification, "delay", lambda pk: (_ for _ in ()).throw(ConnectionError("broker down")))
        game = make_game()
    assert game.status == "active", "the move is kept even when the queue is unreachable"
    assert Notification.objects.filter(status="pending").count() == 4
    Notification.objects.update(created_at="2000-01-01T00:00:00Z")
    assert tasks.sweep()["mail"] == 4
    assert Notification.objects.filter(status="sent").count() == 4


def test_backoff_grows_and_is_capped():
    assert [outbox.backoff_seconds(n) for n in (1, 2, 3, 7, 20)] == [30, 60, 120, 1920, 1920]


def test_your_move_email_has_text_and_html_and_a_link(make_game):
    make_game()
    m = next(m for m in django_mail.outbox if m.subject.startswith("Your move"))
    html = m.alternatives[0][0]
    assert "http://testserver/play/" in m.body and "http://testserver/play/" in html
    assert "Hide a secret number" in m.body and "<svg" not in html


def _held_back(monkeypatch) -> None:
    """Rows are written but not sent (as while the worker is busy or the broker is down)."""
    monkeypatch.setattr(tasks.send_notification, "delay", lambda pk: None)


def test_a_row_is_written_with_its_content_frozen_and_rendered_by_the_sender(clocked, monkeypatch):
    from games import links

    _held_back(monkeypatch)
    game = clocked()
    row = Notification.objects.filter(game=game, kind="your_move", seat__index=0).get()
    assert row.body_text == "" and row.template == "your_move"
    assert row.context["prompt"]["text"] == "Hide a secret number"
    assert row.context["view"] == game.engine.view(game.state, 0), "the seat's own view, nothing more"

    monkeypatch.undo()
    assert outbox.send(row.pk) == Notification.Status.SENT
    row.refresh_from_db()
    assert "Hide a secret number" in row.body_text and "<svg" not in row.body_html
    seat, kind, version, _ = links.read_reply_address(row.headers["Reply-To"])
    assert (seat.pk, kind, version) == (row.seat_id, "a", game.version)
    assert row.ics.startswith("BEGIN:VCALENDAR") and "DTSTART:" in row.ics, "the deadline, as a calendar file"
    assert row.context == {}, "rendered once; the bodies are kept, the context goes"
    sent = next(m for m in django_mail.outbox if m.extra_headers.get("X-Cafe-Notification") == str(row.pk))
    assert sent.body == row.body_text and sent.reply_to == [row.headers["Reply-To"]]


def test_an_email_sent_after_its_seat_changed_hands_carries_no_working_link(make_game, monkeypatch, client):
    from games.actions import organise
    from games.models import Seat

    _held_back(monkeypatch)
    game = make_game()
    row = Notification.objects.get(game=game, kind="your_move", seat__index=0)
    organise.replace_player(Seat.objects.get(game=game, index=0), "cleo@example.com", reason="Ana left")
    monkeypatch.undo()
    outbox.send(row.pk)
    row.refresh_from_db()
    link = next(w for w in row.body_text.split() if "/play/" in w).replace("http://testserver", "")
    page = client.get(link)
    assert page.status_code == 403 and "replaced by a newer one" in page.content.decode()


def test_the_admin_shows_an_unsent_row_as_its_reader_will_get_it(make_game, monkeypatch, client, organiser):
    from django.urls import reverse

    _held_back(monkeypatch)
    game = make_game()
    row = Notification.objects.filter(game=game, kind="your_move").first()
    organiser.is_superuser = True
    organiser.save()
    client.force_login(organiser)
    page = client.get(reverse("admin:games_notification_change", args=[row.pk])).content.decode()
    assert "Hide a secret number" in page
    row.refresh_from_db()
    assert row.body_text == "", "looking at a row does not change it"
