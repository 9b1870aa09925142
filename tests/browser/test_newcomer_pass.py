"""What a newcomer's pass over the four titles at 390x844 and 1280x800 found, each kept fixed.

- Undo was a page of table below the decision: after a one-tap answer the page lands on the decision
  with "Played." and the hint "you can undo it", and the button was thousands of pixels further down.
  It now sits in the decision, under "Played.", in the first screen at both sizes; so does what Undo
  says when it has taken the answer back.
- On a desktop the decision's narrow column squeezed an option's label beside its detail until words
  broke ("Recru/it Shy", "Ool/on/g"): the detail now goes under the label there too.
- The cards' Add and Serve buttons (Café Baras) were 36 px tall on a phone: now at least 44.
- The list of games a person hosts cut its headings to a few letters on a phone ("Titl/e", "Sinc/e"):
  on a phone each game is now a small block of labelled lines.
- The top bar's links were 23 px of text on a phone ("Profile" beside "Sign out"): each is now 44 px
  tall.
"""

from __future__ import annotations

import pytest

from games import links
from games.engine.messages import english
from games.models import Game
from tests.browser.flows import one_tap, submit
from tests.browser.layout import broken_words
from tests.browser.test_pictures import check_axe
from tests.browser.test_whole_cards import sign_in_as_organiser
from tests.support.cafe_turns import to_play_phase
from tests.support.play import finish, mid_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {390: 844, 1280: 800}


def _in_view(page, selector: str) -> bool:
    """Whether the element is wholly inside the viewport as the page stands (no scrolling first)."""
    return page.evaluate(
        """(selector) => {
      const e = document.querySelector(selector);
      if (!e || !e.checkVisibility()) return false;
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
    }""",
        selector,
    )


@pytest.mark.parametrize("width", SIZES)
def test_undo_is_in_view_beside_the_decision_after_a_one_tap_answer(browser, live_server, make_game, settings, width):
    settings.SITE_URL = live_server.url
    game, person = mid_game(make_game, "cafe_baras", steps=0)
    ctx = browser.new_context(viewport={"width": width, "height": SIZES[width]}, is_mobile=width < 500)
    page = ctx.new_page()
    page.set_default_timeout(15000)
    page.goto(links.url_for(game.seats.get(index=person)))
    if width == 390:
        acts = page.locator("button.pic-act")
        assert acts.count() >= 2, "the cards in hand offer Add and Serve"
        short = [b for b in acts.all() if b.is_visible() and b.bounding_box()["height"] < 44]
        assert not short, f"{len(short)} card buttons are shorter than a thumb (44 px)"
    assert one_tap(page), "the first question of a Café Baras turn is one tap"
    version = game.version
    submit(page, page.locator("form.prompt label.option").first)
    game.refresh_from_db()
    assert game.version > version, "the tap played"
    assert page.locator("#decision .msg.success").inner_text() == "Played."
    assert _in_view(page, "#undo button"), "Undo is not in view where the tap lands"
    assert page.locator("#decision #undo").count() == 1, "Undo is part of the decision"
    if width == 1280:  # the next question (refilling the hand) in the desktop's narrow decision column
        options = page.locator("#decision .option")
        assert options.count() >= 2
        for option in options.all():
            label, detail = option.locator(".label").bounding_box(), option.locator(".detail").bounding_box()
            assert detail["y"] >= label["y"] + label["height"] - 1, "an option's detail sits beside its label"
        assert not broken_words(page, "#decision"), "words of the decision are cut in two"
    else:
        check_axe(page)
    submit(page, "#undo button")
    assert _in_view(page, "#undo .msg"), "what Undo did is not in view"
    assert "taken back" in page.locator("#undo .msg").inner_text()
    game.refresh_from_db()
    assert english(game.engine.prompts(game.state)[person].text).startswith("Your turn"), "Undo took the tap back"
    ctx.close()


def test_a_phone_home_keeps_whole_words_and_thumb_sized_top_links(browser, live_server, make_game, organiser):
    make_game(title="cafe_romantica", seats=["org@example.com", None, None])
    finish(make_game(title="tanto_cuore_rv", seats=["org@example.com", None]))  # and a line of figures
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    page.set_default_timeout(15000)
    sign_in_as_organiser(page, live_server.url)
    page.goto(live_server.url + "/")
    hosted = page.locator("table.list.stacks tbody tr")
    assert hosted.count() == 2
    assert page.locator("#figures-h").count() == 1
    said = hosted.first.locator("td[data-label='Status']").evaluate("td => getComputedStyle(td, '::before').content")
    assert said == '"Status: "', "each line of a game says what it is"
    assert not broken_words(page), "words on the home page are cut in two"
    links_up_top = page.locator("header.top a, header.top button")
    assert links_up_top.count() >= 6
    short = [t.inner_text() for t in links_up_top.all() if t.bounding_box()["height"] < 44]
    assert not short, f"top bar links shorter than a thumb: {short}"
    assert page.locator("header.top").bounding_box()["height"] <= 200, "the top bar takes the phone's first screen"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    check_axe(page)
    page.context.close()


def test_play_again_against_bots_starts_the_next_game_at_once(browser, live_server, make_game, settings):
    """Play again offered a game against bots to the bots, who never say yes: the newcomer waited on
    "you will get an email when it starts" for ever. With nobody else to ask, it starts at once."""
    settings.SITE_URL = live_server.url
    game = make_game(title="pebbles", seats=["ana@example.com", None])
    finish(game)
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    page.set_default_timeout(15000)
    page.goto(links.url_for(game.seats.get(index=0)))
    submit(page, page.get_by_role("button", name="Play again (the same table)"))
    again = Game.objects.get(previous=game)
    assert again.status == Game.Status.ACTIVE, "the next game waits for the bots' yes"
    assert "A new game has started" in page.locator(".messages").inner_text()
    assert "/play/" in page.url and "(again)" in page.locator("h1").inner_text()
    assert page.locator("#decision").count() == 1, "the new seat page shows the game, not a waiting room"
    page.context.close()


def test_cafe_says_how_to_place_the_card_before_the_grid_on_a_phone(browser, live_server, make_game, settings):
    """On a phone the card in hand and its "tap a square" came after the grid, its Turn and its queue:
    the grid stood there without a word. The words now come first, the grid and Turn still together."""
    settings.SITE_URL = live_server.url
    game = to_play_phase(make_game(title="cafe", seats=["ana@example.com", "ben@example.com"]))
    assert game.engine.prompts(game.state)[0].options[0].id.startswith("card"), "Ana places a card first"
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    page.set_default_timeout(15000)
    page.goto(links.url_for(game.seats.get(index=0)))
    how, grid = page.locator("p.cafe-how"), page.locator("#cafe-grid")
    assert how.is_visible() and "top-left corner" in how.inner_text()
    assert how.bounding_box()["y"] + how.bounding_box()["height"] <= grid.bounding_box()["y"], (
        "the words follow the grid"
    )
    turn = page.locator("#cafe-turn").bounding_box()
    assert turn["y"] + turn["height"] - how.bounding_box()["y"] <= 844, "the words, the grid and Turn fit one screen"
    page.context.close()
