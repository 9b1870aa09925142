"""Replies through an ordinary mailbox (REPLY_IMAP_URL): a real Dovecot on 127.0.0.1, read with imap-tools.

The reply addresses become plus-addresses of the mailbox; each message is stored, handled by the
one reply reader, then moved to the processed folder, so nothing is read twice and a worker that
dies between any two of those steps loses nothing and answers nothing twice.
"""

from __future__ import annotations

import importlib
import logging

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import CommandError, call_command
from imap_tools import BaseMailBox

from games import links, tasks
from games.mailin import mailbox, store
from games.models import Event, InboundMail, Seat
from tests.mailin.conftest import MAILBOX, REPLY_DOMAIN
from tests.mailin.replies import ANA, BEN, reply_mime
from tests.test_inbound import gmail, problems, reply_to_of, snapshot

pytestmark = pytest.mark.django_db(transaction=True)


class Died(BaseException):
    """The worker dies here (not an error the code could catch: the process is gone)."""


@pytest.fixture
def mailbox_url(dovecot, settings):
    settings.REPLY_IMAP_URL = dovecot.url(processed="Processed")
    return settings.REPLY_IMAP_URL


def answers(game) -> list[Event]:
    return list(Event.objects.filter(game=game, kind=Event.Kind.ANSWER))


def test_reply_addresses_are_plus_addresses_of_the_mailbox_and_both_forms_are_read(mailbox_url, make_game):
    game = make_game()
    address = reply_to_of(ANA)
    assert address.startswith("turns+a-") and address.endswith("@example.org")
    seat, kind, version, _ = links.read_reply_address(address)
    assert (seat.pk, kind, version) == (Seat.objects.get(game=game, index=0).pk, "a", game.version)
    domain_form = links.canonical_reply_address(address)
    assert domain_form.startswith("play+a-") and domain_form.endswith(f"@{REPLY_DOMAIN}")
    assert links.read_reply_address(domain_form)[0].pk == seat.pk, "an email sent before the change still works"
    assert links.read_reply_address(address.upper())[0].pk == seat.pk, "mail systems may fold the case"
    assert links.read_reply_address(address.replace("turns+", "other+")) is None
    assert links.read_reply_address(address.replace("@example.org", "@evil.example")) is None


def test_a_reply_in_the_mailbox_plays_the_move_and_is_moved_to_the_processed_folder(dovecot, mailbox_url, make_game):
    game = make_game()
    address = reply_to_of(ANA)
    dovecot.deliver(reply_mime(address, f"Ana Lima <{ANA}>", gmail("2"), headers=(("Return-Path", f"<{ANA}>"),)))

    counts = mailbox.run()

    assert (counts["read"], counts["stored"], counts["handled"], counts["moved"]) == (1, 1, 1, 1)
    [event] = answers(game)
    assert (event.seat, event.via, event.payload["answer"]) == (0, "email", 2)
    mail = InboundMail.objects.get()
    assert (mail.source, mail.status, mail.result, mail.envelope_from) == ("imap", "handled", "played", ANA)
    assert mail.mailbox_key.count(":") == 2 and mail.moved_at is not None
    assert (dovecot.count("INBOX"), dovecot.count("Processed")) == (0, 1)
    assert not problems(ANA)

    assert mailbox.run()["read"] == 0, "nothing is read twice"
    assert len(answers(game)) == 1


def test_a_reply_from_another_sender_is_refused_as_the_webhook_refuses_it(dovecot, mailbox_url, make_game):
    game = make_game()
    before = snapshot(game)
    dovecot.deliver(reply_mime(reply_to_of(ANA), BEN, "2"))
    mailbox.run()
    assert snapshot(game) == before
    [m] = problems(BEN)
    assert "not sent from the address" in m.body and "Test table" not in m.body
    assert dovecot.count("Processed") == 1


def test_mail_that_is_not_a_reply_is_moved_and_answered_by_nobody(dovecot, mailbox_url, make_game):
    game = make_game()
    before = snapshot(game)
    dovecot.deliver(reply_mime(MAILBOX, "newsletter@example.net", "Our offers"))
    dovecot.deliver(reply_mime(reply_to_of(ANA), ANA, "I am away", headers=(("Auto-Submitted", "auto-replied"),)))
    dovecot.deliver(
        reply_mime(reply_to_of(ANA), "mailer-daemon@example.net", "bounce", headers=(("Return-Path", "<>"),))
    )
    mailbox.run()
    assert snapshot(game) == before and not problems(ANA) and not problems("newsletter@example.net")
    assert sorted(InboundMail.objects.values_list("result", flat=True)) == ["automatic", "automatic", "not_ours"]
    assert (dovecot.count("INBOX"), dovecot.count("Processed")) == (0, 3)


