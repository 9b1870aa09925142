"""Café's seat page in headless Chromium: a person and a bot play four rounds through the real pages
(the rest of the game through the write path, and its end in the browser).

Cards are placed by clicking the pictured business area (and turning the card with the Turn button),
draft picks and actions go through the form; after every step the picture is checked against the
state (the card on top and the cubes of every cell). Screenshots at 375 and 1280 px go to
test-artifacts/. Also: the plain list of placements works without JavaScript, and axe-core finds
no serious or critical problem on the page while placing and while acting.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from games import links
from games.actions import organise, play
from games.models import DeliveredMail, Game, Seat
from tests.browser.flows import one_tap, submit
from tests.support.play import finish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ANA = "ana@example.com"
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


def _start(organiser, settings, live_server, name="Café evening") -> Game:
    settings.MAILERS = {"default": {"BACKEND": "games.mail.LocalMailboxBackend"}}
    settings.SITE_URL = live_server.url
    game = organise.create_game(organiser, "cafe", name, {"first_master": "first"}, [ANA, None])
    organise.start_game(game)
    game.refresh_from_db()
    return game


def _ana_url(game: Game) -> str:
    return links.url_for(Seat.objects.get(game=game, index=0))


def _expected_area(state: dict, seat: int) -> dict[str, list]:
    """Each cell of a seat's area: [card on top, cube count, cube colour], straight from the state."""
    s = state["seats"][seat]
    owners: dict[str, str] = {}
    for cid, r, c, rot in s["stack"]:
        from games.titles.cafe.placement import cells_of

        for k in cells_of(r, c, rot):
            owners[k] = cid
    out = {}
    for k in s["area"]:
        colour, n = s["cubes"].get(k, ("", 0))
        out[k] = [owners[k], n, colour]
    return out


PICTURED = """() => {
  const out = {};
  document.querySelectorAll('svg.cafe-area.mine g.cafe-cell[data-row]').forEach(g => {
    out[g.dataset.row + ',' + g.dataset.col] = [g.dataset.card, +g.dataset.cubes, g.dataset.cubeColour];
  });
  return out;
}"""


def _check_picture(page, game: Game) -> None:
    game.refresh_from_db()
    pictured = page.evaluate(PICTURED)
    assert pictured == _expected_area(game.state, 0), "the pictured area differs from the state"
    # every cube drawn as a small square (up to 8 a cell) on the cell that holds it
    for k, (_, n, _) in pictured.items():
        r, c = k.split(",")
        drawn = page.locator(f'svg.cafe-area.mine g.cafe-cell[data-row="{r}"][data-col="{c}"] g.cube').count()
        assert drawn == (n if n <= 8 else 7), (k, n, drawn)


def _options(page) -> list[str]:
    return page.eval_on_selector_all('form.prompt input[name="answer"]', "els => els.map(e => e.value)")


def _send(page) -> None:
    page.locator('form.prompt button[type="submit"]').click()
    page.wait_for_load_state("domcontentloaded")
    assert "Nothing was played" not in page.content()


def _tap_or_tick_and_send(page, option) -> None:
    """A single choice is sent by tapping its option (static/titles/tap.js); anything else is ticked, then sent."""
    if one_tap(page):
        submit(page, option)
        assert "Nothing was played" not in page.content()
    else:
        option.check()
        _send(page)


def _place_by_clicks(page, pick: int) -> str:
    """Turn the card until the wanted placement's rotation shows, then click its top-left square."""
    data = json.loads(page.locator("#cafe-data").text_content())
    places = data["placements"]
    target = places[pick % len(places)]
    grid = page.locator("#cafe-grid")
    for _ in range(4):
        if grid.get_attribute("data-rot") == str(target["rot"]):
            break
        page.locator("#cafe-turn").click()
    assert grid.get_attribute("data-rot") == str(target["rot"])
    assert page.locator("#cafe-hand-card svg").get_attribute("data-rot") == str(target["rot"])
    square = page.locator(f'svg.cafe-area.mine [data-row="{target["row"]}"][data-col="{target["col"]}"]').first
    square.scroll_into_view_if_needed()
    box = square.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    # hovering previews the footprint of that placement: 6 squares in the layer above the grid
    assert page.locator(f'.cafe-layer g.pv[data-placement="{target["id"]}"] g.cafe-cell').count() == 6
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert page.locator('form.prompt input[name="answer"]:checked').get_attribute("value") == target["id"]
    assert page.locator(f'.cafe-layer g.pv.chosen[data-placement="{target["id"]}"]').count() == 1
    return target["id"]


