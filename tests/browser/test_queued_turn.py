"""A Café turn queued by taps and sent at once, in Chromium; and the "Turn the card" control by the
grid on a phone.

Ana and Ben play; the draft is played through the write path, and there is one brown cube left in
the supply (tests/support/cafe_turns.py). On a phone (390x844, touch) Ana places her card by taps
and queues it, then queues a brown produce: after each, her area is drawn as the pure engine says
it will be, and nothing is played. Ben's produce takes the last brown cube first; her Send then
plays nothing and the page says which step and why. On a desktop (1280x800) she queues her
placement and actions again, taps one more, and one Send plays them all. axe-core stays clean
with a queue on the page.
"""

from __future__ import annotations

import random
import re

import pytest

from games.models import Event, Game
from tests.browser.flows import submit
from tests.browser.test_cafe_page import PICTURED, _ana_url, _expected_area
from tests.browser.test_cafe_taps import _cell, _client, _target, _touch
from tests.browser.test_pictures import check_axe
from tests.support.cafe_turns import ANA_BROWN, BEN_BROWN, keeping, scarce_brown, to_play_phase

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PEOPLE = ["ana@example.com", "ben@example.com"]


def _start(organiser, settings, live_server) -> Game:
    from games.actions import organise

    settings.MAILERS = {"default": {"BACKEND": "games.mail.LocalMailboxBackend"}}
    settings.SITE_URL = live_server.url
    game = organise.create_game(organiser, "cafe", "Queued café", {"first_master": "first"}, PEOPLE)
    organise.start_game(game)
    return scarce_brown(to_play_phase(game))


def _after(game: Game, answers: list[str]) -> dict:
    """Ana's area as the pure engine makes it after these answers."""
    state = game.state
    for answer in answers:
        state = game.engine.apply(state, 0, answer, random.Random(0))
    return _expected_area(state, 0)


def _roomy(game: Game) -> str:
    """Ana's placement that leaves her the most actions, with something to produce."""
    engine = game.engine

    def room(option: str) -> tuple[int, int]:
        after = engine.apply(game.state, 0, option, random.Random(0))
        acts = engine.prompts(after)[0].options
        return after["seats"][0]["actions"], sum(o.id.startswith("produce") for o in acts)

    return max((o.id for o in engine.prompts(game.state)[0].options), key=room)


def _checked(page) -> str | None:
    box = page.locator('form.prompt input[name="answer"]:checked')
    return box.get_attribute("value") if box.count() else None


def _place(page, placement: str) -> None:
    """Turn the card to the placement's turn, then tap the square its top-left corner goes on."""
    row, col, rot = re.fullmatch(r"card\d+@r(-?\d+)c(-?\d+):rot(\d+)", placement).groups()
    for _ in range(4):
        if page.locator("#cafe-grid").get_attribute("data-rot") == rot:
            break
        _touch(page, page.locator("#cafe-turn"))
    _touch(page, page.locator(f'svg.cafe-area.mine [data-row="{row}"][data-col="{col}"]').first)
    assert _checked(page) == placement


def _act(page, option: str) -> None:
    """Choose an action by its taps (the cubes or Clear first, then where they go)."""
    client = _client(page)
    tap = next(t for t in client["taps"] if t["id"] == option)
    cells = {token: cell for cell, token in client["picks"].items()}
    for token in tap["pick"]:
        target = (
            _target("clear") if token == "clear" else _cell(*re.fullmatch(r"r(-?\d+)c(-?\d+)", cells[token]).groups())
        )
        _touch(page, page.locator(target))
    _touch(page, page.locator(_target(tap["on"][0])))
    assert _checked(page) == option


def _queue(page, game: Game, queued: list[str]) -> None:
    """Queue the chosen step; the area is then drawn as it will be after all of them, and nothing was played."""
    version = game.version
    steps = len(queued)
    _touch(page, page.locator("#cafe-queue-add"))
    page.wait_for_function("n => document.querySelectorAll('#cafe-queue ol.cafe-queued > li').length === n", arg=steps)
    assert page.evaluate(PICTURED) == _after(game, queued), "the area is not drawn as it will be after the queue"
    assert page.locator("section.cafe-tbl.previewing").count() == 1
    game.refresh_from_db()
    assert game.version == version, "queueing a step played something"


