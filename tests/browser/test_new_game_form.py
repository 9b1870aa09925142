"""The new-game form in Chromium: the title the menu shows is the title it posts, and Tanto Cuore's
eighteen maids are one grid of labelled checkboxes under one help line."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.browser.flows import submit
from tests.browser.layout import assert_no_overlap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAID_HELP = "Used only when the maids are chosen by hand."


def test_the_title_shown_is_the_title_posted_and_maids_are_one_grid(browser, live_server, organiser, artifacts):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = ctx.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "org@example.com")
    page.fill("#id_password", "pw-organiser-1")
    page.click("button.button")

    page.goto(f"{live_server.url}/games/new/")  # no title asked for: the menu's first is the one posted
    shown = page.locator("select[name=title]").input_value()
    assert shown and page.locator("form[method=post] input[name=title]").input_value() == shown
    page.fill("#id_name", "First title")
    page.fill("#id_seats", "ana@example.com\nbot")
    submit(page, "text=Create game")
    assert "This field is required" not in page.content()
    assert Game.objects.get(name="First title").title == shown

    page.goto(f"{live_server.url}/games/new/")
    page.select_option("select[name=title]", "tanto_cuore_rv")
    page.wait_for_url("**title=tanto_cuore_rv**")
    grid = page.locator("fieldset.checks .check-grid")
    assert grid.count() == 1 and grid.locator("label.check input[type=checkbox]").count() == 18
    assert page.content().count(MAID_HELP) == 1, "the help is said once, for the whole grid"
    page.locator("fieldset.checks").screenshot(path=str(artifacts / "new_game_maids_390.png"))
    assert_no_overlap(page, "main label.check, main .field, main fieldset", where="new game at 390px")
    ctx.close()
