"""Mail faults (issue 22): permanent and temporary refusals, a stable Message-ID, a send that holds
no transaction, a batch that stops at an unreachable server, addresses that refuse mail (marked by
a send or by an ESP's bounce webhook, told to the player and the host, cleared by the player), and
one seat per person when a host replaces a player."""

from __future__ import annotations

import base64
import json
import smtplib

import pytest
from anymail.exceptions import AnymailAPIError, AnymailRecipientsRefused
from django.core import mail as django_mail
from django.core.mail.backends.locmem import EmailBackend
from django.db import connection
from django.urls import reverse

from accounts.models import User
from games import links, mail, tasks
from games.actions import organise
from games.actions.write import SubmitError
from games.channels import outbox
from games.models import Notification, Seat

pytestmark = pytest.mark.django_db(transaction=True)

SENT, FAILED, GAVE_UP = Notification.Status.SENT, Notification.Status.FAILED, Notification.Status.GAVE_UP
NO_SUCH_MAILBOX = smtplib.SMTPRecipientsRefused({"ben@example.com": (550, b"5.1.1 no such mailbox")})


def _refusing(monkeypatch, error: Exception, only: str = "ben@example.com") -> None:
    real = EmailBackend.send_messages

    def send(self, messages):
        if any(only in m.to for m in messages):
            raise error
        return real(self, messages)

    monkeypatch.setattr(EmailBackend, "send_messages", send)


@pytest.mark.parametrize(
    ("error", "permanent", "refused", "unreachable"),
    [
        (NO_SUCH_MAILBOX, True, True, False),
        (smtplib.SMTPRecipientsRefused({"a@b.c": (450, b"4.2.1 try later")}), False, False, False),
        (smtplib.SMTPDataError(554, b"5.1.1 mailbox disabled"), True, True, False),
        (smtplib.SMTPDataError(554, b"5.7.1 message refused as spam"), True, False, False),
        (smtplib.SMTPDataError(451, b"4.3.0 try again"), False, False, False),
        (smtplib.SMTPSenderRefused(550, b"not our relay", "turns@localhost"), False, False, False),
        (smtplib.SMTPServerDisconnected("Connection unexpectedly closed: timed out"), False, False, True),
        (TimeoutError("timed out"), False, False, True),
        (ConnectionRefusedError(111, "Connection refused"), False, False, True),
        (AnymailRecipientsRefused("all refused"), True, True, False),
        (AnymailAPIError("bad request", status_code=422), True, False, False),
        (AnymailAPIError("slow down", status_code=429), False, False, False),
        (AnymailAPIError("ESP down", status_code=503), False, False, False),
    ],
)
def test_each_failure_is_classified_as_permanent_or_temporary(error, permanent, refused, unreachable):
    failure = mail.classify(error)
    assert (failure.permanent, failure.refused_address, failure.unreachable) == (permanent, refused, unreachable)
    assert failure.reason


def test_a_5xx_refusal_is_given_up_at_once_marks_the_address_and_holds_its_later_mail(make_game, monkeypatch):
    _refusing(monkeypatch, NO_SUCH_MAILBOX)
    game = make_game()
    ben = Notification.objects.filter(game=game, recipient="ben@example.com")
    assert {n.status for n in ben} == {GAVE_UP}
    assert sum(n.attempts for n in ben) == 1, "a permanent refusal is never retried, and later mail is held"
    assert all(n.next_attempt_at is None for n in ben)
    held = [n for n in ben if n.attempts == 0]
    assert held and all(n.last_error.startswith("Not sent: mail to this address was refused for good") for n in held)
    assert User.objects.get(email="ben@example.com").mail_refused_at is not None
    assert {n.status for n in Notification.objects.filter(recipient="ana@example.com")} == {SENT}
    # the sweep does not pick given-up rows up again
    Notification.objects.update(created_at="2000-01-01T00:00:00Z")
    assert tasks.sweep()["mail"] == 0


def test_a_temporary_refusal_keeps_its_backoff_and_marks_nothing(make_game, monkeypatch):
    _refusing(monkeypatch, smtplib.SMTPRecipientsRefused({"ben@example.com": (452, b"4.2.2 mailbox full")}))
    game = make_game()
    ben = Notification.objects.filter(game=game, recipient="ben@example.com")
    assert {n.status for n in ben} == {FAILED}
    assert all(n.next_attempt_at for n in ben)
    assert User.objects.get(email="ben@example.com").mail_refused_at is None


