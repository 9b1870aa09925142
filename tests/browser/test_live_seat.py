"""A table that moves by itself, and one tap (issue 24), in Chromium.

Ben's page stays open while Ana plays through the write path (as her own page or email would): her
moves, her table talk and Ben's "your move" reach his page within 5 seconds without a reload, with
the check answering "nothing new" (204) in between; what Ben had begun to type is kept; hidden, the
tab asks less often. Then, signed
in, Ben answers with one tap at 390 and at 1280 px, takes it back with Undo, follows the button to
his next game waiting on him, and the top bar counts his waiting games.
"""

from __future__ import annotations

import time

import pytest
from django.conf import settings as django_settings
from django.test import Client
from playwright.sync_api import expect

from accounts.models import User
from games import links
from games.actions import play, talk
from games.models import Game, Seat
from tests.browser.flows import submit
from tests.browser.test_pictures import check_axe
from tests.support.play import take_pebbles

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE_WITHIN_MS = 5000
# the tab hidden or shown, as the browser tells the page when another tab is chosen
VISIBILITY = """hidden => {
  Object.defineProperty(document, 'hidden', {value: hidden, configurable: true});
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def seat_url(game: Game, index: int) -> str:
    return links.url_for(Seat.objects.get(game=game, index=index))


def listen(page) -> list[int]:
    """The statuses of the page's checks, in order."""
    statuses: list[int] = []
    page.on("response", lambda r: statuses.append(r.status) if "/live/" in r.url else None)
    return statuses


def nothing_new_after(page, statuses: list[int], start: int, timeout: float = 10.0) -> int:
    """Wait until the page's check has answered "nothing new" since check number `start` (Playwright
    hands events over while it waits); returns how many checks there have been."""
    end = time.monotonic() + timeout
    while 204 not in statuses[start:]:
        assert time.monotonic() < end, f"the check never answered 'nothing new': {statuses}"
        page.wait_for_timeout(100)
    return len(statuses)


def turn_to(game: Game, index: int) -> Game:
    """Play through the write path (secrets hidden, whole turns) until seat `index` is to take pebbles."""
    take_pebbles(game, 0)
    for _ in range(6):
        game.refresh_from_db()
        [mover] = game.engine.prompts(game.state)
        if mover == index and game.state["step"] == "take":
            return game
        step = "done" if game.state["step"] == "done" else "take1"
        play.submit(game.pk, mover, step, None, via="web")
    raise AssertionError("the turn never came")


def test_a_waiting_page_shows_moves_talk_and_your_move_live(browser, live_server, make_game, settings):
    settings.SITE_URL = live_server.url
    game = make_game("pebbles", seats=("ana@example.com", "ben@example.com"), options={"pile": 12})
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    statuses = listen(page)
    page.goto(seat_url(game, 1))

    # Ben has begun to answer (a number typed, not sent) when Ana's answer moves the table on
    page.fill("form.prompt input[name=answer]", "2")
    play.submit(game.pk, 0, 1, None, via="web")
    expect(page.locator("#live-log")).to_contain_text("ana hid a number.", timeout=LIVE_WITHIN_MS)
    assert page.input_value("form.prompt input[name=answer]") == "2", "what Ben typed is kept"
    expect(page.locator("#live")).to_contain_text("kept as you left it")
    submit(page, "form.prompt button[type=submit]")
    assert "Played." in page.content(), "the kept answer is taken (the question is the same one)"

    # Ben waits while Ana plays her turn: each step arrives by itself, "nothing new" in between
    game = turn_to(game, 0)
    page.goto(seat_url(game, 1))
    expect(page).not_to_have_title("Your move · " + game.name + " · ben")
    opened = len(statuses)
    nothing_new_after(page, statuses, opened)
    started = time.monotonic()
    play.submit(game.pk, 0, "take2", None, via="web")
    expect(page.locator("#live-log")).to_contain_text("ana took 2.", timeout=LIVE_WITHIN_MS)
    assert time.monotonic() - started < LIVE_WITHIN_MS / 1000
    moved = len(statuses)
    assert statuses[moved - 1] == 200, "the check said changed"
    nothing_new_after(page, statuses, moved)  # and nothing new again once the page is current
    started = time.monotonic()
    play.submit(game.pk, 0, "done", None, via="web")
    expect(page).to_have_title(f"Your move · {game.name} · ben", timeout=LIVE_WITHIN_MS)
    assert time.monotonic() - started < LIVE_WITHIN_MS / 1000
    expect(page.locator("form.prompt legend")).to_have_text("Take pebbles")
    assert "favicon-move.svg" in page.get_attribute("link[rel~=icon]", "href"), "the tab's icon has its mark"
    expect(page.locator("#live")).to_contain_text("Your move.")
    checks = statuses[opened:]
    assert checks.count(200) == 2 and checks.count(204) >= 2, f"two changes, nothing new in between: {checks}"

    # table talk arrives by itself too, and the page it makes is as clean as before
    talk.post_message(Seat.objects.get(game=game, index=0), "Your turn, Ben!")
    expect(page.locator("#live-board")).to_contain_text("Your turn, Ben!", timeout=LIVE_WITHIN_MS)
    check_axe(page)

    # a hidden tab asks less often (first after 10 s, then less and less); shown again, at once
    page.evaluate(VISIBILITY, True)
    hidden_at = len(statuses)
    page.wait_for_timeout(3000)
    assert len(statuses) - hidden_at <= 1, f"a hidden tab kept asking: {statuses[hidden_at:]}"
    shown_at = len(statuses)
    page.evaluate(VISIBILITY, False)
    page.wait_for_timeout(600)
    assert len(statuses) > shown_at, "a tab shown again asks at once"
    assert not errors, errors
    ctx.close()


