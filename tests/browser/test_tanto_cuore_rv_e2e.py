"""A 3-seat Tanto Cuore: Romantic Vacation game (two people and a bot) through the real pages.

The organiser creates and starts the game in the browser; each person follows the link in the
newest email to them and answers in the form for the first 12 waits; the rest of the game is
played through the write path, and the final scores arrive by email and on the page. People pick
what a sensible player would (the title's bot suggests it) and pick it the way a person would: by
tapping the card on the pictured table when one answers the question, else in the plain form.
"""

from __future__ import annotations

import json
import random

import pytest

from games.models import DeliveredMail, Game
from tests.browser.flows import PEOPLE, newest_link, one_tap, organiser_starts, submit, turns

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def answer(page, choice, taps: list[int]) -> None:
    """Pick `choice` (an option id, or a list of them): a tap on its card if drawn, else in the form."""
    form = page.locator("form.prompt")
    for value in choice if isinstance(choice, list) else [choice]:
        card = page.locator(f".pic-table .pic.is-option[data-option-id={json.dumps(value)}] > button.pic-tap")
        if one_tap(page):  # one tap sends a single choice: no Send
            taps[0] += card.count() > 0
            submit(page, card.first if card.count() else form.locator(f"input[value={json.dumps(value)}]"))
            assert "Nothing was played" not in page.content()
            return
        if card.count():
            card.first.click()
            taps[0] += 1
        else:
            form.locator(f"input[value={json.dumps(value)}]").check()
        assert form.locator(f"input[value={json.dumps(value)}]").is_checked()
    form.locator('button[type="submit"]').click()
    page.wait_for_load_state("domcontentloaded")
    assert "Nothing was played" not in page.content()


def test_two_people_and_a_bot_play_tanto_cuore_rv_to_the_final_scores(
    browser, live_server, organiser, settings, artifacts
):
    settings.MAILERS = {"default": {"BACKEND": "games.mail.LocalMailboxBackend"}}
    settings.SITE_URL = live_server.url
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(20000)
    game = organiser_starts(page, live_server.url, "tanto_cuore_rv", "Romantic vacation", [*PEOPLE, "bot"])

    phone = browser.new_context(viewport={"width": 375, "height": 800}, is_mobile=True).new_page()
    phone.set_default_timeout(20000)
    rng = random.Random(5)
    shots, taps = 0, [0]
    for person, seat_page in turns(game, (phone, page), 12):
        hand = game.engine.view(game.state, person)["data"]["houses"][person]["hand"]
        assert seat_page.locator(".pic-table .hand .pic").count() == len(hand), "the hand is drawn card by card"
        if shots < 2 and game.state["turn"]["number"] > 6:
            width = "375" if person == 0 else "1280"
            seat_page.screenshot(path=str(artifacts / f"tanto_cuore_rv_seat_{width}.png"), full_page=True)
            shots += 1
        # a run of steps in one turn: the page shows the next decision at once, without a new email
        while seat_page.locator("form.prompt").count():
            game.refresh_from_db()
            assert person in game.engine.prompts(game.state)
            answer(seat_page, game.engine.bot_answer(game.state, person, rng), taps)
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED
    assert taps[0] > 10, "most turns were played by tapping cards"

    for email in PEOPLE:
        final = DeliveredMail.objects.filter(to=email, subject__startswith="Game over").get()
        assert "Final scores" in final.body_text and "Winner" in final.body_text
    phone.goto(newest_link(PEOPLE[0]))
    assert phone.locator("table.scores").count() == 1
    phone.screenshot(path=str(artifacts / "tanto_cuore_rv_final_375.png"), full_page=True)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page scrolls sideways on a phone ({width}px)"
