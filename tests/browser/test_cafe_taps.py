"""Café played by tapping the grid only, on a phone (390x844, touch) and a desktop (1280 wide).

The draft pick, the placement and every action are chosen by taps on the pictures and the buttons
beside them, never by the option list; before each Send the words near Send must be the chosen
option's own words, and after it the game must have moved on. Also: a tap on a square of row -1
puts the card's top-left corner on that square (it used to choose a nearby placement, even one
on row -2). Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import json
import re

import pytest

from games.messages import Reading, say
from games.models import Game
from tests.browser.test_cafe_page import _ana_url, _start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PREFER = ("deliver", "roast", "dry", "produce")  # what the taps try first: it moves cubes on
ALL_KINDS = {"produce", "dry", "roast", "deliver", "store", "clear", "stop"}


def _touch(page, locator) -> None:
    """A tap on a touch screen, a click with a mouse."""
    if page.viewport_size["width"] < 600:
        locator.tap()
    else:
        locator.click()


def _client(page) -> dict:
    return json.loads(page.locator("#cafe-data").text_content())


def _cell(r: int | str, c: int | str) -> str:
    return f'svg.cafe-area.mine g.cafe-cell[data-row="{r}"][data-col="{c}"]'


def _target(on: str) -> str:
    """The selector of what the last tap of an option lands on."""
    if on.startswith("shop:"):
        return f'svg.cafe-area.mine g.shop[data-shop="{on[5:]}"]'
    if on in ("warehouse", "stop", "clear"):
        return f'#cafe-acts button[data-tap="{on}"]'
    r, c = re.fullmatch(r"r(-?\d+)c(-?\d+)", on).groups()
    return _cell(r, c)


def _words(game: Game, option_id: str) -> str:
    """What the page must say near Send for this option: its label and detail, as the prompt has them."""
    game.refresh_from_db()
    option = next(o for o in game.engine.prompts(game.state)[0].options if o.id == option_id)
    label, detail = (say(words, Reading(title="cafe")) for words in (option.label, option.detail))
    return f"Send will: {label}" + (f" ({detail})" if detail else "")


def _checked(page) -> str | None:
    box = page.locator('form.prompt input[name="answer"]:checked')
    return box.get_attribute("value") if box.count() else None


def _send(page, game: Game) -> None:
    """Tap Send; the game must have moved on (a new version, no refusal)."""
    before = game.version
    with page.expect_navigation(wait_until="domcontentloaded"):
        _touch(page, page.locator('form.prompt button[type="submit"]'))
    assert "Nothing was played" not in page.content()
    game.refresh_from_db()
    assert game.version > before, "Send did not advance the game"


def _pick_by_tap(page, game: Game) -> str:
    card = page.locator("button.cafe-pick:visible").first  # a card's pick, or Pass when none can be paid
    wanted = card.get_attribute("data-pick")
    _touch(page, card)
    assert _checked(page) == wanted
    assert page.locator("#cafe-will").inner_text() == _words(game, wanted)
    return wanted


SQUARES_ABOVE = """() => [...document.querySelectorAll('svg.cafe-area.mine [data-row="-1"]')].map(e => {
  const b = e.getBoundingClientRect();
  return [+e.dataset.col, b.x + b.width / 2, b.y + b.height / 2];
})"""
AFTER_TAP = """() => [document.querySelector('form.prompt input[name="answer"]:checked')?.value || null,
  document.querySelector('#cafe-say').textContent]"""


def _corner_is_the_tapped_square(page) -> None:
    """Every square of row -1 in every turn of the card: a tap there chooses the placement whose
    top-left corner is that square, or (when none is legal) changes nothing and says why. A tap used
    to choose the nearest placement covering the square, so row -1 could give a corner on row -2."""
    places = _client(page)["placements"]
    for p in places:
        p["corners"] = [{"row": c["row"], "col": c["col"]} for c in p["cells"]]
    anchored = {(p["row"], p["col"], p["rot"]): p["id"] for p in places}
    grid = page.locator("#cafe-grid")
    nearby = exact = 0
    for _ in sorted({p["rot"] for p in places}):
        page.locator('svg.cafe-area.mine [data-row="-1"]').first.scroll_into_view_if_needed()
        rot = int(grid.get_attribute("data-rot"))
        before = _checked(page)
        for col, x, y in page.evaluate(SQUARES_ABOVE):
            page.touchscreen.tap(x, y)
            checked, said = page.evaluate(AFTER_TAP)
            want = anchored.get((-1, col, rot))
            if want:
                exact += 1
                assert checked == want, (col, rot, checked)
            else:
                # a placement of this turn covering the square: what a tap used to choose
                nearby += any(p["rot"] == rot and {"row": -1, "col": col} in p["corners"] for p in places)
                assert checked == before, (col, rot, checked)
                assert "top-left corner cannot go here" in said, said
            before = checked
        page.locator("#cafe-turn").tap()
    assert exact and nearby, (exact, nearby)


def _place_by_tap(page, game: Game, n: int) -> str:
    places = _client(page)["placements"]
    target = places[(n * 7 + 3) % len(places)]
    grid = page.locator("#cafe-grid")
    for _ in range(4):
        if grid.get_attribute("data-rot") == str(target["rot"]):
            break
        _touch(page, page.locator("#cafe-turn"))
    _touch(page, page.locator(f'svg.cafe-area.mine [data-row="{target["row"]}"][data-col="{target["col"]}"]').first)
    assert _checked(page) == target["id"]
    assert page.locator("#cafe-will").inner_text() == _words(game, target["id"])
    return target["id"]


def _act_by_taps(page, game: Game, done: list[str], keys: bool = False) -> dict:
    """Choose the most useful action (or a Clear, Stop or Store once) by its taps, check the words near
    Send. With `keys`, each square is reached by focus and pressed with Enter instead."""

    def touch(loc) -> None:
        if not keys:
            _touch(page, loc)
            return
        loc.focus()
        ring = loc.evaluate(
            "e => { const r = e.querySelector(':scope > .ring'); return r && getComputedStyle(r).stroke; }"
        )
        assert ring in (None, "") or ring != "none", "a focused square shows no focus ring"
        page.keyboard.press("Enter")

    client = _client(page)
    taps = client["taps"]
    by_kind = {t["kind"]: t for t in reversed(taps)}  # the first option of each kind
    kind = next((k for k in PREFER if k in by_kind), "stop")
    loaded = sum(token.startswith("roast:") for token in client["picks"].values())
    left = game.state["seats"][0]["left"]
    if "store" not in done and "store" in by_kind and ("deliver" in done or loaded > 1):
        kind = "store"  # once: a roast square, then the Warehouse
    elif "clear" not in done and "clear" in by_kind and "deliver" in done:
        kind = "clear"  # once: Clear, then the square
    elif "stop" not in done and kind == "produce" and "produce" in done and left == 1:
        kind = "stop"  # once: give up the last action of a round
    t = by_kind.get(kind) or by_kind["stop"]
    cells = {token: cell for cell, token in reversed(client["picks"].items())}
    for token in t["pick"]:
        if token == "clear":
            touch(page.locator(_target("clear")))
        else:
            r, c = re.fullmatch(r"r(-?\d+)c(-?\d+)", cells[token]).groups()
            touch(page.locator(_cell(r, c)))
            assert page.locator(f'.cafe-taps [data-mark="{cells[token]}"]').count() == 1, "the selection is not marked"
            assert _checked(page) is None, "a selection alone is not an answer yet"
    touch(page.locator(_target(t["on"][0])))
    assert _checked(page) == t["id"], (t, _checked(page))
    assert page.locator("#cafe-will").inner_text() == _words(game, t["id"])
    return t


def test_cafe_is_played_by_taps_only_on_a_phone_and_a_desktop(browser, live_server, organiser, settings, artifacts):
    game = _start(organiser, settings, live_server, name="Café by taps")
    pages = {}
    for width, height in ((390, 844), (1280, 900)):
        ctx = browser.new_context(
            viewport={"width": width, "height": height}, has_touch=width < 600, is_mobile=width < 600
        )
        pages[width] = ctx.new_page()
    errors: list[str] = []
    for p in pages.values():
        p.on("pageerror", lambda e: errors.append(str(e)))
    kinds: list[str] = []
    placed = 0
    shots: set[str] = set()
    corner_checked = False
    for _ in range(80):
        game.refresh_from_db()
        rnd = game.state["round"]
        if game.status == Game.Status.ENDED or rnd > 6 or (rnd > 3 and ALL_KINDS <= set(kinds)):
            break
        page = pages[390 if rnd <= 2 else 1280]
        width = 390 if rnd <= 2 else 1280
        if page.url == "about:blank" or page.locator("form.prompt").count() == 0:
            page.goto(_ana_url(game))
        if page.locator("form.prompt").count() == 0:  # the bot is still to answer
            page.wait_for_timeout(100)
            continue
        ids = page.eval_on_selector_all('form.prompt input[name="answer"]', "els => els.map(e => e.value)")
        if "stop" in ids:
            t = _act_by_taps(page, game, kinds, keys=width == 1280 and len(kinds) % 2 == 0)
            kinds.append(t["kind"])
            if f"act{width}" not in shots and t["pick"]:
                page.screenshot(path=str(artifacts / f"cafe_taps_act_{width}.png"), full_page=width > 600)
                shots.add(f"act{width}")
        elif "@" in ids[0]:
            if not corner_checked:
                _corner_is_the_tapped_square(page)
                corner_checked = True
            _place_by_tap(page, game, placed)
            if placed == 0:
                page.locator(".cafe-place").screenshot(path=str(artifacts / f"cafe_taps_place_{width}.png"))
            placed += 1
        else:
            _pick_by_tap(page, game)
        _send(page, game)
    assert game.state["round"] >= 4 or game.status == Game.Status.ENDED, "three rounds were not played by taps"
    assert ALL_KINDS <= set(kinds), kinds
    assert placed >= 4 and corner_checked and not errors, (placed, errors)
    for p in pages.values():
        p.context.close()