def test_mail_a_person_asks_for_goes_even_to_a_marked_address_and_signing_in_clears_the_mark(client, organiser):
    from accounts import bounces

    User.objects.for_email("ben@example.com")
    bounces.mark_refused("ben@example.com", "550 5.1.1 no such mailbox")
    client.post(reverse("sign-in"), {"email": "ben@example.com"})
    sign_in = Notification.objects.get(kind=Notification.Kind.SIGN_IN)
    assert sign_in.status == SENT, "a sign-in link is sent: the person says the address works"
    link = next(w for w in django_mail.outbox[-1].body.split() if "/sign-in/link/" in w)
    token = link.split("sesame=", 1)[1] if "sesame=" in link else link.rsplit("=", 1)[1]
    client.post(reverse("sign-in-link"), {"sesame": token})
    assert User.objects.get(email="ben@example.com").mail_refused_at is None, "the link arrived: mail works"


def test_the_player_is_told_on_their_seat_page_and_home_and_may_say_it_works(make_game, client, monkeypatch):
    _refusing(monkeypatch, NO_SUCH_MAILBOX)
    game = make_game()
    seat = game.seats.get(index=1)
    page = client.get(reverse("seat", args=[links.token_for(seat)])).content.decode()
    assert "We have stopped emailing you" in page and "550 5.1.1 no such mailbox" in page
    other = client.get(reverse("seat", args=[links.token_for(game.seats.get(index=0))])).content.decode()
    assert "We have stopped emailing you" not in other, "another seat's player is not told of it"
    client.force_login(User.objects.get(email="ben@example.com"))
    assert "We have stopped emailing you" in client.get(reverse("home")).content.decode()
    client.post(reverse("seat-mail-works", args=[links.token_for(seat)]))
    assert User.objects.get(email="ben@example.com").mail_refused_at is None
    assert "We have stopped emailing you" not in client.get(reverse("home")).content.decode()


def test_the_host_and_the_admin_see_a_refusing_address(make_game, client, organiser, monkeypatch):
    _refusing(monkeypatch, NO_SUCH_MAILBOX)
    game = make_game()
    client.force_login(organiser)
    assert "mail refused" in client.get(reverse("game-detail", args=[game.pk])).content.decode()
    organiser.is_superuser = True
    organiser.save()
    admin_page = client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert "refused (" in admin_page and "550" in admin_page


def test_an_esps_bounce_webhook_marks_the_address(client, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "postmark:track-s3cret"}
    User.objects.for_email("ben@example.com")
    auth = "Basic " + base64.b64encode(b"postmark:track-s3cret").decode()
    bounce = {
        "RecordType": "Bounce",
        "Type": "HardBounce",
        "TypeCode": 1,
        "MessageID": "883953f4-6105-42a2-a16a-77a8eac79483",
        "Email": "ben@example.com",
        "Description": "The server was unable to deliver your message (ex: unknown user, mailbox not found).",
        "Details": "smtp;550 5.1.1 The email account that you tried to reach does not exist.",
        "BouncedAt": "2026-11-25T12:00:00Z",
        "Inactive": True,
        "CanActivate": True,
    }
    url = "/anymail/postmark/tracking/"
    refused = client.post(url, json.dumps(bounce), content_type="application/json")
    assert refused.status_code in (400, 403) and User.objects.get(email="ben@example.com").mail_refused_at is None
    done = client.post(url, json.dumps(bounce), content_type="application/json", HTTP_AUTHORIZATION=auth)
    assert done.status_code == 200
    ben = User.objects.get(email="ben@example.com")
    assert ben.mail_refused_at is not None and ben.mail_refused_reason.startswith("Postmark: ")
    # a delivery event marks nothing
    User.objects.filter(pk=ben.pk).update(mail_refused_at=None)
    delivered = {
        "RecordType": "Delivery",
        "Recipient": "ben@example.com",
        "MessageID": "x",
        "DeliveredAt": "2026-11-25T12:00:00Z",
    }
    client.post(url, json.dumps(delivered), content_type="application/json", HTTP_AUTHORIZATION=auth)
    assert User.objects.get(email="ben@example.com").mail_refused_at is None


def test_every_row_has_one_message_id_on_every_try(make_game, monkeypatch):
    monkeypatch.setattr(tasks.send_notification, "delay", lambda pk: None)
    make_game()
    note = Notification.objects.filter(recipient="ana@example.com").first()
    _refusing(monkeypatch, TimeoutError("timed out"), only="ana@example.com")
    assert outbox.send(note.pk) == FAILED
    monkeypatch.undo()
    Notification.objects.filter(pk=note.pk).update(next_attempt_at=None)
    assert outbox.send(note.pk) == SENT
    sent = [m for m in django_mail.outbox if m.extra_headers["X-Cafe-Notification"] == str(note.pk)]
    assert len(sent) == 1 and sent[0].message().get("Message-ID") == mail.message_id(note)
    note.refresh_from_db()
    assert note.message_id == mail.message_id(note) and note.attempts == 2
    assert mail.message_id(note) != mail.message_id(Notification.objects.exclude(pk=note.pk).first())


