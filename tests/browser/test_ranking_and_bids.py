"""Café Romantica's draft ranked by dragging and by keys, and its sealed bids by − and + steppers,
in Chromium on a phone (390x844) and a desktop (1280x800).

The draft ranks managers and agendas: a row is dragged by the mouse onto another place, and moved
by its ▲ ▼ buttons with the arrow keys, Home and End; a live region says the row's new place and the
number boxes (the form without script) follow, so Send posts the ranking the page shows. A bid
starts at 0 and moves by − and +, each at least 44x44 px, within its bounds, and apart from Send.
axe-core finds nothing serious or critical on either form.
"""

from __future__ import annotations

import pytest

from games import links
from games.actions import play
from games.models import Game
from tests.browser.flows import submit
from tests.browser.layout import BOXES, assert_no_overlap
from tests.browser.test_pictures import check_axe

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {390: 844, 1280: 800}
ROWS = """(list) => [...document.querySelectorAll(`form.prompt ul.ranks`)[list].querySelectorAll(':scope > li.rank')]
  .map(li => [li.querySelector('input').name.split('.').pop(), li.querySelector('input').value])"""
TOP = "() => { window.scrollTo(0, 0); document.querySelector('#decision').scrollTop = 0; }"
BOX = "e => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }"


def _rows(page, list_index: int) -> list[str]:
    """The option ids of a ranking in the order shown; each row's number box must say its place."""
    rows = page.evaluate(ROWS, list_index)
    assert [int(v) for _, v in rows] == list(range(1, len(rows) + 1)), f"the boxes do not follow the rows: {rows}"
    return [i for i, _ in rows]


def _said(page, list_index: int) -> str:
    return page.locator("form.prompt .rank-say").nth(list_index).inner_text()


def _drag(page, list_index: int, row: int, onto: int) -> None:
    """Drag a row by its grip with the mouse, onto another row's place."""
    rows = page.locator("form.prompt ul.ranks").nth(list_index).locator(":scope > li.rank")
    grip, target = rows.nth(row).locator(".grip"), rows.nth(onto)
    target.scroll_into_view_if_needed()
    grip.scroll_into_view_if_needed()
    g, t = grip.bounding_box(), target.bounding_box()
    page.mouse.move(g["x"] + g["width"] / 2, g["y"] + g["height"] / 2)
    page.mouse.down()
    page.mouse.move(g["x"] + g["width"] / 2, t["y"] + t["height"] * (0.2 if onto < row else 0.8), steps=12)
    page.mouse.up()


def _thumb_sized(page, selector: str) -> None:
    for _x, _y, w, h in page.eval_on_selector_all(selector, f"els => els.map({BOX})"):
        assert w >= 44 and h >= 44, f"{selector} is {w}x{h} px, smaller than a thumb"


def _ana(game: Game) -> str:
    return links.url_for(game.seats.get(index=0))


