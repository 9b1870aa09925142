"""Each title's seat page draws the table as pictures, mid-game, at phone and desktop widths.

A game is created through the write path and played by people answering like bots until, some way
in, a person is asked; that person's page is opened at 375 px and 1280 px (screenshots in
test-artifacts/), the pictured table is checked against the seat's view data, one decision is
played by tapping a card, and axe-core finds no serious or critical violations.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games import links
from games.engine.messages import english
from games.titles import get_title
from tests.browser.flows import one_tap, submit
from tests.support.play import mid_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


def axe_source() -> str:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci` at the repository root (package.json lists axe-core)")
    return str(AXE)


def names_in(page, selector: str) -> list[str]:
    return page.eval_on_selector_all(selector, "els => els.map(e => e.getAttribute('data-name'))")


def open_at(browser, url: str, width: int):
    ctx = browser.new_context(viewport={"width": width, "height": 900}, is_mobile=width < 500)
    page = ctx.new_page()
    page.set_default_timeout(15000)
    page.goto(url)
    return ctx, page


def check_axe(page) -> None:
    page.add_script_tag(path=axe_source())
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    bad = [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert not bad, "axe-core found serious or critical violations:\n" + "\n".join(bad)


def check_page_basics(page, width: int) -> None:
    """Every picture has a name; card text is a non-italic sans-serif; no sideways scroll."""
    unnamed = page.eval_on_selector_all(
        ".pic-table svg", "els => els.filter(e => !e.getAttribute('aria-label') || !e.querySelector('title')).length"
    )
    assert unnamed == 0, "every SVG has a <title> and an aria-label"
    styles = page.eval_on_selector_all(
        ".pic-table svg text",
        "els => els.slice(0, 40).map(e => [getComputedStyle(e).fontStyle, getComputedStyle(e).fontFamily])",
    )
    assert styles, "the table draws text"
    assert all(style == "normal" and "sans-serif" in family for style, family in styles), styles[:3]
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page scrolls sideways at {width}px ({scroll}px)"


def tap_to_answer(page) -> str:
    """Tap the first card that answers the question (or pick the first option when none does), then send."""
    form = page.locator("form.prompt")
    cards = page.locator(".pic-table .pic.is-option > button.pic-tap")
    if one_tap(page):  # a single choice: the tap on its card (or option) sends it
        target = cards.first if cards.count() else form.locator('input[type="radio"]').first
        option = target.get_attribute("data-option-id") or target.get_attribute("value")
        submit(page, target)
        assert "Nothing was played" not in page.content()
        return option
    if cards.count():
        card = cards.first
        option = card.get_attribute("data-option-id")
        card.click()
        assert card.get_attribute("aria-pressed") == "true"
        assert form.locator(f'input[value="{option}"]').is_checked(), "tapping the card checks its option"
    else:
        first = form.locator('input[type="radio"], input[type="checkbox"]').first
        option = first.get_attribute("value")
        first.check()
    form.locator('button[type="submit"]').click()
    page.wait_for_load_state("domcontentloaded")
    assert "Nothing was played" not in page.content()
    return option


def shoot(browser, artifacts, url: str, slug: str, check) -> None:
    """Both widths: screenshots, the picture against the view, basics, axe."""
    for width in (375, 1280):
        ctx, page = open_at(browser, url, width)
        page.screenshot(path=str(artifacts / f"pictures_{slug}_{width}.png"), full_page=True)
        page.locator(".pic-table").screenshot(path=str(artifacts / f"pictures_{slug}_{width}_table.png"))
        check(page)
        check_page_basics(page, width)
        check_axe(page)
        ctx.close()


def a_tap_plays(browser, url: str, game) -> None:
    """On a phone-sized page, tapping a card that answers the question plays it."""
    ctx, page = open_at(browser, url, 375)
    version = game.version
    tap_to_answer(page)
    game.refresh_from_db()
    assert game.version > version, "the tapped card was played"
    ctx.close()


def test_cafe_baras_table_is_drawn_mid_game(browser, live_server, make_game, settings, artifacts):
    settings.SITE_URL = live_server.url
    game, person = mid_game(make_game, "cafe_baras", steps=14)
    seat = game.seats.get(index=person)
    view = game.engine.view(game.state, person)
    data = view["data"]
    cs = get_title("cafe_baras")
    del cs
    from games.titles.cafe_baras.state import cardset_of

    cards = cardset_of(game.state).cards

    def check(page):
        assert names_in(page, ".hand .pic") == [cards[c].name for c in data["hand"]]
        assert names_in(page, ".display .pic[data-card-id]") == [cards[c].name for c in data["display"]]
        for i, s in enumerate(data["seats"]):
            cafe = f'.cafe[data-seat="{i}"]'
            assert names_in(page, f"{cafe} .cafe-row .pic") == [cards[c].name for c in s["cafe"]]
            assert names_in(page, f"{cafe} .tucked .pic") == [cards[c].name for c in s["regulars"]]
            assert f"{s['coins']} coin" in page.locator(f"{cafe} .pic-facts").inner_text()
        assert page.locator(".guests .pic").count() == len(data["guests"])
        # another seat's hand is drawn nowhere: only counted
        others = (
            {c for i, s in enumerate(game.state["seats"]) if i != person for c in s["hand"]}
            - {c for s in data["seats"] for c in s["cafe"] + s["regulars"]}
            - set(data["display"])
            - set(data["hand"])
        )
        drawn = set(page.eval_on_selector_all(".pic-table [data-card-id]", "els => els.map(e => e.dataset.cardId)"))
        assert not (others & drawn)

    url = links.url_for(seat)
    shoot(browser, artifacts, url, "cafe_baras", check)
    a_tap_plays(browser, url, game)


def test_tanto_cuore_rv_table_is_drawn_mid_game(browser, live_server, make_game, settings, artifacts):
    settings.SITE_URL = live_server.url
    game, person = mid_game(make_game, "tanto_cuore_rv", steps=40)
    seat = game.seats.get(index=person)
    data = game.engine.view(game.state, person)["data"]
    cards = game.state["cards"]

    def check(page):
        me = data["houses"][person]
        assert names_in(page, ".hand .pic") == [cards[c]["name"] for c in me["hand"]]
        town = page.locator(".town .pic")
        assert town.count() == len(data["town"])
        assert names_in(page, ".town .pic") == [cards[c]["name"] for c in data["town"]]
        counts = page.eval_on_selector_all(".town .pic svg", "els => els.map(e => e.querySelector('text.count'))")
        assert len(counts) == len(data["town"])
        for cid, left in data["town"].items():
            label = page.locator(f'.town .pic[data-card-id="{cid}"] svg').get_attribute("aria-label")
            assert f"({left} left)" in label
        assert names_in(page, ".reminiscences .pic[data-card-id]") == [
            cards[c]["name"] for c in data["reminiscence_row"]
        ]
        for h in data["houses"]:
            house = page.locator(f'.house[data-seat="{h["seat"]}"]')
            facts = house.locator(".pic-facts").inner_text()
            assert f"waiting room {h['waiting_room']}" in facts and f"hand {h['hand_size']}" in facts
            top = house.locator(".kitchen .pic[data-card-id]")
            if h["kitchen_top"]:
                assert top.get_attribute("data-name") == cards[h["kitchen_top"]]["name"]
            else:
                assert top.count() == 0
            drawn = house.locator(".quarters .pic").count()
            assert drawn == len(set(h["quarters"] + h["reminiscences"]))
        # another seat's hand and its kitchen entrance below the top are drawn nowhere
        hidden = set()
        for i, z in enumerate(game.state["seats"]):
            if i != person:
                hidden |= {cards[c]["name"] for c in z["hand"] + z["discard"][:-1]}
        visible = {cards[c]["name"] for c in data["town"]} | {cards[c]["name"] for c in data["reminiscence_row"]}
        for h in data["houses"]:
            visible |= {cards[c]["name"] for c in h["quarters"] + h["reminiscences"] + h["played"] + h.get("hand", [])}
            if h["kitchen_top"]:
                visible.add(cards[h["kitchen_top"]]["name"])
        assert not (set(names_in(page, ".pic-table .pic[data-name]")) & (hidden - visible))

    url = links.url_for(seat)
    shoot(browser, artifacts, url, "tanto_cuore_rv", check)
    a_tap_plays(browser, url, game)


def test_cafe_romantica_table_is_drawn_mid_game(browser, live_server, make_game, settings, artifacts):
    settings.SITE_URL = live_server.url
    from games.titles.cafe_romantica.cards import base_id

    game, person = mid_game(make_game, "cafe_romantica", steps=12)
    seat = game.seats.get(index=person)
    data = game.engine.view(game.state, person)["data"]
    cards = game.state["cards"]

    def name_of(cid):
        kind = base_id(cid)
        return (cards["hosts"].get(kind) or cards["focus"][kind])["name"]

    def check(page):
        rows = page.locator(".field-row")
        assert rows.count() == 2
        for r, slots in enumerate((data["field"][:4], data["field"][4:])):
            assert rows.nth(r).locator(".pic").count() == 4, "each row has four places"
            drawn = rows.nth(r).locator(".pic[data-card-id]").evaluate_all("els => els.map(e => e.dataset.name)")
            assert drawn == [name_of(c) for c in slots if c]
        for d, roll in enumerate(data["rolls"]):
            assert page.locator(f'.dice li[data-seat="{d}"] svg.pic-die').count() == len(roll)
        for i, s in enumerate(data["seats"]):
            club = page.locator(f'.club[data-seat="{i}"]')
            assert f"{s['hearts']} ♥" in club.locator("h3").inner_text()
            drawn = names_in(page, f'.club[data-seat="{i}"] .club-row .pic')
            for boy, bond in s["club"].items():
                assert any(n.startswith(cards["hosts"][boy]["name"]) for n in drawn)
                if bond > 1:
                    label = club.locator(f'.pic[data-card-id="{boy}"] svg').get_attribute("aria-label")
                    assert f"bond {bond}" in label
            agendas = names_in(page, f'.club[data-seat="{i}"] .agendas .pic')
            assert agendas == [english(a["name"]) for a in s["agendas"]]
            if i != person:  # another seat's agendas: face down, unnamed, unless completed
                hidden = {cards["agendas"][a]["name"] for a in game.state["seats"][i]["agendas"]} - {
                    english(a["name"]) for a in s["agendas"]
                }
                assert not any(name in club.inner_html() for name in hidden)

    url = links.url_for(seat)
    shoot(browser, artifacts, url, "cafe_romantica", check)
    ctx, page = open_at(browser, url, 375)
    version = game.version
    answered = tap_to_answer(page) if page.locator("form.prompt input[type=radio]").count() else None
    if answered is None:  # a sealed bid or a draft: fill the numbers in the form
        for box in page.locator("form.prompt input[type=number]").all():
            box.fill(box.get_attribute("min") or "0")
        page.locator("form.prompt button[type=submit]").click()
        page.wait_for_load_state("domcontentloaded")
    game.refresh_from_db()
    assert game.version > version, "the answer was played"
    ctx.close()
