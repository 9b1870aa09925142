"""Each title's seat page, and the front page, on a phone (390 px) in Japanese and in German: the
longest words (German's) and another script (Japanese, drawn in a real Japanese font) fit without
the page growing wider than the screen or boxes overlapping. Screenshots go to test-artifacts/."""

from __future__ import annotations

import pytest

from accounts.models import User
from games import links
from tests.browser.layout import assert_no_overlap
from tests.support.play import mid_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STEPS = {"cafe": 3, "cafe_baras": 5, "tanto_cuore_rv": 6, "cafe_romantica": 2}
WIDE = """() => {
  const page = document.documentElement.scrollWidth;
  const over = Array.from(document.querySelectorAll('main *')).filter(e => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.right > innerWidth + 1 && getComputedStyle(e).position !== 'fixed'
      && !e.closest('.scroll-x, .pic-table, pre, [data-scrolls]');
  }).slice(0, 8).map(e => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ')[0] : '')
      + ': ' + (e.textContent || '').trim().slice(0, 40));
  return {page, over};
}"""


def _fits(page, where: str, boxes: bool = True) -> None:
    """Nothing wider than the screen; on a table (`boxes`), no two of its boxes overlapping."""
    found = page.evaluate(WIDE)
    assert found["page"] <= 390, f"{where}: the page is {found['page']} px wide: {found['over']}"
    assert found["over"] == [], f"{where}: these run past the screen's edge: {found['over']}"
    if boxes:
        assert_no_overlap(page, where=where)


@pytest.mark.parametrize("lang", ["ja", "de"])
@pytest.mark.parametrize("slug", sorted(STEPS))
def test_a_seat_page_in_japanese_and_german_fits_a_phone(
    slug, lang, browser, live_server, make_game, settings, artifacts
):
    settings.SITE_URL = live_server.url
    game, person = mid_game(make_game, slug, steps=STEPS[slug])
    seat = game.seats.get(index=person)
    User.objects.filter(pk=seat.player_id).update(language=lang)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, locale=lang)
    page = ctx.new_page()
    page.set_default_timeout(15000)
    page.goto(links.url_for(seat))
    assert page.get_attribute("html", "lang") == lang
    page.screenshot(path=str(artifacts / f"seat_{slug}_{lang}_390.jpeg"), full_page=True, quality=70)
    page.screenshot(path=str(artifacts / f"seat_{slug}_{lang}_390_first_screen.png"))
    _fits(page, f"{slug} in {lang} at 390 px")
    ctx.close()


@pytest.mark.parametrize("lang", ["ja", "de"])
def test_the_front_page_and_rules_in_japanese_and_german_fit_a_phone(lang, browser, live_server, artifacts):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, locale=lang)
    page = ctx.new_page()
    for path, name in (("/", "front"), ("/rules/cafe_baras/", "rules")):
        page.goto(live_server.url + path)
        assert page.get_attribute("html", "lang") == lang
        page.screenshot(path=str(artifacts / f"{name}_{lang}_390.jpeg"), full_page=True, quality=70)
        _fits(page, f"{path} in {lang} at 390 px", boxes=False)
    ctx.close()
