"""A 3-seat Café Baras game (two people and a bot) played through the real pages and outbox.

The organiser signs in, creates and starts the game in the browser; each person opens the link
from the newest email the local outbox delivered to them and answers in the form for the first
8 waits; the rest is played through the write path, and the final scores arrive by email. Screenshots at phone and desktop widths go to test-artifacts/.
"""

from __future__ import annotations

import re

import pytest

from games.models import DeliveredMail, Game
from tests.browser.flows import PEOPLE, newest_link, one_tap, organiser_starts, submit, turns

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def answer_first_options(page) -> None:
    """Pick like a hurried person: the first choice, or the first few boxes a question needs."""
    form = page.locator("form.prompt")
    hint = form.locator("p.hint").first
    radios = form.locator('input[type="radio"]')
    if radios.count() and one_tap(page):
        submit(page, radios.first)  # one tap sends a single choice
        return
    if radios.count():
        radios.first.check()
    else:
        boxes = form.locator('input[type="checkbox"]')
        need = 0
        if hint.count():
            m = re.search(r"(?:exactly|Pick) (\d+)", hint.inner_text())
            need = int(m.group(1)) if m else 0
        for i in range(need):
            boxes.nth(i).check()
    form.locator('button[type="submit"]').click()
    page.wait_for_load_state("domcontentloaded")


def test_two_people_and_a_bot_play_cafe_baras_to_the_final_scores(browser, live_server, organiser, settings, artifacts):
    settings.MAILERS = {"default": {"BACKEND": "games.mail.LocalMailboxBackend"}}
    settings.SITE_URL = live_server.url
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()

    game = organiser_starts(page, live_server.url, "cafe_baras", "Capybara evening", [*PEOPLE, "bot"])

    page.goto(f"{live_server.url}/outbox/")
    assert page.locator("text=Your move in Capybara evening").count() >= 1

    phone = browser.new_context(viewport={"width": 375, "height": 800}, is_mobile=True).new_page()
    shots = 0
    for person, seat_page in turns(game, (phone, page), 8):
        if shots < 2:
            seat_page.screenshot(
                path=str(artifacts / f"cafe_baras_seat_{'375' if person == 0 else '1280'}.png"), full_page=True
            )
            shots += 1
        # a run of steps in one turn: the page shows the next decision at once, without a new email
        while seat_page.locator("form.prompt").count():
            answer_first_options(seat_page)
            assert "Nothing was played" not in seat_page.content()
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED

    for email in PEOPLE:
        final = DeliveredMail.objects.filter(to=email, subject__startswith="Game over").get()
        assert "Final scores" in final.body_text and "coins" in final.body_text.lower()
    phone.goto(newest_link(PEOPLE[0]))
    assert phone.locator("table.scores").count() == 1
    phone.screenshot(path=str(artifacts / "cafe_baras_final_375.png"), full_page=True)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page scrolls sideways on a phone ({width}px)"