def test_a_worker_that_died_after_storing_leaves_it_to_the_next_poll_which_handles_it_once(
    dovecot, mailbox_url, make_game, monkeypatch
):
    game = make_game()
    dovecot.deliver(reply_mime(reply_to_of(ANA), ANA, "1"))
    with monkeypatch.context() as died:
        died.setattr(store, "handle", lambda pk, now=None: (_ for _ in ()).throw(Died()))
        with pytest.raises(Died):
            mailbox.run()
    assert InboundMail.objects.get().status == "received" and not answers(game)
    assert dovecot.count("INBOX") == 1, "not moved: it is not done"

    counts = mailbox.run()

    assert (counts["leftovers"], counts["stored"], counts["handled"], counts["moved"]) == (1, 0, 0, 1), (
        "the stored row is handled (before the poll) and then only moved: no second row"
    )
    assert [e.payload["answer"] for e in answers(game)] == [1]
    assert InboundMail.objects.count() == 1 and (dovecot.count("INBOX"), dovecot.count("Processed")) == (0, 1)


def test_a_worker_that_died_after_handling_leaves_it_to_be_moved_without_handling_it_again(
    dovecot, mailbox_url, make_game, monkeypatch
):
    game = make_game()
    dovecot.deliver(reply_mime(reply_to_of(ANA), ANA, "3"))
    dovecot.deliver(reply_mime(reply_to_of(BEN), BEN, "9"))  # refused: Ben is told once, not twice
    with monkeypatch.context() as died:
        died.setattr(BaseMailBox, "move", lambda *a, **k: (_ for _ in ()).throw(Died()))
        with pytest.raises(Died):
            mailbox.run()
    assert [e.payload["answer"] for e in answers(game)] == [3]
    assert dovecot.count("INBOX") == 2

    counts = mailbox.run()

    assert (counts["read"], counts["stored"], counts["handled"], counts["moved"]) == (2, 1, 1, 2)
    assert [e.payload["answer"] for e in answers(game)] == [3], "recognised and moved, not played again"
    assert len(problems(BEN)) == 1 and not problems(ANA), "no 'already answered' for the first"
    assert (dovecot.count("INBOX"), dovecot.count("Processed")) == (0, 2)
    assert all(m.moved_at for m in InboundMail.objects.all())


def test_the_same_message_delivered_twice_is_handled_once(dovecot, mailbox_url, make_game):
    game = make_game()
    raw = reply_mime(reply_to_of(ANA), ANA, "2", message_id="<one-reply@mail.example.com>")
    dovecot.deliver(raw)
    dovecot.deliver(raw)  # a second UID (or a rebuilt mailbox: a new UIDVALIDITY), the same Message-ID
    counts = mailbox.run()
    assert (counts["read"], counts["stored"], counts["moved"]) == (2, 1, 2)
    assert len(answers(game)) == 1 and not problems(ANA)


def test_a_message_over_the_size_limit_is_kept_as_its_headers_and_moved(dovecot, mailbox_url, make_game, settings):
    settings.REPLY_MAIL_MAX_BYTES = 5_000
    game = make_game()
    before = snapshot(game)
    dovecot.deliver(reply_mime(reply_to_of(ANA), ANA, "2\n" + "x" * 20_000))
    counts = mailbox.run()
    assert counts["too_large"] == 1 and counts["moved"] == 1
    mail = InboundMail.objects.get()
    assert mail.result == "too_large" and len(bytes(mail.raw)) < 5_000 and b"Message-ID" in bytes(mail.raw)
    assert snapshot(game) == before


def test_a_message_whose_size_the_server_did_not_say_is_cut_at_the_limit(
    dovecot, mailbox_url, make_game, settings, monkeypatch
):
    settings.REPLY_MAIL_MAX_BYTES = 5_000
    monkeypatch.setattr(mailbox.RawMessage, "size_rfc822", 0)  # as a server that sends no RFC822.SIZE
    game = make_game()
    before = snapshot(game)
    dovecot.deliver(reply_mime(reply_to_of(ANA), ANA, "2\n" + "x" * 20_000))
    assert mailbox.run()["too_large"] == 1
    mail = InboundMail.objects.get()
    assert (mail.result, len(bytes(mail.raw))) == ("too_large", 5_000)
    assert snapshot(game) == before and dovecot.count("INBOX") == 0


