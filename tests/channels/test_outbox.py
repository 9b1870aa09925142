"""The outbox with a chat channel: retries with backoff, a permanent refusal turns the hook off and
its owner is told on their profile, a worker that dies between sending and recording sends again
with the same idempotency key, a hook turned off gives its rows up, and an unreachable webhook
holds up no other row of a batch."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games import tasks
from games.channels import outbox
from games.channels.ping import idempotency_key
from games.models import ChatHook, Notification

pytestmark = pytest.mark.django_db

SENT, FAILED, GAVE_UP = Notification.Status.SENT, Notification.Status.FAILED, Notification.Status.GAVE_UP


@pytest.fixture
def pinged(make_game, hook_server, monkeypatch):
    """A started game in which Ana's JSON webhook (on the test server) has its ping row, not yet sent."""
    monkeypatch.setattr(tasks.send_notification, "delay", lambda pk: None)
    game = make_game(start=False)
    ana = User.objects.get(email="ana@example.com")
    hook = ChatHook.objects.create(owner=ana, format="json", url=hook_server.url("/hook/s3cret"))
    from games.actions import organise

    organise.start_game(game)
    row = Notification.objects.get(channel="chat")
    return row, hook


def test_a_500_then_a_200_delivers_once(pinged, hook_server):
    row, hook = pinged
    hook_server.plan = [(500, {})]
    assert outbox.send(row.pk) == FAILED
    row.refresh_from_db()
    hook.refresh_from_db()
    assert row.next_attempt_at > timezone.now() and "500" in row.last_error and hook.enabled
    assert "500" in hook.last_error, "its owner sees the last try"
    assert outbox.send(row.pk) == SENT
    assert outbox.send(row.pk) == SENT, "a second call sends nothing"
    assert len(hook_server.received) == 2 and hook_server.received[1].json()["title"].startswith("Your move")
    hook.refresh_from_db()
    assert hook.last_error == ""


@pytest.mark.parametrize("status", [410, 404, 403])
def test_a_gone_webhook_gives_up_turns_the_hook_off_and_tells_its_owner(pinged, hook_server, client, status):
    row, hook = pinged
    hook_server.plan = [(status, {})]
    assert outbox.send(row.pk) == GAVE_UP
    hook.refresh_from_db()
    assert not hook.enabled and str(status) in hook.disabled_reason
    client.force_login(hook.owner)
    page = client.get("/me/").content.decode()
    assert "Turned off:" in page and str(status) in page
    assert "s3cret" not in page and hook.masked_url in page


def test_a_worker_dying_between_send_and_record_sends_again_with_the_same_key(pinged, hook_server):
    row, hook = pinged
    claimed = outbox._claim(row.pk)
    from games.channels import CHANNELS

    CHANNELS["chat"].deliver(claimed, hook)  # sent; the worker dies before recording it
    assert outbox.send(row.pk) == Notification.Status.SENDING, "not sent twice while its lease runs"
    Notification.objects.filter(pk=row.pk).update(next_attempt_at=timezone.now() - timedelta(seconds=1))
    Notification.objects.exclude(pk=row.pk).update(status=SENT)
    assert tasks.sweep()["mail"] == 1
    row.refresh_from_db()
    assert row.status == SENT and row.attempts == 2
    keys = [r.json()["key"] for r in hook_server.received]
    assert keys == [idempotency_key(row)] * 2, "the repeat carries the same key, so the far end can drop it"


def test_a_hook_turned_off_gives_its_waiting_rows_up(pinged, hook_server):
    row, hook = pinged
    ChatHook.objects.filter(pk=hook.pk).update(enabled=False)
    assert outbox.send(row.pk) == GAVE_UP
    assert hook_server.received == []


def test_an_unreachable_webhook_holds_up_no_email_of_the_batch(pinged, hook_server, monkeypatch):
    row, hook = pinged
    hook_server.hang.set()
    from games.channels import safe_http

    real = safe_http.post
    monkeypatch.setattr(safe_http, "post", lambda url, body, headers: real(url, body, headers, connect=0.3, read=0.3))
    pks = list(Notification.objects.order_by("pk").values_list("pk", flat=True))
    assert outbox.send_many(pks) == len(pks) - 1, "every email of the batch went"
    row.refresh_from_db()
    assert row.status == FAILED and "did not answer" in row.last_error and "s3cret" not in row.last_error