def signed_in(browser, base: str, email: str, width: int, height: int):
    """A browser context signed in as this person (their session made by Django's test client)."""
    client = Client()
    client.force_login(User.objects.get(email=email))
    name = django_settings.SESSION_COOKIE_NAME
    ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=width < 500)
    ctx.add_cookies([{"name": name, "value": client.cookies[name].value, "url": base}])
    return ctx


def test_one_tap_answers_undo_takes_it_back_and_the_next_game_follows(browser, live_server, make_game, settings):
    settings.SITE_URL = base = live_server.url
    people = ("ana@example.com", "ben@example.com")
    first = turn_to(make_game("pebbles", seats=people), 1)
    make_game("pebbles", seats=people)  # Ben must hide a number there: a game waiting on him
    first.refresh_from_db()

    phone = signed_in(browser, base, "ben@example.com", 390, 844).new_page()
    phone.set_default_timeout(15000)
    phone.goto(seat_url(first, 1))
    expect(phone.locator("header.top .waiting-count")).to_have_text("2 waiting on you")
    expect(phone.locator(".one-tap-hint")).to_be_visible()
    version = first.version
    submit(phone, phone.locator("form.prompt label.option", has_text="Take 1"))  # one tap, no Send
    first.refresh_from_db()
    assert first.version == version + 1 and first.state["taken"][1] >= 1, "the tap played Take 1"
    expect(phone.locator("#decision")).to_contain_text("Played.")
    submit(phone, "text=Undo my last answer")
    expect(phone.locator("#undo")).to_contain_text("taken back")
    first.refresh_from_db()
    assert first.state["step"] == "take", "Undo took the tap back"

    desk = signed_in(browser, base, "ben@example.com", 1280, 800).new_page()
    desk.set_default_timeout(15000)
    desk.goto(seat_url(first, 1))
    submit(desk, desk.locator("form.prompt label.option", has_text="Take 2"))
    expect(desk.locator("#undo")).to_contain_text("Undo my last answer")
    submit(desk, desk.locator("form.prompt label.option", has_text="Done"))
    first.refresh_from_db()
    assert first.state["turn"] == 0, "Ben's turn is over"
    button = desk.locator("a.button", has_text="Next game waiting on you")
    expect(button).to_be_visible()
    submit(desk, button)
    expect(desk.locator("form.prompt legend")).to_have_text("Hide a secret number")
    expect(desk.locator("header.top .waiting-count")).to_have_text("1 waiting on you")
    phone.context.close()
    desk.context.close()