def test_a_person_and_a_bot_play_cafe_placing_cards_by_clicks(browser, live_server, organiser, settings, artifacts):
    game = _start(organiser, settings, live_server)
    first = DeliveredMail.objects.filter(to=ANA).exclude(subject__startswith="You are playing").first()
    link = re.search(r"(http://\S+/play/\S+/)", first.body_text).group(1)
    desk = browser.new_context(viewport={"width": 1280, "height": 900})
    page = desk.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(link)
    placed = acted = 0
    keyboard_tried = shot = act_shot = False
    for _ in range(200):
        game.refresh_from_db()
        if game.status == Game.Status.ENDED or (game.state["round"] >= 5 and shot and act_shot):
            break  # four rounds by clicks show every kind of step; the rest is the same pages again
        if page.locator("form.prompt").count() == 0:
            page.goto(_ana_url(game))
            continue
        _check_picture(page, game)
        ids = _options(page)
        if ids[0].startswith("card") and "@" in ids[0]:  # a placement
            if not keyboard_tried:  # keyboard: focus the grid, Enter chooses the placement at the anchor, R turns
                grid = page.locator("#cafe-grid")
                grid.focus()
                page.keyboard.press("Enter")
                assert page.locator('form.prompt input[name="answer"]:checked').get_attribute("value") == ids[0]
                before = grid.get_attribute("data-rot")
                page.keyboard.press("r")
                page.keyboard.press("ArrowDown")
                assert grid.get_attribute("data-rot") != before
                keyboard_tried = True
            chosen = _place_by_clicks(page, pick=placed * 7 + 3)
            if game.state["round"] == 4 and not shot:
                page.screenshot(path=str(artifacts / "cafe_place_1280.png"), full_page=True)
                phone = browser.new_context(viewport={"width": 375, "height": 800}, is_mobile=True, has_touch=True)
                p2 = phone.new_page()
                p2.goto(page.url)
                p2.wait_for_selector("#cafe-turn:not([hidden])")
                p2.screenshot(path=str(artifacts / "cafe_place_375.png"), full_page=True)
                width = p2.evaluate("document.documentElement.scrollWidth")
                assert width <= 375, f"the placing page scrolls sideways on a phone ({width}px)"
                phone.close()
                shot = True
            _send(page)
            game.refresh_from_db()
            assert any(entry[0] == chosen.split("@")[0] for entry in game.state["seats"][0]["stack"])
            placed += 1
        elif "stop" in ids:  # an action: up to two a round, then stop
            s = game.state["seats"][0]
            spent = s["actions"] - s["left"]
            action = next((i for i in ids if not i.startswith(("clear", "stop"))), "stop")
            if spent >= 2:
                action = "stop"
            if action != "stop":
                # hovering the option lights the squares it names on the picture
                data = json.loads(page.locator("#cafe-data").text_content())
                cells = next(a["cells"] for a in data["actions"] if a["id"] == action)
                page.locator(f'form.prompt input[value="{action}"]').locator("xpath=..").hover()
                assert page.locator("svg.cafe-area.mine .cafe-layer rect.hl").count() == len(cells)
                if game.state["round"] >= 3 and not act_shot:
                    page.screenshot(path=str(artifacts / "cafe_act_1280.png"), full_page=True)
                    act_shot = True
                acted += 1
            _tap_or_tick_and_send(page, page.locator(f'form.prompt input[value="{action}"]'))
        else:  # a draft pick, through the form (in round 2 by tapping a card on offer, which ticks its radio)
            pickable = page.locator(".cafe-offer-card.can-pick svg")
            if game.state["round"] == 2 and pickable.count():
                offer = pickable.first
                offer.click()
                picks = offer.get_attribute("data-picks").split()
                assert page.locator('form.prompt input[name="answer"]:checked').get_attribute("value") == picks[0]
                page.screenshot(path=str(artifacts / "cafe_draft_1280.png"), full_page=True)
                _send(page)
            else:
                _tap_or_tick_and_send(page, page.locator('form.prompt input[name="answer"]').first)
    game.refresh_from_db()
    # every card on Ana's area but the initial one was placed by clicks on the picture
    assert placed == len(game.state["seats"][0]["stack"]) - 1 and placed >= 3, placed
    assert acted >= 5 and not errors, (acted, errors)
    finish(game)  # the rest of the game through the write path, to see the end in the browser
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED, "the game did not reach its end"
    page.goto(_ana_url(game))
    _check_picture(page, game)
    assert page.locator("table.scores").count() == 1
    page.screenshot(path=str(artifacts / "cafe_final_1280.png"), full_page=True)
    phone_ctx = browser.new_context(viewport={"width": 375, "height": 800}, is_mobile=True)
    phone = phone_ctx.new_page()
    phone.goto(page.url)
    phone.screenshot(path=str(artifacts / "cafe_final_375.png"), full_page=True)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the final page scrolls sideways on a phone ({width}px)"
    phone_ctx.close()
    desk.close()
    final = DeliveredMail.objects.filter(to=ANA, subject__startswith="Game over").get()
    assert "Final scores" in final.body_text


