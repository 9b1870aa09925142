"""Replies by SMTP straight to the service (`manage.py smtpd`): a real listener on 127.0.0.1, fed by smtplib.

Only genuine reply addresses are taken (550 for any other at RCPT, so nobody but the sender's own
mail server answers a forger); sizes, recipients and rates are bounded in SMTP's own words; every
message is stored before its 250 and handled once, even across a crash.
"""

from __future__ import annotations

import os
import signal
import smtplib
import threading
import time

import pytest
from django.core.management import CommandError, call_command

from games import inbound, links
from games.actions import play
from games.mailin import listener as smtp_listener
from games.mailin import store
from games.models import Event, InboundMail, Seat
from tests.mailin.conftest import REPLY_DOMAIN, free_port
from tests.mailin.replies import ANA, BEN, reply_mime, send_smtp
from tests.test_inbound import gmail, problems, reply_to_of, snapshot

pytestmark = pytest.mark.django_db(transaction=True)


def answers(game) -> list[Event]:
    return list(Event.objects.filter(game=game, kind=Event.Kind.ANSWER))


def test_a_reply_by_smtp_plays_the_move_and_is_kept(listener, make_game):
    game = make_game()
    address = reply_to_of(ANA)
    assert address.endswith(f"@{REPLY_DOMAIN}")

    sent = reply_mime(address, f"Ana Lima <{ANA}>", gmail("2"))
    send_smtp(listener.port, sent, address)
    listener.handler.wait_idle()

    [event] = answers(game)
    assert (event.seat, event.via, event.payload["answer"]) == (0, "email", 2)
    mail = InboundMail.objects.get()
    assert (mail.source, mail.status, mail.result) == ("smtp", "handled", "played")
    assert mail.envelope_to == [address] and mail.envelope_from == ANA and mail.peer == "127.0.0.1"
    assert bytes(mail.raw).startswith(sent), "the message is kept byte for byte as it came"
    assert not problems(ANA)


def test_a_refused_reply_is_answered_as_the_webhook_answers_it(listener, make_game):
    game = make_game()
    before = snapshot(game)

    send_smtp(listener.port, reply_mime(reply_to_of(ANA), ANA, gmail("9")), reply_to_of(ANA))
    listener.handler.wait_idle()

    assert snapshot(game) == before
    [m] = problems(ANA)
    assert "Give a number from 0 to 3." in m.body and "Hide a secret number" in m.body
    assert InboundMail.objects.get().result == "illegal"


def test_another_sender_is_told_nothing_and_changes_nothing(listener, make_game):
    game = make_game()
    before = snapshot(game)
    send_smtp(listener.port, reply_mime(reply_to_of(ANA), BEN, "2"), reply_to_of(ANA), mail_from=BEN)
    listener.handler.wait_idle()
    assert snapshot(game) == before
    [m] = problems(BEN)
    assert "not sent from the address" in m.body and "Test table" not in m.body
    assert InboundMail.objects.get().result == "wrong_sender"


@pytest.mark.parametrize(
    "recipient",
    [
        "someone@example.net",  # relaying for another domain
        f"hello@{REPLY_DOMAIN}",  # ours, not a reply address
        "forged",  # a forged signature (filled in below)
        "revoked",  # the seat got a new player since
        "postmaster",  # no @ at all
    ],
)
def test_anything_but_a_genuine_reply_address_is_refused_at_rcpt_with_550(listener, make_game, recipient):
    game = make_game()
    genuine = reply_to_of(ANA)
    local, _, domain = genuine.partition("@")
    recipient = {
        "forged": f"{local[:-1]}{'0' if local[-1] != '0' else '1'}@{domain}",
        "revoked": genuine,
    }.get(recipient, recipient)
    if recipient == genuine:
        Seat.objects.filter(game=game, index=0).update(nonce="replaced-by-a-new-player")
    before = snapshot(game)

    with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
        send_smtp(listener.port, reply_mime(recipient, ANA, "2"), recipient)

    [(code, words)] = refused.value.recipients.values()
    assert code == 550 and b"Not a valid reply address" in words
    assert snapshot(game) == before and not InboundMail.objects.exists()
    assert not problems(ANA), "the sender's own mail server tells them; the service mails nobody"


def test_the_genuine_recipients_are_kept_and_the_others_refused(listener, make_game):
    game = make_game()
    address = reply_to_of(ANA)
    refused = send_smtp(listener.port, reply_mime(address, ANA, "3"), ["someone@example.net", address])
    listener.handler.wait_idle()
    assert refused == {"someone@example.net": (550, smtp_listener.REFUSED_RECIPIENT[4:].encode())}
    assert InboundMail.objects.get().envelope_to == [address]
    game.refresh_from_db()
    assert game.state["secret"][0] == 3