def test_a_send_holds_no_transaction_while_the_mail_server_is_asked(make_game, monkeypatch):
    seen = []
    real = EmailBackend.send_messages

    def send(self, messages):
        seen.append(connection.in_atomic_block)
        return real(self, messages)

    monkeypatch.setattr(EmailBackend, "send_messages", send)
    make_game()
    assert seen and not any(seen), "no lock (on SQLite, no write lock for everyone) while a mail server answers"


def test_a_row_claimed_by_a_lost_sender_is_sent_again_once_its_lease_ends(make_game, monkeypatch):
    monkeypatch.setattr(tasks.send_notification, "delay", lambda pk: None)
    make_game()
    note = Notification.objects.first()
    claimed = outbox._claim(note.pk)  # the sender dies here, after claiming
    assert claimed.status == Notification.Status.SENDING
    assert outbox.send(note.pk) == Notification.Status.SENDING, "not sent twice while its lease runs"
    Notification.objects.filter(pk=note.pk).update(next_attempt_at="2000-01-01T00:00:00Z")
    Notification.objects.exclude(pk=note.pk).update(status=SENT)
    assert tasks.sweep()["mail"] == 1
    note.refresh_from_db()
    assert note.status == SENT and note.attempts == 2


def test_a_batch_stops_at_the_first_unreachable_server(make_game, monkeypatch):
    monkeypatch.setattr(tasks.send_notification, "delay", lambda pk: None)
    make_game()
    calls = []

    def hung(self, messages):
        calls.append(1)
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed: timed out")

    monkeypatch.setattr(EmailBackend, "send_messages", hung)
    pks = list(Notification.objects.values_list("pk", flat=True))
    assert outbox.send_many(pks) == 0
    assert len(calls) == 1, "one timeout for the batch, not one per row"
    assert Notification.objects.filter(status=Notification.Status.PENDING).count() == len(pks) - 1


def test_the_sweep_queues_mail_and_never_sends_it_itself(make_game, monkeypatch):
    monkeypatch.setattr(tasks.send_notification, "delay", lambda pk: None)
    make_game()
    queued = []
    monkeypatch.setattr(tasks.send_notifications, "delay", lambda pks: queued.append(list(pks)))
    Notification.objects.update(created_at="2000-01-01T00:00:00Z")
    assert tasks.sweep()["mail"] == 4
    assert sorted(sum(queued, [])) == sorted(Notification.objects.values_list("pk", flat=True))
    assert tasks.sweep()["mail"] == 0, "rows just queued are not queued again at once"


def test_mail_tasks_take_the_mail_queue(settings):
    from config.celery import route_task

    settings.CELERY_MAIL_QUEUE = "mail"
    assert route_task("games.tasks.send_notification", (), {}, {}) == {"queue": "mail"}
    assert route_task("games.tasks.send_notifications", (), {}, {}) == {"queue": "mail"}
    assert route_task("games.tasks.time_out_batch", (), {}, {}) is None


# --- one person, one seat ---------------------------------------------------------------------


def test_a_host_cannot_replace_a_player_with_someone_already_seated(make_game, client, organiser):
    game = make_game(seats=("ana@example.com", "ben@example.com", "cleo@example.com"))
    with pytest.raises(SubmitError, match="already plays .* one seat per person"):
        organise.replace_player(game.seats.get(index=2), "Ana@Example.com", reason="oops")
    assert game.seats.get(index=2).player.email == "cleo@example.com"
    client.force_login(organiser)
    url = reverse("game-act", args=[game.pk, "replace"])
    page = client.post(url, {"seat": "2", "email": "ben@example.com", "reason": "swap"}, follow=True)
    assert "one seat per person" in page.content.decode()
    assert [s.player.email for s in game.seats.order_by("index")] == [
        "ana@example.com",
        "ben@example.com",
        "cleo@example.com",
    ]


def test_the_admin_refuses_one_person_in_two_seats_of_a_draft(client, organiser):
    game = organise.create_game(organiser, "pebbles", "Draft", {}, ["ana@example.com", "ben@example.com"])
    organiser.is_superuser = True
    organiser.save()
    client.force_login(organiser)
    url = reverse("admin:games_game_change", args=[game.pk])
    seats = list(Seat.objects.filter(game=game).order_by("index"))
    ana = seats[0].player
    data = {
        "title": game.title,
        "name": game.name,
        "seats-TOTAL_FORMS": "2",
        "seats-INITIAL_FORMS": "2",
        "seats-MIN_NUM_FORMS": "0",
        "seats-MAX_NUM_FORMS": "1000",
    }
    for i, s in enumerate(seats):
        data |= {f"seats-{i}-id": str(s.pk), f"seats-{i}-game": str(game.pk), f"seats-{i}-index": str(i)}
        data[f"seats-{i}-player"] = str(ana.pk)
    page = client.post(url, data)
    assert "one seat per person" in page.content.decode()
    assert Seat.objects.get(pk=seats[1].pk).player.email == "ben@example.com"
