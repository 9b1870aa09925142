"""Issue 14's whole story in Chromium, each person in their own browser context.

A new person signs in by the mailed link and creates a Café Baras game with two open seats; two
friends join through the shared join link; the host starts; each finds the game under "My games"
and plays from there (twice each in the browser; the rest of the game goes through the same
write path, since a whole Café Baras game in a browser takes minutes); one declares an absence that stops her clocks in two games; the game ends;
"play again" starts the next one; a spectator link shows the table without hidden cards. Finally
every link the outbox delivered is opened (GET) and nothing changes.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games.models import DeliveredMail, Event, Game, Seat, Vacation
from tests.browser.flows import submit
from tests.browser.test_cafe_baras_e2e import answer_first_options
from tests.support.play import finish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOST, BEA, CY = "host@example.org", "bea@example.org", "cy@example.org"
LINK = re.compile(r"(http://127\.0\.0\.1:\d+/\S+|http://localhost:\d+/\S+)")


def newest_link_to(address: str, path: str) -> str:
    for mail in DeliveredMail.objects.filter(to=address):
        for url in LINK.findall(mail.body_text):
            if path in url:
                return url
    raise AssertionError(f"no {path} link mailed to {address}")


def sign_in(page, base: str, address: str) -> None:
    page.goto(f"{base}/sign-in/")
    page.fill("#id_email", address)
    submit(page, "text=Mail me a sign-in link")
    assert "Check your email" in page.content()
    page.goto(newest_link_to(address, "/sign-in/link/"))
    assert f"Sign in as {address}?" in page.content()
    assert not User.objects.get(email=address).last_login, "opening the link signs no one in"
    submit(page, "button:has-text('Sign in')")
    assert "My games" in page.content()


def join(page, url: str, name: str, address: str) -> None:
    page.goto(url)
    page.fill("#id_name", name)
    page.fill("#id_email", address)
    submit(page, "text=Ask for a seat")
    assert "Check your email" in page.content()
    confirm = newest_link_to(address, "/join/confirm/")
    page.goto(confirm)
    assert not Seat.objects.filter(player__email=address).exists(), "opening the mailed link takes nothing"
    submit(page, "text=Take my seat")
    assert "You have seat" in page.content()


def world() -> tuple:
    """What a GET must never change (read markers like seen_log aside)."""
    return (
        Event.objects.count(),
        list(Game.objects.order_by("pk").values_list("pk", "status", "version", "join_nonce", "watch_nonce")),
        list(Seat.objects.order_by("pk").values_list("pk", "player_id", "is_bot", "accepted", "deadline", "nonce")),
        list(User.objects.order_by("pk").values_list("pk", "last_login", "unsubscribed")),
        Vacation.objects.count(),
    )


def test_a_new_host_and_two_friends_play_from_my_games(browser, live_server, settings):
    settings.MAILERS = {"default": {"BACKEND": "games.mail.LocalMailboxBackend"}}
    settings.SITE_URL = base = live_server.url
    host = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    bea = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    cy = browser.new_context(viewport={"width": 1024, "height": 800}).new_page()

    sign_in(host, base, HOST)
    host.goto(f"{base}/games/new/?title=cafe_baras")
    host.fill("#id_name", "Capybara club")
    host.fill("#id_seats", f"{HOST}\nopen\nopen")
    host.fill("#id_decision_hours", "48")
    host.click("text=Create game")
    join_url = host.locator("input[aria-label='Join link']").input_value()
    join(bea, join_url, "Bea", BEA)
    join(cy, join_url, "Cy", CY)
    host.reload()
    assert "Open seats" not in host.content()
    host.click("text=Start the game")
    game = Game.objects.get(name="Capybara club")
    assert game.status == Game.Status.ACTIVE

    # a spectator link, opened mid-game in a fresh context: the public table, no hand
    host.goto(f"{base}/games/{game.pk}/")
    host.click("text=Make a spectator link")
    watch_url = host.locator("input[aria-label='Spectator link']").input_value()
    spectator = browser.new_context().new_page()
    spectator.goto(watch_url)
    shown = spectator.content()
    game.refresh_from_db()
    public = json.dumps(game.engine.view(game.state, None), ensure_ascii=False)
    cards = {c["id"]: c for c in game.state["cardset"]["cards"]}
    hidden = {
        cards[c]["name"]
        for s in game.state["seats"]
        for c in s.get("hand", [])
        if c in cards and cards[c]["name"] not in public
    }
    assert "watching as a spectator" in shown
    assert hidden and not any(name in shown for name in hidden), "a spectator never sees a hand"

    # Bea plays in a second game too; one absence stops her clocks in both
    host.goto(f"{base}/games/new/?title=cafe_baras")
    host.fill("#id_name", "Second table")
    host.fill("#id_seats", f"{HOST}\n{BEA}")
    host.fill("#id_decision_hours", "48")
    host.click("text=Create game")
    host.click("text=Start the game")
    today = timezone.localdate()
    bea.goto(f"{base}/me/")
    bea.fill("#id_starts", str(today))
    bea.fill("#id_ends", str(today + timedelta(days=2)))
    submit(bea, "text=I will be away")
    assert Vacation.objects.filter(seat__player__email=BEA).count() == 2, "one absence, both games"
    assert "Capybara club" in bea.content() and "Second table" in bea.content()

    # everyone plays from "My games": each person twice in the browser, then the rest of the game
    # through the same write path (a full Café Baras game in the browser takes minutes)
    pages = {HOST: host, BEA: bea, CY: cy}
    played = dict.fromkeys(pages, 0)
    while min(played.values()) < 2:
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE
        asked = sorted(game.engine.prompts(game.state))
        who = Seat.objects.get(game=game, index=asked[0]).player.email
        page = pages[who]
        page.goto(f"{base}/")
        page.locator("#mine-h").locator("xpath=..").locator("a", has_text="Capybara club").first.click()
        while page.locator("form.prompt").count():
            answer_first_options(page)
            assert "Nothing was played" not in page.content()
        played[who] += 1
    finish(game)
    host.goto(f"{base}/")
    assert "Capybara club" in host.locator("#finished-h").locator("xpath=..").inner_text()

    # play again: one click offers, the others say yes, the next game starts
    bea.goto(f"{base}/")
    bea.locator("#finished-h").locator("xpath=..").locator("a", has_text="Capybara club").first.click()
    bea.click("text=Play again (the same table)")
    again = Game.objects.get(previous=game)
    for page in (host, cy):
        page.goto(f"{base}/")
        page.locator("#mine-h").locator("xpath=..").locator("a", has_text="Capybara club (again)").first.click()
        page.click("text=Yes, I'm in")
    again.refresh_from_db()
    assert again.status == Game.Status.ACTIVE

    # every emailed link, opened by GET in a fresh context, changes nothing
    before = world()
    visitor = browser.new_context().request  # a mail scanner: fetches, renders nothing, clicks nothing
    urls = {u for m in DeliveredMail.objects.all() for u in LINK.findall(m.body_text)}
    assert len(urls) > 10
    for url in sorted(urls):
        assert visitor.get(url).status < 500, url
    assert world() == before
