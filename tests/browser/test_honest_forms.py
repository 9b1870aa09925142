"""Issue 24's forms and honest moves in Chromium, at 390 px (a phone) and 1280 px (a desktop): the
final scores read with no word cut, the host's links copy, clock presets fill the fields (and are
posted without script), the timezone menu takes the browser's zone, and a missed move is said as
such on the page and in the next email. The rest of each game goes through the write path."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games import links
from games.actions import deadlines, organise
from games.models import DeliveredMail, Game, Seat
from tests.browser.flows import submit
from tests.browser.test_pictures import check_axe
from tests.support.play import finish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}

# every word of the score table on one line (a word cut over two lines has rectangles on two lines)
CUT_WORDS = """() => {
  const cut = [];
  for (const cell of document.querySelectorAll('table.scores th, table.scores td')) {
    const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      for (const m of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top)));
        if (lines.size > 1) cut.push(m[0]);
      }
    }
  }
  return cut;
}"""


def sign_in_as_organiser(page, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "org@example.com")
    page.fill("#id_password", "pw-organiser-1")
    submit(page, "button.button")


def test_the_final_scores_read_on_a_phone_with_no_word_cut(browser, live_server, make_game, settings):
    settings.SITE_URL = live_server.url
    game = make_game(title="tanto_cuore_rv", seats=("ana@example.com", "ben@example.com"))
    User.objects.filter(email="ana@example.com").update(name="Ana Lima")
    finish(game)
    ana = Seat.objects.get(game=game, index=0)
    for size in (PHONE, DESKTOP):
        ctx = browser.new_context(**size)
        page = ctx.new_page()
        page.goto(live_server.url + f"/play/{links.token_for(ana)}/")
        table = page.locator("table.scores")
        assert table.count() == 1 and "Ana Lima" in table.inner_text()
        assert page.evaluate(CUT_WORDS) == [], "no word of the score table is cut over two lines"
        fits = page.evaluate(
            "() => { const s = document.querySelector('.scroll:has(> table.scores)'); return s.scrollWidth <= s.clientWidth; }"
        )
        assert fits, "the score table fits the screen"
        if size is PHONE:
            check_axe(page)
        ctx.close()


def test_the_hosts_links_copy_with_the_clipboard_or_without_it(browser, live_server, organiser, settings):
    settings.SITE_URL = live_server.url
    game = organise.create_game(organiser, "pebbles", "Copy table", {}, ["org@example.com", "open"])
    organise.set_watch_link(game, True)
    from games.actions import joining

    joining.set_join_link(Game.objects.get(pk=game.pk), True)
    game.refresh_from_db()
    ctx = browser.new_context(**PHONE)
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = ctx.new_page()
    sign_in_as_organiser(page, live_server.url)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    box = page.locator("#join-link")
    main = page.locator("main").bounding_box()
    assert box.bounding_box()["width"] > 0.6 * main["width"], "the link takes the width"
    shown = box.input_value()
    # the whole link: a join link of this game (signed when the page was drawn, so its stamp may
    # be a second older than one signed now)
    assert shown.startswith(links.join_url(game).rsplit("/", 2)[0] + "/"), shown
    assert links.game_from_join_token(shown.rstrip("/").rsplit("/", 1)[1]).pk == game.pk
    page.click("button[data-copy=join-link]")
    page.wait_for_selector(".share .copied:has-text('Copied.')")
    assert page.evaluate("navigator.clipboard.readText()") == shown
    assert page.locator(".link-actions button.button").count() == 4, "revoke and new link are buttons"
    mine = Seat.objects.get(game=game, index=0)
    href = page.get_attribute("a:has-text('Go to my seat')", "href")
    assert href.startswith("/play/") and links.seat_from_token(href.strip("/").rsplit("/", 1)[1]).pk == mine.pk
    check_axe(page)
    # no Clipboard API (an old browser, or a page not served over https): the copy command on the box
    page.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    page.reload()
    page.click("button[data-copy=watch-link]")
    said = page.locator("#watch-link ~ .copied").inner_text()
    assert said == "Copied." or said.startswith("Selected"), said
    assert page.evaluate("document.activeElement.id") == "watch-link"
    ctx.close()


def test_clock_presets_fill_the_fields_and_work_without_script(browser, live_server, organiser):
    ctx = browser.new_context(**DESKTOP)
    page = ctx.new_page()
    sign_in_as_organiser(page, live_server.url)
    page.goto(f"{live_server.url}/games/new/?title=pebbles")
    page.select_option("#id_clock_preset", "bank")
    assert [page.input_value(f"#id_{n}") for n in ("bank_hours", "bank_increment_hours", "quiet_days")] == [
        "72",
        "24",
        "sat,sun",
    ]
    assert page.input_value("#id_decision_hours") == ""
    page.fill("#id_reminder_hours", "6")  # changing a field by hand: the fields are the host's own now
    assert page.input_value("#id_clock_preset") == ""
    page.select_option("#id_clock_preset", "quick")
    assert page.input_value("#id_decision_minutes") == "10" and page.input_value("#id_bank_hours") == ""
    page.fill("#id_name", "Quick table")
    page.fill("#id_seats", "ana@example.com\nbot")
    check_axe(page)
    submit(page, "text=Create game")
    assert Game.objects.get(name="Quick table").decision_minutes == 10
    ctx.close()

    bare = browser.new_context(**PHONE, java_script_enabled=False)
    page = bare.new_page()
    sign_in_as_organiser(page, live_server.url)
    page.goto(f"{live_server.url}/games/new/?title=pebbles")
    page.select_option("#id_clock_preset", "day")
    assert page.input_value("#id_decision_hours") == "", "no script: the fields stay as they were"
    page.fill("#id_name", "Daily table")
    page.fill("#id_seats", "ana@example.com\nbot")
    submit(page, "text=Create game")
    game = Game.objects.get(name="Daily table")
    assert (game.decision_hours, game.reminder_hours) == (24, 4), "the posted preset set the clock"
    bare.close()


def test_the_timezone_menu_takes_the_browsers_zone_and_the_digest_hour_is_a_time(browser, live_server, organiser):
    ctx = browser.new_context(**PHONE, timezone_id="Europe/Lisbon")
    page = ctx.new_page()
    sign_in_as_organiser(page, live_server.url)
    page.goto(f"{live_server.url}/me/")
    assert page.input_value("#id_timezone") == "Europe/Lisbon"
    assert "Set to your browser's timezone, Europe/Lisbon" in page.inner_text(".browser-zone")
    assert page.locator("#id_digest_hour option:checked").inner_text() == "08:00"
    check_axe(page)
    submit(page, "form.stack button:text-is('Save')")
    assert User.objects.get(email="org@example.com").timezone == "Europe/Lisbon"
    assert page.locator(".browser-zone").count() == 0, "a zone chosen is left alone"
    for path in ("/", "/outbox/"):  # the home (its vacation line, "just now") and the outbox, as changed
        page.goto(live_server.url + path)
        check_axe(page)
    ctx.close()


def test_a_missed_move_is_said_as_the_bots_on_the_page_and_in_the_next_email(browser, live_server, organiser, settings):
    settings.MAILERS = {"default": {"BACKEND": "games.mail.LocalMailboxBackend"}}
    settings.SITE_URL = live_server.url
    game = organise.create_game(
        organiser, "cafe_baras", "Missed table", {}, ["ana@example.com", "ben@example.com"], decision_hours=24,
        timeout_policy="bot",
    )  # fmt: skip
    organise.start_game(game)
    game.refresh_from_db()
    late = min(game.engine.prompts(game.state))
    name = Seat.objects.select_related("player").get(game=game, index=late).name
    Seat.objects.filter(game=game, index=late).update(deadline=timezone.now() - timedelta(minutes=1))
    mailed = DeliveredMail.objects.count()
    assert deadlines.sweep()["timed_out"] == 1
    other = Seat.objects.get(game=game, index=1 - late)
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.goto(f"{live_server.url}/play/{links.token_for(other)}/")
    said = page.locator(".log li", has_text=f"At the deadline the bot played for {name}:")
    assert said.count() == 1, "the log says the bot played for the player"
    ctx.close()
    bodies = [m.body_text for m in DeliveredMail.objects.order_by("id")[mailed:]]
    assert any(f"At the deadline the bot played for {who}:" in b for b in bodies for who in (name, "you")), bodies
