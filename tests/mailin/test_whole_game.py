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


def test_a_game_played_to_the_end_four_ways(listener, dovecot, settings, make_game, client):
    """Issue 25's whole game: Ana answers through the SMTP listener, Ben through the IMAP mailbox,
    Cleo is pinged by push and Dan by his Discord webhook (both then answer on the page the ping
    links to). Each ping names its own seat's link and no other; nothing secret travels in one."""
    import json
    import re

    from django.test import Client

    from accounts.models import User
    from games.actions import organise
    from games.models import ChatHook
    from tests.channels.test_push import device_of
    from tests.production.service import answer_form
    from tests.support.push_service import PushService
    from tests.support.webhooks import HookServer, serve

    cleo_mail, dan_mail = "cleo@example.com", "dan@example.com"
    settings.REPLY_IMAP_URL = dovecot.url(processed="Done")
    settings.PUSH_LOCAL_HOSTS = ["127.0.0.1"]
    settings.CHANNEL_ALLOWED_HOSTS = ["127.0.0.1"]
    settings.CHAT_LOCAL = False
    listener.handler.limits = PeerLimits(1000, 1000, 100)
    push, hooks = PushService(), HookServer()
    httpd = serve(hooks)
    try:
        game = make_game(seats=(ANA, BEN, cleo_mail, dan_mail), start=False)
        _, browser = device_of(User.objects.get(email=cleo_mail), push)
        ChatHook.objects.create(
            owner=User.objects.get(email=dan_mail), format="discord", url=hooks.url("/api/webhooks/1/t0ken")
        )
        organise.start_game(game)
        seats = {s.player.email: s for s in Seat.objects.filter(game=game).select_related("player")}
        pages = {cleo_mail: Client(), dan_mail: Client()}
        path_of = {}
        ways = {"smtp": 0, "imap": 0, "push": 0, "discord": 0}

        def pinged(email: str) -> str:
            """The seat link of the latest ping this person got (a wait pings once: a later step of
            the same turn is answered on the page the ping opened)."""
            if email == cleo_mail:
                urls = [json.loads(browser.decrypt(r.body))["url"] for r in push.received]
            else:
                urls = [
                    u for r in hooks.received for u in re.findall(r"https?://\S+/play/[^/\s]+/", r.json()["content"])
                ]
            assert urls, f"{email} was pinged"
            opened = {links.seat_from_token(u.rstrip("/").rsplit("/", 1)[1]).pk for u in urls}
            assert opened == {seats[email].pk}, "every ping links to the person's own seat, never another"
            return urls[-1].split("testserver", 1)[-1]

        for _ in range(200):
            game.refresh_from_db()
            if game.status == Game.Status.ENDED:
                break
            index = sorted(game.engine.prompts(game.state))[0]
            email = next(e for e, s in seats.items() if s.index == index)
            if email == ANA:
                address = reply_to_of(ANA)
                send_smtp(listener.port, reply_mime(address, ANA, gmail("1")), address)
                listener.handler.wait_idle()
                ways["smtp"] += 1
            elif email == BEN:
                dovecot.deliver(reply_mime(reply_to_of(BEN), BEN, gmail("1")))
                assert mailbox.run()["handled"] == 1
                ways["imap"] += 1
            else:
                path_of[email] = pinged(email)
                page = pages[email].get(path_of[email])
                form = answer_form(page.content.decode())
                assert form is not None, "the page the ping opened asks the question"
                assert pages[email].post(path_of[email], form).status_code == 302
                ways["push" if email == cleo_mail else "discord"] += 1

        game.refresh_from_db()
        assert game.status == Game.Status.ENDED
        assert all(n >= 3 for n in ways.values()), ways
        vias = set(Event.objects.filter(game=game, kind=Event.Kind.ANSWER).values_list("via", flat=True))
        assert vias == {"email", "web"}
        # push travelled encrypted, and no chat post carries a number any seat hid
        secrets = {str(n) for n in game.state["secret"]}
        for r in hooks.received:
            text = r.json()["content"]
            assert not any(f"hid {n}" in text for n in secrets), "a seat's private log line never posts"
        assert {r.headers["content-encoding"] for r in push.received} == {"aes128gcm"}
    finally:
        push.close()
        hooks.release.set()
        httpd.shutdown()
        httpd.server_close()