def test_too_many_recipients_are_refused_with_452(listener, make_game, settings):
    settings.REPLY_SMTP_MAX_RECIPIENTS = 2
    make_game()
    address = reply_to_of(ANA)
    with smtplib.SMTP("127.0.0.1", listener.port, timeout=10) as client:
        client.ehlo()
        client.mail(ANA)
        assert client.rcpt(address)[0] == 250
        assert client.rcpt(address)[0] == 250
        assert client.rcpt(address)[0] == 452
        assert client.noop()[0] == 250, "the transaction goes on with the recipients taken"


def test_a_message_over_the_size_limit_is_refused_with_552_and_not_kept(listener, make_game, settings):
    settings.REPLY_MAIL_MAX_BYTES = 20_000
    game = make_game()
    before = snapshot(game)
    address = reply_to_of(ANA)
    big = reply_mime(address, ANA, "2\n\n" + ("a long line of text " * 40 + "\n") * 40)
    assert len(big) > 20_000
    with pytest.raises(smtplib.SMTPSenderRefused) as refused:
        send_smtp(listener.port, big, address)  # smtplib announces the size at MAIL, as mail servers do
    assert refused.value.smtp_code == 552
    with smtplib.SMTP("127.0.0.1", listener.port, timeout=10) as client:
        assert client.ehlo()[0] == 250 and b"SIZE 20000" in client.ehlo_resp
        assert client.mail(ANA)[0] == 250 and client.rcpt(address)[0] == 250  # a sender that announces nothing
        code, words = client.data(big)
        assert code == 552 and b"Too much mail data" in words
        assert client.noop()[0] == 250, "the connection goes on"
    assert snapshot(game) == before and not InboundMail.objects.exists()


def test_a_peer_over_its_message_rate_is_told_to_try_later_with_450(listener, make_game, settings):
    settings.REPLY_SMTP_MESSAGES_PER_HOUR = 2
    listener.handler.limits = smtp_listener.PeerLimits.from_settings()
    make_game()
    address = reply_to_of(ANA)
    with smtplib.SMTP("127.0.0.1", listener.port, timeout=10) as client:
        client.ehlo()
        for _ in range(2):
            assert client.mail(ANA)[0] == 250
            client.rset()
        code, words = client.mail(ANA)
    assert code == 450 and b"try again later" in words
    listener.handler.wait_idle()
    assert not InboundMail.objects.exists()
    assert address  # nothing was sent, and the listener still answers others
    with smtplib.SMTP("127.0.0.1", listener.port, timeout=10) as client:
        assert client.noop()[0] == 250


def test_a_peer_over_its_connection_rate_is_refused_with_421(listener, settings):
    listener.handler.limits = smtp_listener.PeerLimits(connections_per_minute=3, messages_per_hour=50, open_at_most=50)
    for _ in range(3):
        with smtplib.SMTP("127.0.0.1", listener.port, timeout=10) as client:
            assert client.noop()[0] == 250
    with pytest.raises(smtplib.SMTPConnectError) as refused:
        smtplib.SMTP("127.0.0.1", listener.port, timeout=10)
    assert refused.value.smtp_code == 421


def test_the_peer_counters_are_bounded_and_windows_reset():
    now = [0.0]
    limits = smtp_listener.PeerLimits(2, 1, open_at_most=3, peers=100, clock=lambda: now[0])
    for i in range(1000):  # a flood of addresses: the counters keep at most 100 of them
        assert limits.message(f"10.0.{i // 250}.{i % 250}") is None
    assert len(limits._messages) <= 100
    assert limits.message("10.9.9.9") is None and limits.message("10.9.9.9") == smtp_listener.TOO_MANY_MESSAGES
    now[0] += 3601
    assert limits.message("10.9.9.9") is None, "a new hour, a new count"
    assert [limits.connect("10.1.1.1") for _ in range(3)] == [None, None, smtp_listener.TOO_MANY_CONNECTIONS]
    assert limits.connect("10.2.2.2") is None and limits.connect("10.3.3.3") == smtp_listener.BUSY
    limits.disconnect()
    now[0] += 61
    assert limits.connect("10.1.1.1") is None


def test_a_copy_sent_again_because_the_250_was_lost_is_not_handled_twice(listener, make_game):
    game = make_game()
    address = reply_to_of(ANA)
    raw = reply_mime(address, ANA, "2", message_id="<same-reply@mail.example.com>")
    send_smtp(listener.port, raw, address)
    listener.handler.wait_idle()
    send_smtp(listener.port, raw, address)
    listener.handler.wait_idle()
    assert len(answers(game)) == 1 and not problems(ANA), "no 'already answered' for a copy"
    assert sorted(InboundMail.objects.values_list("status", flat=True)) == ["duplicate", "handled"]


# --- a crash loses nothing, and nothing is handled twice -------------------------------------------