def test_a_cafe_turn_is_queued_by_taps_and_sent_at_once(browser, live_server, organiser, settings, artifacts):
    game = _start(organiser, settings, live_server)
    url = _ana_url(game)
    errors: list[str] = []
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True).new_page()
    phone.set_default_timeout(10000)
    phone.on("pageerror", lambda e: errors.append(str(e)))
    phone.goto(url)

    # "Turn the card" sits by the grid on a phone: right under it, both in view together
    grid, turn = phone.locator("#cafe-grid").bounding_box(), phone.locator("#cafe-turn").bounding_box()
    assert 0 <= turn["y"] - (grid["y"] + grid["height"]) <= 24, (grid, turn)
    assert turn["y"] + turn["height"] - grid["y"] <= 844, "the grid and Turn do not fit one screen"
    assert turn["width"] >= 44 and turn["height"] >= 44

    # on the phone: the placement, then a brown produce on the last brown cube
    placed = keeping(game, 0, ANA_BROWN)
    version_before = game.version
    _place(phone, placed)
    _queue(phone, game, [placed])
    # picked from the option list by a tap: with a queue on the page a tap picks a step, it sends nothing
    row = phone.locator(f'form.prompt input[value="produce@{ANA_BROWN}"]').locator("xpath=..")
    _touch(phone, row.locator(".label"))
    phone.wait_for_timeout(300)
    game.refresh_from_db()
    assert game.version == version_before and _checked(phone) == f"produce@{ANA_BROWN}", "a tap sent the turn"
    label = row.locator(".label").inner_text()
    _queue(phone, game, [placed, f"produce@{ANA_BROWN}"])
    phone.locator("#cafe-queue").screenshot(path=str(artifacts / "cafe_queue_390.png"))
    check_axe(phone)

    # Ben's own turn takes the last brown cube first (through the write path)
    from games.actions import play

    play.submit_steps(game.pk, 1, [keeping(game, 1, BEN_BROWN), f"produce@{BEN_BROWN}"], game.version, via="web")
    game.refresh_from_db()
    seen = game.version
    submit(phone, "#cafe-queue-send")
    said = phone.locator("#decision .msg.error").inner_text()
    assert said == (
        f"Your 2nd step, {label}, was refused: the table changed since you chose it (another player moved), "
        "and it is no longer possible. Nothing was played."
    ), said
    game.refresh_from_db()
    assert game.version == seen and game.state["seats"][0]["stage"] == "place", "a refused turn played something"

    # on a desktop: the placement and actions again, the last one chosen and sent with the queue
    desk = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    desk.set_default_timeout(10000)
    desk.on("pageerror", lambda e: errors.append(str(e)))
    desk.goto(url)
    game.refresh_from_db()
    placed = _roomy(game)
    queued = [placed]
    _place(desk, placed)
    _queue(desk, game, queued)
    while len(queued) < 3 and desk.locator("#cafe-queue-add").count():
        option = next(t["id"] for t in _client(desk)["taps"] if t["id"] != "stop")
        _act(desk, option)
        queued.append(option)
        _queue(desk, game, queued)
    sent = list(queued)
    if desk.locator("#cafe-queue-add").count():  # one more chosen by taps, sent with the queue
        taps = _client(desk)["taps"]
        sent.append(next((t["id"] for t in taps if t["id"] != "stop"), "stop"))
        _act(desk, sent[-1])
    else:
        assert desk.locator("#cafe-queue .hint").inner_text().startswith("That is the last step of your turn")
    assert desk.locator('form.prompt button[type="submit"]').inner_text() == f"Send my turn ({len(sent)} steps)"
    assert desk.locator("#cafe-will").inner_text().startswith("Send will play, in order: 1. ")
    desk.locator("section.cafe-tbl").screenshot(path=str(artifacts / "cafe_queue_1280.png"))
    submit(desk, 'form.prompt button[type="submit"]')
    assert desk.locator("#decision .msg.success").inner_text() == f"Played your {len(sent)} steps."
    game.refresh_from_db()
    played = list(game.events.filter(seq__gt=seen).order_by("seq"))
    assert [(e.kind, e.seat, e.payload["answer"]) for e in played] == [(Event.Kind.ANSWER, 0, a) for a in sent], (
        "the game did not move by every queued step, in order"
    )
    assert desk.evaluate(PICTURED) == _expected_area(game.state, 0)
    assert len(sent) >= 3, sent
    assert not errors, errors