def test_the_draft_is_ranked_by_dragging_and_by_keys_and_bids_by_steppers(
    browser, live_server, make_game, settings, artifacts
):
    settings.SITE_URL = live_server.url
    game = make_game(title="cafe_romantica", seats=["ana@example.com", "ben@example.com", None])
    managers, agendas = (len(part.options) for _, part in game.engine.prompts(game.state)[0].parts)
    errors: list[str] = []
    for width, height in SIZES.items():
        ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=width < 500)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(_ana(game))
        assert page.locator("form.prompt ul.ranks.sortable").count() == 2
        _thumb_sized(page, "form.prompt .ranks .move")
        _thumb_sized(page, "form.prompt .ranks .grip")

        # by mouse: the third manager dragged to the top, then the first agenda below the third
        before = _rows(page, 0)
        _drag(page, 0, 2, 0)
        assert _rows(page, 0) == [before[2], before[0], before[1], *before[3:]]
        assert _said(page, 0).endswith(f": now 1 of {managers}.")
        before = _rows(page, 1)
        _drag(page, 1, 0, 2)
        assert _rows(page, 1) == [before[1], before[2], before[0], *before[3:]]

        # by keys: the agenda now first moves down twice with the arrow key, then to the end
        moving = _rows(page, 1)[0]
        down = page.locator("form.prompt ul.ranks").nth(1).locator(":scope > li.rank").first.locator(".move.down")
        down.focus()
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowDown")
        assert _rows(page, 1).index(moving) == 2
        assert _said(page, 1).endswith(f": now 3 of {agendas}.")
        focused = page.evaluate("document.activeElement.closest('li.rank').querySelector('input').name")
        assert focused.endswith("." + moving), "the focus stays on the row that moved"
        page.keyboard.press("ArrowUp")
        assert _rows(page, 1).index(moving) == 1
        page.keyboard.press("End")
        assert _rows(page, 1)[-1] == moving
        page.keyboard.press("Home")
        assert _rows(page, 1)[0] == moving

        page.evaluate(TOP)
        # on a desktop the decision sticks beside the table and scrolls inside: a long form is
        # clipped by it, which the boxes do not know, so the decision is compared, not its form
        assert_no_overlap(page, BOXES.replace(", main form.prompt", ""), where=f"the draft at {width}px")
        page.locator("#decision").screenshot(path=str(artifacts / f"ranking_{width}.png"))
        if width < 500:
            check_axe(page)
            ctx.close()
            continue
        shown = (_rows(page, 0), _rows(page, 1))
        submit(page, 'form.prompt button[type="submit"]')
        assert "Nothing was played" not in page.content()
        sent = game.events.filter(kind="answer", seat=0).latest("seq").payload["answer"]
        assert (sent["manager"], sent["agendas"]) == shown, "Send posted another ranking than the page showed"
        ctx.close()

    # Ben drafts through the write path; the bot drafts itself: then everyone bids
    game.refresh_from_db()
    ben = game.engine.prompts(game.state)[1]
    play.submit(game.pk, 1, ben.random_answer(__import__("random").Random(1)), game.version, via="web")
    game.refresh_from_db()
    bid = game.engine.prompts(game.state).get(0)
    assert bid is not None and bid.kind == "composite" and bid.parts[0][1].kind == "number", bid
    high = bid.parts[0][1].high
    for width, height in SIZES.items():
        ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=width < 500)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(_ana(game))
        boxes = page.locator('form.prompt .stepper input[type="number"]')
        assert boxes.count() == len(bid.parts)
        assert all(v == "0" for v in boxes.evaluate_all("els => els.map(e => e.value)")), "a bid starts at 0"
        _thumb_sized(page, "form.prompt .stepper button.step")
        first = page.locator("form.prompt .stepper").first
        minus, plus = first.locator('button[data-step="-1"]'), first.locator('button[data-step="1"]')
        assert minus.is_disabled(), "− cannot go below the lowest bid"
        for _ in range(high):
            plus.click()
        assert boxes.first.input_value() == str(high) and plus.is_disabled(), "+ stops at the ♥ the seat has"
        minus.click()
        assert boxes.first.input_value() == str(high - 1)
        # Send stands apart from the steppers: at least 16 px from the nearest one, overlapping none
        gap = page.evaluate(
            """() => {
          const send = document.querySelector('form.prompt button[type="submit"]').getBoundingClientRect();
          return Math.min(...[...document.querySelectorAll('form.prompt .stepper button.step')].map(b => {
            const r = b.getBoundingClientRect();
            const dx = Math.max(r.left - send.right, send.left - r.right, 0);
            const dy = Math.max(r.top - send.bottom, send.top - r.bottom, 0);
            return Math.hypot(dx, dy);
          }));
        }"""
        )
        assert gap >= 16, f"Send is {gap:.0f} px from a stepper at {width}px"
        page.evaluate(TOP)
        assert_no_overlap(page, where=f"the bids at {width}px")
        page.locator("#decision").screenshot(path=str(artifacts / f"bids_{width}.png"))
        if width < 500:
            check_axe(page)
            ctx.close()
            continue
        submit(page, 'form.prompt button[type="submit"]')
        assert "Nothing was played" not in page.content()
        sent = game.events.filter(kind="answer", seat=0).latest("seq").payload["answer"]
        assert sent == {"1": high - 1, **{name: 0 for name, _ in bid.parts[1:]}}, sent
        ctx.close()
    assert not errors, errors
