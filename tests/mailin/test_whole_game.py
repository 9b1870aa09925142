"""A whole game by email with no provider: Ana answers only through the SMTP listener, Ben only through
the IMAP mailbox (REPLY_IMAP_URL is set, so every reply address is a plus-address of that mailbox;
Ana's mail server relays it to the listener). Each sees their own seat and nothing more.
"""

from __future__ import annotations

import pytest
from django.core import mail as django_mail

from games import links
from games.mailin import mailbox
from games.mailin.listener import PeerLimits
from games.models import Event, Game, InboundMail, Seat
from tests.mailin.replies import ANA, BEN, reply_mime, send_smtp
from tests.test_inbound import gmail, problems, reply_to_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_game_played_to_the_end_by_smtp_and_by_a_mailbox(listener, dovecot, settings, make_game):
    settings.REPLY_IMAP_URL = dovecot.url(processed="Done")
    listener.handler.limits = PeerLimits(1000, 1000, 100)
    game = make_game()
    replies = {"smtp": 0, "imap": 0}

    for _ in range(60):
        game.refresh_from_db()
        if game.status == Game.Status.ENDED:
            break
        [index] = sorted(game.engine.prompts(game.state))[:1]
        player = ANA if index == 0 else BEN
        address = reply_to_of(player)
        assert address.startswith("turns+") and address.endswith("@example.org")
        raw = reply_mime(address, player, gmail("1"))  # option 1 / the number 1: always a legal answer here
        if player == ANA:
            send_smtp(listener.port, raw, address)
            listener.handler.wait_idle()
            replies["smtp"] += 1
        else:
            dovecot.deliver(raw)
            assert mailbox.run()["handled"] == 1
            replies["imap"] += 1

    game.refresh_from_db()
    assert game.status == Game.Status.ENDED
    assert replies["smtp"] >= 4 and replies["imap"] >= 4
    answers = Event.objects.filter(game=game, kind=Event.Kind.ANSWER)
    assert {e.via for e in answers} == {"email"} and answers.count() == sum(replies.values())
    assert set(InboundMail.objects.values_list("result", flat=True)) == {"played"}
    assert not problems(ANA) and not problems(BEN)
    assert dovecot.count("INBOX") == 0 and dovecot.count("Done") == replies["imap"]

    seat_link = {p: links.url_for(Seat.objects.get(game=game, index=i)) for i, p in enumerate((ANA, BEN))}
    for message in django_mail.outbox:
        [to] = message.to
        if to in seat_link:  # each player's mail carries their own seat's link, never the other's
            other = seat_link[BEN if to == ANA else ANA]
            assert other not in message.body and all(other not in html for html, _ in message.alternatives)
    for player in (ANA, BEN):
        assert [m for m in django_mail.outbox if m.to == [player] and m.subject.startswith("Game over in Test table")]