def _to_placement(game: Game) -> Game:
    """Play the draft through the service (the bot picks by itself) until Ana must place her card."""
    for _ in range(10):
        game.refresh_from_db()
        prompts = game.engine.prompts(game.state)
        if game.state["phase"] == "play" and 0 in prompts:
            return game
        play.submit(game.pk, 0, prompts[0].options[0].id, game.version, via="web")
    raise AssertionError("Ana was never asked to place a card")


def test_without_javascript_a_card_is_placed_from_the_plain_list(browser, live_server, organiser, settings):
    game = _to_placement(_start(organiser, settings, live_server))
    ctx = browser.new_context(viewport={"width": 375, "height": 800}, java_script_enabled=False)
    page = ctx.new_page()
    page.goto(_ana_url(game))
    assert page.locator("svg.cafe-area.mine").count() == 1  # the picture is drawn by the server
    assert page.locator("#cafe-turn").is_hidden() and page.locator(".cafe-nojs").is_visible()
    radios = page.locator('form.prompt input[name="answer"]')
    assert radios.count() == len(game.engine.prompts(game.state)[0].options) > 1
    label = radios.nth(1).locator("xpath=..").inner_text()
    assert re.search(r"Top-left at row -?\d+, col -?\d+, (not turned|turned \d+°)", label), label
    wanted = radios.nth(1).get_attribute("value")
    radios.nth(1).check()
    page.locator('form.prompt button[type="submit"]').click()
    page.wait_for_load_state("domcontentloaded")
    game.refresh_from_db()
    card, rest = wanted.split("@")
    r, c = re.match(r"r(-?\d+)c(-?\d+)", rest).groups()
    assert [card, int(r), int(c), int(rest.split(":rot")[1])] in [list(e) for e in game.state["seats"][0]["stack"]]
    assert game.state["seats"][0]["stage"] in ("act", "done")
    ctx.close()


def test_axe_finds_no_serious_problem_while_placing_and_acting(browser, live_server, organiser, settings):
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci` in the project (package.json lists axe-core)")
    game = _to_placement(_start(organiser, settings, live_server))
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    for stage in ("placing", "acting"):
        page.goto(_ana_url(game))
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
        bad = [
            f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in result["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert not bad, f"axe on the {stage} page: " + "; ".join(bad)
        if stage == "placing":
            _place_by_clicks(page, 0)
            _send(page)
            assert "stop" in _options(page), "the next question is an action"
    ctx.close()
