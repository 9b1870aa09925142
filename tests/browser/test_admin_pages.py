"""The organisers' pages in Chromium at 390 px (a phone) and 1280 px: "table as seat" for every
title, the outbox's HTML part and the games list.

One game per title is started once, some way in with a person asked; the organiser's session
(from the Django test client) is put into one browser context per width. On each page no two
visible boxes overlap and axe-core finds nothing serious or critical; "table as seat" draws the
seat's table as the seat's own page does (the title's pictures), shows what the seat is asked
without a way to answer it, and the outbox's frame shows the email's text. Screenshots go to
test-artifacts/.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from django.utils import timezone

from games.models import DeliveredMail, Seat
from tests.browser.layout import assert_no_overlap
from tests.browser.test_pictures import check_axe
from tests.support.play import mid_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {390: 844, 1280: 900}
AXE_WIDTH = 390  # axe reads the same markup at both widths: once per page keeps the suite quick
# how far in each game is looked at (a person is asked then); the title's drawing on its seat page
STEPS = {"cafe": 3, "cafe_baras": 8, "cafe_romantica": 6, "tanto_cuore_rv": 12}
DRAWN = {"cafe": ".cafe-tbl svg", "cafe_baras": ".pic-table svg", "cafe_romantica": ".pic-table svg"}
DRAWN["tanto_cuore_rv"] = ".pic-table svg"
# the outbox's mail page: its headings, text part and frame are its boxes
MAIL_BOXES = "main h1, main h2, main p, main pre, main iframe"

OVERFLOW = """(selector) => {
  const e = document.querySelector(selector);
  return {scroll: e.scrollWidth, client: e.clientWidth, page: document.documentElement.scrollWidth};
}"""


def signed_in_context(browser, client, organiser, base: str, width: int, missing: list[str] | None = None):
    """A browser context at `width` carrying the organiser's session from the test client; every
    address answered 404 (an icon, a stylesheet) is added to `missing`."""
    client.force_login(organiser)
    ctx = browser.new_context(viewport={"width": width, "height": WIDTHS[width]}, is_mobile=width < 500)
    cookie = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    ctx.add_cookies([{"name": django_settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    if missing is not None:
        ctx.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    page = ctx.new_page()
    page.set_default_timeout(15000)
    return ctx, page


def check_table_as_seat(page, slug: str, where: str, axe: bool) -> None:
    """The seat's own drawing of the table, what it is asked shown but not answerable, no overlap, axe."""
    assert page.locator(DRAWN[slug]).count() > 0, f"{where}: the title's drawing of the table"
    assert page.locator(".panels .panel:visible").count() == 0, f"{where}: not the text panels (folded at most)"
    assert "Being asked:" in page.locator(".table-as-asked h2").inner_text(), f"{where}: what the seat is asked"
    assert page.locator("main form.prompt, main input[type=radio], main input[type=checkbox]").count() == 0, (
        f"{where}: nothing here answers for the seat"
    )
    assert_no_overlap(page, where=where)
    if axe:
        check_axe(page)


def test_admin_pages_fit_a_phone_and_a_desktop(browser, live_server, make_game, organiser, client, settings, artifacts):
    settings.SITE_URL = live_server.url
    settings.MAILERS = {"default": {"BACKEND": "games.mail.LocalMailboxBackend"}}
    organiser.is_superuser = True
    organiser.save()
    tables = {}
    for slug, steps in STEPS.items():
        game, person = mid_game(make_game, slug, steps=steps)
        tables[slug] = f"{live_server.url}{reverse('admin:games_game_table', args=[game.pk])}?seat={person}"
    # deadlines as a clocked game has them: the list's longest columns
    Seat.objects.filter(waiting_since__isnull=False).update(deadline=timezone.now() + timedelta(hours=30))
    mail = DeliveredMail.objects.exclude(body_html="").filter(subject__startswith="Your move").first()
    missing: list[str] = []
    for width in WIDTHS:
        ctx, page = signed_in_context(browser, client, organiser, live_server.url, width, missing)
        for slug, url in tables.items():
            page.goto(url)
            page.screenshot(path=str(artifacts / f"admin_table_{slug}_{width}.png"), full_page=True)
            check_table_as_seat(page, slug, f"table as seat, {slug} at {width}px", axe=width == AXE_WIDTH)

        page.goto(f"{live_server.url}{reverse('outbox-mail', args=[mail.pk])}")
        frame = page.frame_locator("iframe.mail-html").locator("body")
        shown = frame.inner_text()
        assert mail.subject in shown, f"the frame shows the mail: {shown[:200]!r}"
        assert frame.locator("a[href*='/play/']").count() > 0, "with its seat link"
        page.locator("iframe.mail-html").screenshot(path=str(artifacts / f"admin_outbox_{width}_html_part.png"))
        page.screenshot(path=str(artifacts / f"admin_outbox_{width}.png"), full_page=True)
        assert_no_overlap(page, MAIL_BOXES, where=f"outbox at {width}px")
        if width == AXE_WIDTH:
            check_axe(page)

        if width == 1280:
            page.goto(f"{live_server.url}{reverse('admin:games_game_changelist')}")
            page.screenshot(path=str(artifacts / "admin_games_list_1280.png"), full_page=True)
            sizes = page.evaluate(OVERFLOW, "#changelist .results")
            assert sizes["scroll"] <= sizes["client"] and sizes["page"] <= width, f"the games list overflows: {sizes}"
            page.goto(f"{live_server.url}{reverse('admin:games_game_history', args=[game.pk])}")
            page.screenshot(path=str(artifacts / "admin_game_log_1280.png"), full_page=True)
            assert page.locator("#changelist .said").count() > 1, "History opens the game's log in words"
            sizes = page.evaluate(OVERFLOW, "#changelist .results")
            assert sizes["scroll"] <= sizes["client"] and sizes["page"] <= width, f"the game's log overflows: {sizes}"
        ctx.close()
    assert not missing, f"pages asked for what is not there: {sorted(set(missing))}"
