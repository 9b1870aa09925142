"""Stored replies (games.mailin.store): kept before they are acknowledged, handled once whatever dies when."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import inbound
from games.mailin import store
from games.models import Event, InboundMail
from tests.mailin.replies import ANA, reply_mime
from tests.test_inbound import problems, reply_to_of, snapshot

pytestmark = pytest.mark.django_db(transaction=True)


def kept(raw: bytes, to: str, **fields) -> InboundMail:
    return store.store(raw, "smtp", ANA, [to], "127.0.0.1", **fields)


def answers(game) -> list:
    return [e.payload["answer"] for e in Event.objects.filter(game=game, kind=Event.Kind.ANSWER)]


def test_a_reply_whose_handler_died_mid_way_is_handled_once_its_lease_ends(make_game):
    game = make_game()
    address = reply_to_of(ANA)
    mail = kept(reply_mime(address, ANA, "2"), address)
    now = timezone.now()
    InboundMail.objects.filter(pk=mail.pk).update(status="handling", claimed_until=now + store.LEASE, attempts=1)

    assert store.handle_leftovers(now) == 0, "another process holds its lease"
    assert store.handle_leftovers(now + store.LEASE * 2) == 1
    assert store.handle_leftovers(now + store.LEASE * 3) == 0
    assert answers(game) == [2]


def test_a_handler_that_outlived_its_lease_keeps_nothing_of_its_own(make_game, monkeypatch):
    game = make_game()
    before = snapshot(game)
    address = reply_to_of(ANA)
    mail = kept(reply_mime(address, ANA, "2"), address)
    read = inbound.read

    def slow_read(message):
        outcome = read(message)
        # meanwhile its lease ran out and another process claimed the row
        InboundMail.objects.filter(pk=mail.pk).update(claimed_until=timezone.now() + timedelta(hours=1))
        return outcome

    monkeypatch.setattr(inbound, "read", slow_read)
    assert store.handle(mail.pk) is None
    assert snapshot(game) == before, "its writes were rolled back: the other process's handling counts"


def test_a_reader_that_keeps_failing_is_given_up_after_its_attempts(make_game, monkeypatch):
    game = make_game()
    address = reply_to_of(ANA)
    mail = kept(reply_mime(address, ANA, "2"), address)
    monkeypatch.setattr(inbound, "read", lambda message: 1 / 0)
    later = timezone.now()
    for _ in range(store.MAX_ATTEMPTS):
        later += timedelta(days=1)
        assert store.handle(mail.pk, later) == "failed"
    mail.refresh_from_db()
    assert (mail.status, mail.attempts) == ("gave_up", store.MAX_ATTEMPTS) and "ZeroDivisionError" in mail.last_error
    assert store.handle_leftovers(later + timedelta(days=30)) == 0, "given up: kept for an organiser, not retried"
    assert not answers(game)


def test_a_copy_with_a_message_id_already_kept_is_never_handled():
    raw = reply_mime("x@reply.example.org", ANA, "2", message_id="<once@mail.example.com>")
    first, second = kept(raw, "x@reply.example.org"), kept(raw, "x@reply.example.org")
    assert (first.status, second.status, second.result) == ("received", "duplicate", "duplicate")
    assert store.handle(second.pk) is None


def test_an_address_header_too_long_to_parse_quickly_is_refused_unread(make_game):
    game = make_game()
    before = snapshot(game)
    address = reply_to_of(ANA)
    raw = reply_mime(address, ANA, "2", headers=(("Cc", "ab " * 3000),))
    mail = kept(raw, address)
    assert store.handle(mail.pk) == "malformed"
    assert snapshot(game) == before and not problems(ANA)


def test_handled_replies_are_forgotten_after_the_keeping_days_and_nothing_else(settings, make_game):
    settings.REPLY_MAIL_KEEP_DAYS = 30
    make_game()
    address = reply_to_of(ANA)
    old = timezone.now() - timedelta(days=31)
    handled = kept(reply_mime(address, ANA, "2"), address)
    store.handle(handled.pk)
    waiting = kept(reply_mime(address, ANA, "3"), address)
    in_inbox = store.store(b"Subject: x\r\n\r\nx", "imap", "", [], "turns@example.org", mailbox_key="k:1:1")
    InboundMail.objects.filter(pk=in_inbox.pk).update(status="handled")
    InboundMail.objects.update(received_at=old)
    recent = kept(reply_mime(address, ANA, "1"), address)
    InboundMail.objects.filter(pk=recent.pk).update(status="handled")

    assert store.purge() == 1
    assert set(InboundMail.objects.values_list("pk", flat=True)) == {waiting.pk, in_inbox.pk, recent.pk}
