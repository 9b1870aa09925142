"""Replies from real mail clients are read as their writers meant, or refused: never misread.

The corpus (tests/support/replies/manifest.yaml) holds each client's format as it arrives: what
games.reply_text reads from it must be exactly what the person meant, or nothing when nothing can be
read. A few cases then go end to end through the real inbound webhook: a readable answer is played,
an unreadable one changes nothing and the player is told why. bench/reply_corpus.py compares this
reader with the mail-parser-reply library on the same corpus.
"""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest

from games import inbound, reply_text
from games.actions import answers, play, talk
from games.engine.messages import english
from games.models import Event, Message, Notification, Seat
from tests.support.replies import HERE, Case, load
from tests.test_inbound import (  # noqa: F401 - _inbound_settings is an autouse fixture, used by being imported
    ANA,
    _inbound_settings,
    problems,
    reply,
    reply_to_of,
    snapshot,
)

CASES = {case.id: case for case in load()}
through_the_webhook = pytest.mark.django_db(transaction=True)  # mail goes out on commit


def read(case: Case) -> str:
    """What the webhook reads from the reply: the answer's lines, or the table-talk text ("" = nothing)."""
    body = reply_text.body_of(SimpleNamespace(stripped_text=case.stripped, text=case.text, html=case.html))
    return reply_text.answer_text(body, case.parts) if case.kind == "answer" else reply_text.talk_text(body)


# --- every format, read as meant ---------------------------------------------------------------


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_each_reply_format_is_read_as_meant_or_refused(case):
    assert read(case) == (case.meant or ""), f"{case.client}: {case.format}"


def test_the_corpus_covers_many_formats_and_every_file_is_used():
    cases = list(CASES.values())
    assert len(cases) >= 50
    assert {c.kind for c in cases} == {"answer", "talk"}
    assert sum(c.meant is None for c in cases) >= 10, "unreadable replies are part of the corpus"
    assert sum(bool(c.html and not c.text) for c in cases) >= 10, "HTML-only replies are part of the corpus"
    named = {f"{c.id}.{ext}" for c in cases for ext, body in (("txt", c.text), ("html", c.html)) if body}
    on_disk = {f for f in os.listdir(HERE) if f.endswith((".txt", ".html"))}
    assert named == on_disk, "every body file belongs to one case of the manifest"


# --- end to end, through the inbound webhook ---------------------------------------------------

PLAYED = [
    "gmail-en",
    "gmail-en-arabic-indic-digit",
    "thunderbird-bottom-posted",
    "outlook-web-en",
    "html-gmail",
    "html-outlook-desktop-en",
    "html-iphone",
]
REFUSED = [
    "gmail-en-empty",
    "iphone-en-only-signature",
    "outlook-desktop-pl-empty",
    "html-thunderbird-bottom-posted-empty",
]


def send(client, address: str, case: Case) -> None:
    reply(client, address, case.text, html=case.html, stripped=case.stripped)


@through_the_webhook
@pytest.mark.parametrize("case_id", PLAYED)
def test_a_readable_reply_is_played(client, make_game, case_id):
    case = CASES[case_id]
    game = make_game()  # Pebbles: everyone first hides a number from 0 to 3

    send(client, reply_to_of(ANA), case)

    event = Event.objects.get(game=game, kind=Event.Kind.ANSWER)
    assert (event.seat, event.via, event.payload["answer"]) == (0, "email", int(case.meant))
    assert not problems(ANA)


@through_the_webhook
@pytest.mark.parametrize("case_id", REFUSED)
def test_an_unreadable_reply_changes_nothing_and_the_player_is_told_why(client, make_game, case_id):
    game = make_game()
    before = snapshot(game)

    send(client, reply_to_of(ANA), CASES[case_id])

    assert snapshot(game) == before
    [mail] = problems(ANA)
    assert english(answers.NO_ANSWER) in mail.body and "Hide a secret number" in mail.body, (
        "why, and the question again"
    )
    assert Notification.objects.get(kind=Notification.Kind.REPLY_PROBLEM).seat.index == 0


def _talk_address(game) -> str:
    play.submit(game.pk, 0, 1, game.version, via="web")  # Ana is not asked now: talk comes on its own
    talk.post_message(Seat.objects.get(game=game, index=1), "Good luck, Ana!")
    return reply_to_of(ANA, "New message")


@through_the_webhook
@pytest.mark.parametrize("case_id", ["gmail-de-talk", "html-thunderbird-top-talk", "outlook-desktop-de-talk"])
def test_a_table_talk_reply_posts_what_was_written(client, make_game, case_id):
    case = CASES[case_id]
    address = _talk_address(make_game())

    send(client, address, case)

    message = Message.objects.get(seat__index=0)
    assert (message.text, message.via) == (case.meant, "email")


@through_the_webhook
def test_a_table_talk_reply_with_only_a_signature_posts_nothing(client, make_game):
    address = _talk_address(make_game())
    count = Message.objects.count()

    send(client, address, CASES["iphone-en-only-signature"])

    assert Message.objects.count() == count
    [mail] = problems(ANA)
    assert str(inbound.NO_MESSAGE) in mail.body