def test_the_batch_bounds_one_poll(dovecot, settings, make_game):
    settings.REPLY_IMAP_URL = dovecot.url(processed="Done", batch="2")
    make_game()
    for n in range(3):
        dovecot.deliver(reply_mime(MAILBOX, "someone@example.net", f"mail {n}"))
    assert mailbox.run()["read"] == 2 and mailbox.run()["read"] == 1
    assert dovecot.count("Done") == 3


def test_the_beat_task_reads_the_mailbox_and_a_mailbox_out_of_reach_is_only_logged(
    dovecot, mailbox_url, make_game, settings, caplog
):
    game = make_game()
    dovecot.deliver(reply_mime(reply_to_of(ANA), ANA, "2"))
    assert tasks.read_reply_mailbox.apply().result["handled"] == 1  # as beat runs it, in this process
    assert len(answers(game)) == 1

    settings.REPLY_IMAP_URL = dovecot.url().replace(dovecot.password, "wrong-password")
    with caplog.at_level(logging.WARNING, logger="games.tasks"):
        assert tasks.read_reply_mailbox.apply().result == {"error": 1}
    assert "could not be read" in caplog.text and "wrong-password" not in caplog.text


def test_manage_py_poll_mailbox_reads_once_and_says_what_it_did(dovecot, mailbox_url, make_game, capsys):
    game = make_game()
    dovecot.deliver(reply_mime(reply_to_of(ANA), ANA, "2"))
    call_command("poll_mailbox")
    assert "handled 1" in capsys.readouterr().out and len(answers(game)) == 1


def test_manage_py_poll_mailbox_says_why_it_cannot_read(dovecot, settings):
    settings.REPLY_IMAP_URL = ""
    with pytest.raises(CommandError, match="REPLY_IMAP_URL is not set"):
        call_command("poll_mailbox")
    settings.REPLY_IMAP_URL = dovecot.url().replace(dovecot.password, "wrong-password")
    with pytest.raises(CommandError, match="could not be read") as refused:
        call_command("poll_mailbox")
    assert "wrong-password" not in str(refused.value)


@pytest.fixture
def settings_module(monkeypatch):
    """config/settings.py read again with REPLY_IMAP_URL set to a value (Django's own settings untouched)."""
    import config.settings as module

    def read(url: str):
        monkeypatch.setenv("REPLY_IMAP_URL", url)
        return importlib.reload(module)

    yield read
    monkeypatch.delenv("REPLY_IMAP_URL", raising=False)
    importlib.reload(module)


def test_beat_reads_the_mailbox_every_minute_only_when_one_is_set_and_a_bad_url_stops_the_start(settings_module):
    schedule = settings_module("imaps://turns%40example.org:pw@imap.example.org/INBOX").CELERY_BEAT_SCHEDULE
    assert schedule["read_reply_mailbox"]["task"] == "games.tasks.read_reply_mailbox"
    assert str(schedule["read_reply_mailbox"]["schedule"]) == str(schedule["sweep"]["schedule"]), "every minute"
    assert "read_reply_mailbox" not in settings_module("").CELERY_BEAT_SCHEDULE
    with pytest.raises(ImproperlyConfigured, match="REPLY_IMAP_URL needs a login"):
        settings_module("imaps://imap.example.org/INBOX")


def test_a_tampered_plus_address_tells_a_known_person_only_and_changes_nothing(dovecot, mailbox_url, make_game):
    game = make_game()
    before = snapshot(game)
    local, _, domain = reply_to_of(ANA).partition("@")
    tampered = f"{local[:-1]}{'0' if local[-1] != '0' else '1'}@{domain}"
    dovecot.deliver(reply_mime(tampered, ANA, "2"))
    dovecot.deliver(reply_mime(tampered, "stranger@example.net", "2"))
    mailbox.run()
    assert snapshot(game) == before
    [m] = problems(ANA)
    assert "reply address is not valid" in m.body and "Test table" not in m.body
    assert not problems("stranger@example.net"), "no backscatter to strangers"
    assert sorted(InboundMail.objects.values_list("result", flat=True)) == ["invalid_address", "invalid_address"]
