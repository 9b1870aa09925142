"""The reply corpus (tests/support/replies/: 111 real mail-client formats) through all three ways in:
the provider's webhook, the SMTP listener and the IMAP mailbox read each reply the same way.

Each path hands the one reader (games.inbound.read) a parsed message; what the reader then reads
from it (the answer's lines, or the table-talk text) is recorded per case and must be the same on
every path, and what its writer meant. A few cases then go end to end through real games.
"""

from __future__ import annotations

import pytest

from games import inbound, reply_text
from games.mailin import mailbox
from games.mailin.listener import PeerLimits
from games.models import Event, InboundMail
from tests.mailin.replies import ANA, reply_mime, send_smtp
from tests.support.replies import load
from tests.test_inbound import post, postmark_payload, problems, reply_to_of, snapshot
from tests.test_reply_text import PLAYED, REFUSED

pytestmark = pytest.mark.django_db(transaction=True)

CASES = {case.id: case for case in load()}
# an ESP's own stripped reply is the webhook's alone; a raw message has its text part only
ESP_ONLY = {c.id for c in CASES.values() if c.stripped}


def _case_id(message) -> str:
    return str(message["Message-ID"]).strip("<>").split(".", 1)[0]


@pytest.fixture
def read_per_case(monkeypatch) -> dict[str, str]:
    """What the reader reads from each message handed to it, by case (the game is left alone)."""
    seen: dict[str, str] = {}

    def record(message, from_addr: str, to: list[str]) -> str:
        case = CASES[_case_id(message)]
        body = reply_text.body_of(message)
        seen[case.id] = (
            reply_text.answer_text(body, case.parts) if case.kind == "answer" else reply_text.talk_text(body)
        )
        return "recorded"

    monkeypatch.setattr(inbound, "_handle", record)
    return seen


def _message_id(case_id: str, path: str) -> str:
    return f"<{case_id}.{path}@corpus.example.org>"


def test_the_whole_corpus_reads_the_same_through_the_webhook_the_listener_and_the_mailbox(
    client, make_game, listener, dovecot, settings, read_per_case
):
    make_game()
    address = reply_to_of(ANA)

    for case in CASES.values():
        payload = postmark_payload(address, ANA, case.text, html=case.html, stripped=case.stripped)
        payload["Headers"] = [h for h in payload["Headers"] if h["Name"] != "Message-ID"]
        payload["Headers"].append({"Name": "Message-ID", "Value": _message_id(case.id, "webhook")})
        assert post(client, payload).status_code == 200
    webhook = dict(read_per_case)
    read_per_case.clear()

    listener.handler.limits = PeerLimits(1000, 1000, 100)  # one sender, many messages at once
    for case in CASES.values():
        send_smtp(
            listener.port,
            reply_mime(address, ANA, case.text, case.html, message_id=_message_id(case.id, "smtp")),
            address,
        )
    listener.handler.wait_idle()
    smtp = dict(read_per_case)
    read_per_case.clear()

    settings.REPLY_IMAP_URL = dovecot.url(batch="500")
    plus = reply_to_of(ANA)  # the same seat's address as a plus-address of the mailbox
    for case in CASES.values():
        dovecot.deliver(reply_mime(plus, ANA, case.text, case.html, message_id=_message_id(case.id, "imap")))
    assert mailbox.run()["moved"] == len(CASES)
    imap = dict(read_per_case)

    assert len(CASES) >= 111 and set(webhook) == set(smtp) == set(imap) == set(CASES)
    meant = {i: c.meant or "" for i, c in CASES.items()}
    assert webhook == meant, "the webhook reads every case as its writer meant"
    assert {i: r for i, r in smtp.items() if i not in ESP_ONLY} == {
        i: r for i, r in webhook.items() if i not in ESP_ONLY
    }
    assert {i: r for i, r in imap.items() if i not in ESP_ONLY} == {
        i: r for i, r in webhook.items() if i not in ESP_ONLY
    }
    assert {i: smtp[i] for i in ESP_ONLY} == {i: imap[i] for i in ESP_ONLY} == {i: meant[i] for i in ESP_ONLY}, (
        "with no ESP to strip it, the reader finds the same answer in the text itself"
    )
    assert InboundMail.objects.filter(result="recorded").count() == 2 * len(CASES)


def _played_through(path: str, case_id: str, make_game, listener, dovecot, settings) -> tuple:
    case = CASES[case_id]
    game = make_game()
    before = snapshot(game)
    address = reply_to_of(ANA)
    raw = reply_mime(address, ANA, case.text, case.html, message_id=_message_id(case.id, f"{path}-{game.pk}"))
    if path == "smtp":
        send_smtp(listener.port, raw, address)
        listener.handler.wait_idle()
    else:
        dovecot.deliver(raw)
        mailbox.run()
    return game, before


@pytest.mark.parametrize("path", ["smtp", "imap"])
def test_readable_replies_are_played_and_unreadable_ones_refused_end_to_end(
    path, make_game, listener, dovecot, settings
):
    if path == "imap":
        settings.REPLY_IMAP_URL = dovecot.url()
    for case_id in PLAYED:
        game, _ = _played_through(path, case_id, make_game, listener, dovecot, settings)
        event = Event.objects.get(game=game, kind=Event.Kind.ANSWER)
        assert (event.seat, event.via, event.payload["answer"]) == (0, "email", int(CASES[case_id].meant)), case_id
    assert not problems(ANA)
    for n, case_id in enumerate(REFUSED, start=1):
        game, before = _played_through(path, case_id, make_game, listener, dovecot, settings)
        assert snapshot(game) == before, case_id
        assert len(problems(ANA)) == n and "Hide a secret number" in problems(ANA)[-1].body
