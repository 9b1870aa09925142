"""Push through the whole path: a wait starts in the write path, the fan-out writes a push row for
each of the person's devices, the outbox sends it after commit, and the push service on 127.0.0.1
receives a ping that only that browser can read, naming the game and linking to that seat alone."""

from __future__ import annotations

import json

import pytest

from accounts.models import User
from games import links
from games.actions import play
from games.models import Notification, PushDevice
from tests.channels.test_push import device_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_wait_reaches_the_persons_device_once_with_their_own_seat_link(make_game, service):
    game = make_game(start=False)
    ben = User.objects.get(email="ben@example.com")
    device, browser = device_of(ben, service)
    from games.actions import organise

    organise.start_game(game)
    game.refresh_from_db()
    # Pebbles opens with both seats hiding a number at once: each seat's wait starts now
    seat = game.seats.get(player=ben)
    rows = Notification.objects.filter(channel="push", seat=seat)
    assert rows.count() == 1 and rows.get().status == Notification.Status.SENT
    [got] = service.received
    shown = json.loads(browser.decrypt(got.body))
    assert links.seat_from_token(shown["url"].rstrip("/").rsplit("/", 1)[1]).pk == seat.pk
    assert "Test table" in shown["title"] + shown["body"]
    # Ana's own answer does not ping Ben again while he still owes his
    play.submit(game.pk, 0, 1, None, via="web")
    assert rows.count() == 1 and len(service.received) == 1
    device.refresh_from_db()
    assert device.last_used_at is not None


def test_a_gone_subscription_is_turned_off_through_the_outbox_and_nothing_else_stops(make_game, service):
    service.status = 410
    game = make_game(start=False)
    ben = User.objects.get(email="ben@example.com")
    device, _ = device_of(ben, service)
    from games.actions import organise

    organise.start_game(game)
    row = Notification.objects.get(channel="push", seat__player=ben)
    assert row.status == Notification.Status.GAVE_UP
    device.refresh_from_db()
    assert device.disabled_at is not None and "gone" in device.disabled_reason
    assert Notification.objects.filter(channel="email", seat__player=ben, status="sent").exists(), "mail still went"
    assert not PushDevice.objects.filter(user=ben, disabled_at__isnull=True).exists()
