"""Replies by email, through a real posted Postmark inbound webhook (anymail checks its basic auth).

A reply is matched to its seat by the signed Reply-To address of the email it answers, must come
from the seat's own player, and goes through the one write path; anything else gets an email
back saying why (with game details only for the seat's own player) and changes nothing.
"""

from __future__ import annotations

import base64
import json
import logging
import uuid

import pytest
from django.core import mail as django_mail

from games import inbound, links, reply_text
from games.actions import organise, play, talk
from games.engine import Composite, Number
from games.models import Event, Game, Message, Notification, Seat

pytestmark = pytest.mark.django_db(transaction=True)

SECRET = "postmark:inbound-s3cret"
URL = "/anymail/postmark/inbound/"
ANA, BEN = "ana@example.com", "ben@example.com"


@pytest.fixture(autouse=True)
def _inbound_settings(settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    settings.REPLY_DOMAIN = "reply.example.org"
    settings.DEFAULT_FROM_EMAIL = "Café turns <turns@example.org>"


def postmark_payload(to: str, sender: str, text: str, html: str = "", stripped: str = "", headers=()) -> dict:
    """A Postmark inbound webhook body, as Postmark posts it (RawEmail not included)."""
    return {
        "FromName": sender.split("@")[0].title(),
        "MessageStream": "inbound",
        "From": sender,
        "FromFull": {"Email": sender, "Name": sender.split("@")[0].title(), "MailboxHash": ""},
        "To": to,
        "ToFull": [{"Email": to, "Name": "", "MailboxHash": to.split("@")[0].partition("+")[2]}],
        "Cc": "",
        "CcFull": [],
        "Bcc": "",
        "BccFull": [],
        "OriginalRecipient": to,
        "Subject": "Re: Your move in Test table",
        "MessageID": str(uuid.uuid4()),
        "ReplyTo": "",
        "MailboxHash": to.split("@")[0].partition("+")[2],
        "Date": "Tue, 5 May 2026 10:04:00 +0000",
        "TextBody": text,
        "HtmlBody": html,
        "StrippedTextReply": stripped,
        "Tag": "",
        "Headers": [
            {"Name": "Return-Path", "Value": f"<{sender}>"},
            {"Name": "Message-ID", "Value": f"<{uuid.uuid4()}@mail.example.com>"},
            {"Name": "X-Spam-Status", "Value": "No"},
            *({"Name": k, "Value": v} for k, v in headers),
        ],
        "Attachments": [],
    }


def post(client, payload: dict, auth: str | None = SECRET):
    extra = {}
    if auth is not None:
        extra["HTTP_AUTHORIZATION"] = "Basic " + base64.b64encode(auth.encode()).decode()
    return client.post(URL, data=json.dumps(payload), content_type="application/json", **extra)


def reply(client, to: str, text: str, sender: str = ANA, **kw):
    response = post(client, postmark_payload(to, sender, text, **kw))
    assert response.status_code == 200
    return response


def reply_to_of(recipient: str, subject_start: str = "Your move") -> str:
    """The Reply-To address of the latest email of that kind the recipient was actually sent."""
    m = [m for m in django_mail.outbox if m.to == [recipient] and m.subject.startswith(subject_start)][-1]
    assert m.reply_to, "game emails that take replies carry a reply address"
    return m.reply_to[0]


def problems(recipient: str) -> list:
    return [m for m in django_mail.outbox if m.to == [recipient] and m.subject == "Your reply could not be played"]


def snapshot(game: Game) -> tuple:
    game.refresh_from_db()
    return game.version, game.state, Event.objects.filter(game=game).count(), Message.objects.count()


def gmail(answer: str, quoted: str = "Hello Ana,\nHide a secret number\n  A number from 0 to 3.") -> str:
    lines = "\n".join(f"> {x}" if x else ">" for x in quoted.splitlines())
    return f"{answer}\n\nOn Tue, 5 May 2026 at 10:00, Café turns <turns@example.org> wrote:\n\n{lines}\n"


def both_hidden(client, game: Game) -> tuple[Seat, str]:
    """Both seats hide a number by replying; returns the seat now asked to take pebbles and its email.

    Whoever takes first gets a "your move" email for it: Ana because she was not asked in between,
    Ben because an email player is mailed the next step of a turn that goes on at once.
    """
    reply(client, reply_to_of(ANA), "1", sender=ANA)
    reply(client, reply_to_of(BEN), "2", sender=BEN)
    game.refresh_from_db()
    assert game.state["secret"] == [1, 2]
    seat = game.seats.select_related("player").get(index=game.state["turn"])
    return seat, seat.player.email


# --- answers ---------------------------------------------------------------------------------


def test_a_reply_with_a_number_plays_the_move_by_email(client, make_game):
    game = make_game()
    address = reply_to_of(ANA)
    assert address.startswith("play+a-") and address.endswith("@reply.example.org")
    sent_before = len(django_mail.outbox)

    reply(client, address, gmail("2"))

    event = Event.objects.get(game=game, kind=Event.Kind.ANSWER)
    assert (event.seat, event.via, event.payload["answer"]) == (0, "email", 2)
    game.refresh_from_db()
    assert game.state["secret"][0] == 2
    assert not problems(ANA), "a played answer gets no reply of its own"
    assert len(django_mail.outbox) == sent_before


@pytest.mark.parametrize("first", [0, 1])
def test_a_reply_by_label_then_by_option_number_plays_each_step_of_a_turn(client, make_game, first):
    game = make_game()
    Game.objects.filter(pk=game.pk).update(state={**game.state, "turn": first})  # who takes first
    seat, email = both_hidden(client, game)
    assert seat.index == first
    moves = [m for m in django_mail.outbox if m.to == [email] and m.subject.startswith("Your move")]
    assert "Take pebbles" in moves[-1].body and len(moves) == 2, "one email for the hide, one for the take"

    reply(client, reply_to_of(email), "take 2\n", sender=email)
    game.refresh_from_db()
    last = Event.objects.filter(game=game).latest("seq")
    assert (last.seat, last.via, last.payload["answer"]) == (seat.index, "email", "take2")
    assert game.state["pile"] == 7
    moves = [m for m in django_mail.outbox if m.to == [email] and m.subject.startswith("Your move")]
    assert len(moves) == 3 and "End your turn" in moves[-1].body, "the next step of the turn is mailed once"

    # the next step of the same turn ("End your turn": 1. Done), answered by its number
    reply(client, reply_to_of(email), "1", sender=email)
    game.refresh_from_db()
    last = Event.objects.filter(game=game).latest("seq")
    assert (last.seat, last.via, last.payload["answer"]) == (seat.index, "email", "done")
    assert game.state["turn"] == 1 - seat.index
    assert not problems(ANA) and not problems(BEN)


def test_quoted_text_below_the_answer_is_ignored(client, make_game):
    game = make_game()
    # the quote below holds other numbers (the options, and an earlier "3") that must not be read
    reply(client, reply_to_of(ANA), gmail("1", "Hide a secret number\n3\n  A number from 0 to 3."))
    game.refresh_from_db()
    assert game.state["secret"][0] == 1


def test_the_esp_stripped_reply_is_used_when_given(client, make_game):
    game = make_game()
    reply(client, reply_to_of(ANA), "3\n\n> Hide a secret number\n", stripped="3")
    game.refresh_from_db()
    assert game.state["secret"][0] == 3


def test_an_html_only_reply_is_read(client, make_game):
    game = make_game()
    html = (
        '<html><body><div dir="ltr">2</div><br><div class="gmail_quote"><div class="gmail_attr">On Tue, '
        "Café turns wrote:<br></div><blockquote>Hide a secret number<br>A number from 0 to 3.</blockquote>"
        "</div></body></html>"
    )
    reply(client, reply_to_of(ANA), "", html=html)
    game.refresh_from_db()
    assert game.state["secret"][0] == 2


def test_a_wrong_number_gets_the_options_back_and_changes_nothing(client, make_game):
    game = make_game()
    seat, email = both_hidden(client, game)
    before = snapshot(game)

    reply(client, reply_to_of(email), gmail("9"), sender=email)

    assert snapshot(game) == before
    [m] = problems(email)
    assert "“9” is not one of the choices" in m.body
    assert "Take pebbles" in m.body and "1. Take 1" in m.body and "3. Take 3" in m.body
    assert "http://testserver/play/" in m.body, "the player's own link comes with the options"
    note = Notification.objects.get(kind=Notification.Kind.REPLY_PROBLEM)
    assert note.seat_id == seat.pk and note.game_id == game.pk


def test_an_empty_reply_is_refused_with_the_question_again(client, make_game):
    game = make_game()
    before = snapshot(game)
    reply(client, reply_to_of(ANA), "\n\nSent from my iPhone\n\n" + gmail("").lstrip())
    assert snapshot(game) == before
    [m] = problems(ANA)
    assert "no answer at the top" in m.body and "A number from 0 to 3." in m.body


def test_an_unknown_sender_is_told_nothing_about_the_game(client, make_game):
    game = make_game()
    before = snapshot(game)

    reply(client, reply_to_of(ANA), "2", sender="Mallory@Example.net")

    assert snapshot(game) == before
    [m] = problems("mallory@example.net")
    assert "not sent from the address this seat was invited with" in m.body
    for secret in ("Test table", "Hide a secret number", "A number from", "http://testserver/play/", "Ana", "Ben"):
        assert secret not in m.body and secret not in m.subject
        assert all(secret not in html for html, _ in m.alternatives)
    assert Notification.objects.get(kind=Notification.Kind.REPLY_PROBLEM).game_id is None
    assert not problems(ANA)


def test_the_sender_is_compared_without_case_or_display_name(client, make_game):
    game = make_game()
    payload = postmark_payload(reply_to_of(ANA), ANA, "2")
    payload["FromFull"] = {"Email": "Ana@EXAMPLE.com", "Name": "Ana Example", "MailboxHash": ""}
    assert post(client, payload).status_code == 200
    game.refresh_from_db()
    assert game.state["secret"][0] == 2


def test_another_seats_player_cannot_answer_for_a_seat(client, make_game):
    game = make_game()
    before = snapshot(game)
    reply(client, reply_to_of(ANA), "2", sender=BEN)
    assert snapshot(game) == before
    [m] = problems(BEN)
    assert "not sent from the address" in m.body and "Hide a secret number" not in m.body


def test_a_forged_or_tampered_address_changes_nothing(client, make_game):
    game = make_game()
    address = reply_to_of(ANA)
    local, domain = address.split("@")
    body, _, mac = local.rpartition("-")
    tampered_mac = f"{body}-{'0' if mac[0] != '0' else '1'}{mac[1:]}@{domain}"
    other_seat = Seat.objects.get(game=game, index=1).pk
    seat_swapped = f"{body.replace(f'-{Seat.objects.get(game=game, index=0).pk}-', f'-{other_seat}-')}-{mac}@{domain}"
    before = snapshot(game)

    reply(client, tampered_mac, "2")
    reply(client, seat_swapped, "2")

    assert snapshot(game) == before
    # Ana is a known person, so she learns her reply address is not valid (and nothing else)
    assert len(problems(ANA)) == 2
    assert all("reply address is not valid" in m.body and "Test table" not in m.body for m in problems(ANA))

    # a stranger forging mail to a made-up reply address gets nothing: no backscatter
    reply(client, tampered_mac, "2", sender="stranger@example.net")
    reply(client, "play+a-1-0-deadbeef-00000000000000000000@reply.example.org", "2", sender="stranger@example.net")
    assert not problems("stranger@example.net")
    assert snapshot(game) == before


def test_mail_not_sent_to_a_reply_address_is_ignored(client, make_game):
    game = make_game()
    before = snapshot(game)
    sent = len(django_mail.outbox)
    reply(client, "hello@reply.example.org", "2")
    assert snapshot(game) == before and len(django_mail.outbox) == sent


@pytest.mark.parametrize("auth", [None, "postmark:wrong", "other:inbound-s3cret"])
def test_a_webhook_without_the_right_basic_auth_is_refused(client, make_game, auth):
    game = make_game()
    before = snapshot(game)
    sent = len(django_mail.outbox)

    response = post(client, postmark_payload(reply_to_of(ANA), ANA, "2"), auth=auth)

    assert response.status_code == 400
    assert snapshot(game) == before and len(django_mail.outbox) == sent


def test_without_a_webhook_secret_configured_nothing_is_accepted(client, make_game, settings):
    game = make_game()
    settings.ANYMAIL = {}
    before = snapshot(game)
    sent = len(django_mail.outbox)
    with pytest.warns(Warning, match="insecure"):
        response = post(client, postmark_payload(reply_to_of(ANA), ANA, "2"), auth=None)
    assert response.status_code == 200
    assert snapshot(game) == before and len(django_mail.outbox) == sent


def test_a_reply_to_an_old_email_after_answering_is_refused_as_already_answered(client, make_game):
    game = make_game()
    address = reply_to_of(ANA)
    reply(client, address, "2")
    before = snapshot(game)

    reply(client, address, "3")

    assert snapshot(game) == before
    [m] = problems(ANA)
    assert "already answered" in m.body
    game.refresh_from_db()
    assert game.state["secret"][0] == 2


def test_a_reply_to_an_old_question_after_the_table_moved_on_is_refused(client, make_game):
    game = make_game()
    address = reply_to_of(ANA)  # "hide a secret number", at version 0
    both_hidden(client, game)
    django_mail.outbox.clear()  # both answered by the web since; now someone is asked to take pebbles
    before = snapshot(game)
    reply(client, address, "1")  # "1" would be a legal answer to "Take pebbles": it must not be played
    assert snapshot(game) == before
    [m] = problems(ANA)
    assert "already answered" in m.body


def test_a_reply_after_the_player_was_replaced_is_refused(client, make_game):
    game = make_game()
    address = reply_to_of(ANA)
    organise.replace_player(Seat.objects.get(game=game, index=0), "cara@example.com")
    before = snapshot(game)

    reply(client, address, "2")  # the old player, with the old address
    reply(client, address, "2", sender="cara@example.com")  # the new player, with the revoked address

    assert snapshot(game) == before
    assert "reply address is not valid" in problems(ANA)[0].body
    assert "reply address is not valid" in problems("cara@example.com")[0].body
    # the newcomer's own fresh address works
    reply(client, reply_to_of("cara@example.com"), "3", sender="cara@example.com")
    game.refresh_from_db()
    assert game.state["secret"][0] == 3


def test_a_paused_game_takes_no_reply(client, make_game):
    game = make_game()
    organise.pause(game, reason="holidays")
    before = snapshot(game)
    reply(client, reply_to_of(ANA), "2")
    assert snapshot(game) == before
    assert "paused" in problems(ANA)[0].body


def test_an_automatic_reply_is_never_answered(client, make_game):
    game = make_game()
    before = snapshot(game)
    sent = len(django_mail.outbox)
    reply(client, reply_to_of(ANA), "I am away until Monday.", headers=[("Auto-Submitted", "auto-replied")])
    assert snapshot(game) == before and len(django_mail.outbox) == sent


def test_a_bug_while_handling_a_reply_raises_so_the_esp_retries(client, make_game, monkeypatch):
    game = make_game()
    before = snapshot(game)

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(play, "submit", broken)
    with pytest.raises(RuntimeError):
        post(client, postmark_payload(reply_to_of(ANA), ANA, "2"))
    assert snapshot(game) == before and not problems(ANA)


# --- table talk ------------------------------------------------------------------------------


def test_a_reply_to_a_table_talk_email_posts_to_the_board(client, make_game, caplog):
    game = make_game()
    play.submit(game.pk, 0, 1, game.version, via="web")  # Ana is not asked now: talk comes on its own
    talk.post_message(Seat.objects.get(game=game, index=1), "Good luck, Ana!")
    address = reply_to_of(ANA, "New message")
    assert address.startswith("play+t-")

    with caplog.at_level(logging.DEBUG, logger="games.inbound"):
        reply(client, address, gmail("Thanks Ben,\nsee you at the café!", "Ben: Good luck, Ana!"))

    message = Message.objects.get(seat__index=0)
    assert (message.text, message.via) == ("Thanks Ben,\nsee you at the café!", "email")
    assert caplog.records, "the outcome is logged"
    for record in caplog.records:
        text = record.getMessage()
        assert "café" not in text and "Thanks" not in text and ANA not in text and "play+" not in text


def test_an_empty_table_talk_reply_is_refused(client, make_game):
    game = make_game()
    play.submit(game.pk, 0, 1, game.version, via="web")
    talk.post_message(Seat.objects.get(game=game, index=1), "Hello")
    count = Message.objects.count()
    reply(client, reply_to_of(ANA, "New message"), gmail(""))
    assert Message.objects.count() == count
    assert "no message" in problems(ANA)[0].body


def test_a_talk_address_never_plays_a_move(client, make_game):
    game = make_game()
    address = links.reply_address(Seat.objects.get(game=game, index=0), game.version, "talk", kind="t")
    reply(client, address, "2")
    game.refresh_from_db()
    assert game.state["secret"][0] is None
    assert Message.objects.get(seat__index=0).text == "2"


# --- reading the answer out of common mail clients' replies -----------------------------------

QUOTED = "Hello Ana,\n\nHide a secret number\n  1. Take 1\n  2. Take 2\n\n-- \nCafé turns"

CLIENTS = {
    "gmail": gmail("2", QUOTED),
    "gmail wrapped attribution": (
        "2\n\nOn Tue, 5 May 2026 at 10:00, Café turns <\nplay+a-12-3-abcdef12-0123456789abcdef0123@reply.example.org>"
        " wrote:\n\n> Hello Ana,\n> 1. Take 1\n"
    ),
    "apple mail": "2\n\n> On 5 May 2026, at 10:00, Café turns <turns@example.org> wrote:\n> \n> Hello Ana,\n> 1. Take 1\n",
    "iphone": "2\n\nSent from my iPhone\n\n> On 5 May 2026, at 10:00, Café turns <turns@example.org> wrote:\n> 1. Take 1\n",
    "outlook": (
        "2\r\n\r\n________________________________\r\nFrom: Café turns <turns@example.org>\r\n"
        "Sent: Tuesday, May 5, 2026 10:00 AM\r\nTo: Ana <ana@example.com>\r\nSubject: Your move\r\n\r\n"
        "Hello Ana,\r\n  1. Take 1\r\n"
    ),
    "outlook original message": (
        "2\n\n-----Original Message-----\nFrom: Café turns [mailto:turns@example.org]\nSent: Tuesday, May 5, 2026\n"
        "To: ana@example.com\nSubject: Your move\n\n1. Take 1\n"
    ),
    "outlook bold headers": "2\n\n*From:* Café turns <turns@example.org>\n*Sent:* Tuesday, May 5\n\n1. Take 1\n",
    "outlook mobile": "2\n\nGet Outlook for iOS<https://aka.ms/o0ukef>\n________________________________\nFrom: x\n",
    "thunderbird top": "2\n\nOn 05/05/2026 10:00, Café turns wrote:\n> Hello Ana,\n> 1. Take 1\n",
    "thunderbird below the quote": (
        "On 05/05/2026 10:00, Café turns wrote:\n> Hello Ana,\n> 1. Take 1\n> 3. Take 3\n\n2\n\n-- \nAna\n"
    ),
    "signature": "\n\n  2  \n-- \nAna Example\n1 Main Street\n",
    "french gmail": "2\n\nLe mar. 5 mai 2026 à 10:00, Café turns <turns@example.org> a écrit :\n> 1. Take 1\n",
    "german": "2\n\nAm 05.05.2026 um 10:00 schrieb Café turns <turns@example.org>:\n> 1. Take 1\n",
}


@pytest.mark.parametrize("client_name", sorted(CLIENTS))
def test_the_answer_is_read_from_common_mail_clients(client_name):
    assert reply_text.answer_text(CLIENTS[client_name]) == "2"


HTML_CLIENTS = {
    "gmail": '<div dir="ltr">2</div><br><div class="gmail_quote"><div>On Tue wrote:</div><blockquote>3</blockquote>',
    "outlook": (
        '<html><head><style>p{color:red}</style></head><body><div>2<br></div><div id="appendonsend"></div>'
        '<hr><div id="divRplyFwdMsg"><b>From:</b> Café turns</div><div>1. Take 1</div></body></html>'
    ),
    "thunderbird below the quote": (
        '<div class="moz-cite-prefix">On 05/05/2026 10:00, Café turns wrote:<br></div>'
        '<blockquote type="cite"><p>1. Take 1</p><blockquote>3</blockquote><p>Take 3</p></blockquote><p>2</p>'
    ),
    "apple mail": "<div>2<br/><div><br/><blockquote type=cite><div>On 5 May wrote:</div>3</blockquote></div></div>",
}


@pytest.mark.parametrize("client_name", sorted(HTML_CLIENTS))
def test_the_answer_is_read_from_html_only_replies(client_name):
    assert reply_text.answer_text(reply_text.html_to_text(HTML_CLIENTS[client_name])) == "2"


def test_a_composite_answer_takes_one_line_per_part():
    text = "\n1\n\n2\n3\nthanks!\n\nOn Tue, 5 May 2026, Café turns wrote:\n> 4\n"
    assert reply_text.answer_text(text, parts=3) == "1\n2\n3"
    prompt = Composite("Bid", (("a", Number("A", 0, 5)), ("b", Number("B", 0, 5))))
    assert prompt.parse_text(reply_text.answer_text(text, parts=len(prompt.parts))) == {"a": 1, "b": 2}


def test_table_talk_keeps_the_whole_message_above_the_quote():
    text = "\n\nHi all,\n\nI will be late tonight.\n\n-- \nAna\n"
    assert reply_text.talk_text(text) == "Hi all,\n\nI will be late tonight."
    assert reply_text.talk_text("> only a quote\n") == ""


def test_addresses_are_read_from_display_names_and_anymail_addresses():
    assert inbound.address_of('"Ana Example" <Ana@Example.COM>') == ANA
    assert inbound.address_of("ana@example.com") == ANA
    assert inbound.address_of(None) == ""
