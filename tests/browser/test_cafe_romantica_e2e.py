"""A 3-seat Café Romantica game (two people and a bot) played through the real pages and outbox.

The organiser creates the game in the browser with the title's own turn cap (so the game ends in
time), each person follows the link in the newest email to them and answers in the form: drafts
keep the form's ranking, sealed bids are filled with a small limit, actions are picked by tapping
a card on the pictured table when one answers the question. After 12 waits in the browser the
rest is played through the write path; the game ends with final scores.
"""

from __future__ import annotations

import random

import pytest

from games.models import DeliveredMail, Game
from tests.browser.flows import PEOPLE, newest_link, one_tap, organiser_starts, submit, turns

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def answer(page, rng: random.Random) -> None:
    """Answer like a person: tap a card if one answers, else fill the form sensibly."""
    form = page.locator("form.prompt")
    cards = page.locator(".pic-table .pic.is-option > button.pic-tap")
    numbers = form.locator('input[type="number"]:not([name*="."][value])')
    radios = form.locator('input[type="radio"]')
    if cards.count() and rng.random() < 0.7:
        card = cards.nth(rng.randrange(cards.count()))
        if one_tap(page):  # one tap sends a single choice
            submit(page, card)
            assert "Nothing was played" not in page.content()
            return
        card.click()
    elif radios.count():
        radio = radios.nth(rng.randrange(radios.count()))
        if one_tap(page):
            submit(page, radio)
            assert "Nothing was played" not in page.content()
            return
        radio.check()
    else:  # sealed bids: a small limit for each turn order card; drafts keep the form's ranking 1..n
        for box in numbers.all():
            if box.get_attribute("value") is None:
                low, high = int(box.get_attribute("min")), int(box.get_attribute("max"))
                box.fill(str(min(high, low + rng.randrange(3))))
    form.locator('button[type="submit"]').click()
    page.wait_for_load_state("domcontentloaded")
    assert "Nothing was played" not in page.content()


def test_two_people_and_a_bot_play_cafe_romantica_to_a_winner(browser, live_server, organiser, settings, artifacts):
    settings.MAILERS = {"default": {"BACKEND": "games.mail.LocalMailboxBackend"}}
    settings.SITE_URL = live_server.url
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(20000)
    game = organiser_starts(
        page, live_server.url, "cafe_romantica", "Host club night", [*PEOPLE, "bot"], options={"opt_turn_cap": "4"}
    )
    assert game.state["options"]["turn_cap"] == 4

    phone = browser.new_context(viewport={"width": 375, "height": 800}, is_mobile=True).new_page()
    phone.set_default_timeout(20000)
    rng = random.Random(11)
    shots = 0
    for person, seat_page in turns(game, (phone, page), 12):
        assert seat_page.locator(".pic-table .field-row").count() == 2, "the field is drawn in two rows"
        if shots < 2 and game.state["phase"] == "actions":
            width = "375" if person == 0 else "1280"
            seat_page.screenshot(path=str(artifacts / f"cafe_romantica_seat_{width}.png"), full_page=True)
            shots += 1
        while seat_page.locator("form.prompt").count():
            answer(seat_page, rng)
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED
    assert game.state["turns_done"] == 4, "the turn cap ends the game"

    for email in PEOPLE:
        final = DeliveredMail.objects.filter(to=email, subject__startswith="Game over").get()
        assert "Final scores" in final.body_text
    phone.goto(newest_link(PEOPLE[0]))
    assert phone.locator("table.scores").count() == 1
    phone.screenshot(path=str(artifacts / "cafe_romantica_final_375.png"), full_page=True)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page scrolls sideways on a phone ({width}px)"