def test_a_reply_stored_but_not_handled_when_the_listener_died_is_handled_once_on_restart(
    listener, make_game, monkeypatch
):
    game = make_game()
    address = reply_to_of(ANA)
    with monkeypatch.context() as died:
        died.setattr(smtp_listener.ReplyHandler, "hand_over", lambda self, pk: None)  # dies right after the 250
        send_smtp(listener.port, reply_mime(address, ANA, "1"), address)
    assert InboundMail.objects.get().status == "received" and not answers(game)

    restarted = smtp_listener.ReplyHandler()  # what `manage.py smtpd` does before it listens
    try:
        assert restarted.handle_leftovers() == 1
        assert restarted.handle_leftovers() == 0
    finally:
        restarted.close()
    [event] = answers(game)
    assert event.payload["answer"] == 1 and InboundMail.objects.get().result == "played"
    assert not problems(ANA)


def test_a_bug_while_reading_keeps_the_reply_and_it_is_handled_once_fixed(listener, make_game, monkeypatch):
    game = make_game()
    before = snapshot(game)
    address = reply_to_of(ANA)
    with monkeypatch.context() as bug:
        bug.setattr(play, "submit", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("a bug")))
        send_smtp(listener.port, reply_mime(address, ANA, "3"), address)
        listener.handler.wait_idle()
    mail = InboundMail.objects.get()
    assert (mail.status, mail.attempts) == ("failed", 1) and "RuntimeError" in mail.last_error
    assert snapshot(game) == before and not problems(ANA)

    from django.utils import timezone

    assert store.handle_leftovers(timezone.now()) == 0, "a retry waits for its backoff"
    assert store.handle_leftovers(mail.claimed_until + store.LEASE) == 1
    assert InboundMail.objects.get().status == "handled"
    assert [e.payload["answer"] for e in answers(game)] == [3]


def test_with_the_database_away_the_sender_is_told_to_try_again_and_nothing_is_lost(listener, make_game, monkeypatch):
    make_game()
    address = reply_to_of(ANA)
    from django.db import OperationalError

    with monkeypatch.context() as away:
        away.setattr(smtp_listener, "store_smtp", lambda *a: (_ for _ in ()).throw(OperationalError("gone")))
        with pytest.raises(smtplib.SMTPDataError) as refused:
            send_smtp(listener.port, reply_mime(address, ANA, "2"), address)
    assert refused.value.smtp_code == 451, "a temporary refusal: the sender's server keeps it and retries"
    send_smtp(listener.port, reply_mime(address, ANA, "2"), address)  # the retry
    listener.handler.wait_idle()
    assert InboundMail.objects.get().result == "played"


# --- the command -----------------------------------------------------------------------------------


def test_manage_py_smtpd_handles_leftovers_listens_and_stops_on_sigterm(make_game, monkeypatch):
    game = make_game()
    address = reply_to_of(ANA)
    store.store(reply_mime(address, ANA, "1"), "smtp", ANA, [address], "127.0.0.1")  # left by a crash
    port = free_port()
    outcome: dict = {}

    def mail_then_stop() -> None:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                with smtplib.SMTP("127.0.0.1", port, timeout=5) as client:
                    outcome["noop"] = client.noop()[0]
                    talk = links.reply_address(Seat.objects.get(game=game, index=0), game.version + 1, "talk", "t")
                    outcome["refused"] = client.sendmail(BEN, [talk], reply_mime(talk, BEN, "hi"))
                break
            except (ConnectionRefusedError, smtplib.SMTPServerDisconnected):
                time.sleep(0.1)
            except smtplib.SMTPRecipientsRefused as e:
                outcome["refused"] = e.recipients
                break
        os.kill(os.getpid(), signal.SIGTERM)

    helper = threading.Thread(target=mail_then_stop)
    previous = signal.getsignal(signal.SIGTERM)
    helper.start()
    try:
        call_command("smtpd", host="127.0.0.1", port=port)
    finally:
        helper.join()
        assert signal.getsignal(signal.SIGTERM) == previous, "the command puts the signal handlers back"
    assert outcome["noop"] == 250
    [event] = answers(game)
    assert event.payload["answer"] == 1, "the reply a crash left stored was handled when the command started"


def test_manage_py_smtpd_refuses_a_port_out_of_range():
    with pytest.raises(CommandError, match="1 to 65535"):
        call_command("smtpd", port=70000)


def test_the_listener_hands_the_same_reader_what_the_webhook_hands_it(listener, make_game, monkeypatch):
    make_game()
    seen = []
    monkeypatch.setattr(inbound, "_handle", lambda message, sender, to: seen.append((sender, to)) or "seen")
    address = reply_to_of(ANA)
    send_smtp(listener.port, reply_mime(address, f"Ana <{ANA.upper()}>", "2"), address)
    listener.handler.wait_idle()
    assert seen == [(ANA, [address])], "the sender as the reader compares it; the envelope recipient first"
    assert InboundMail.objects.get().result == "seen"
