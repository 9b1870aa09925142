"""Each title's seat page on a phone (390x844) and a desktop (1280 px): what a player must reach.

One game per title, some way in with a person asked; its page is opened once per width (one browser
context each). On the phone the decision's first option is in the first screen, with a link to the
table; at both widths no two visible boxes overlap and card text is at least the page's small text;
axe-core finds nothing serious or critical (run once, on the phone: the same page laid out narrower).
Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import pytest

from games import links
from tests.browser.layout import assert_no_overlap, in_first_screen
from tests.browser.test_pictures import check_axe
from tests.support.play import mid_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {390: 844, 1280: 900}
# how far in each game is opened (a person is asked then)
STEPS = {"cafe": 3, "cafe_baras": 5, "tanto_cuore_rv": 6, "cafe_romantica": 2}
# titles whose cards carry rules text in the picture, which must be readable on a phone
CARD_TEXT = {"cafe_baras", "tanto_cuore_rv"}

# the smallest card text as drawn, in CSS px, and the page's own small text (a <small> in the body)
TEXT_SIZES = """() => {
  const probe = document.createElement('small');
  probe.textContent = 'x';
  document.querySelector('main').appendChild(probe);
  const small = parseFloat(getComputedStyle(probe).fontSize);
  probe.remove();
  let least = Infinity, where = '';
  document.querySelectorAll('.pic-table .pic svg text').forEach(t => {
    const r = t.getBoundingClientRect();
    if (!r.width) return;
    const size = parseFloat(t.getAttribute('font-size') || getComputedStyle(t).fontSize) * t.getScreenCTM().a;
    if (size < least) { least = size; where = t.textContent; }
  });
  return {small, least, where};
}"""


@pytest.mark.parametrize("slug", sorted(STEPS))
def test_seat_page_fits_a_phone_and_a_desktop(slug, browser, live_server, make_game, settings, artifacts):
    settings.SITE_URL = live_server.url
    game, person = mid_game(make_game, slug, steps=STEPS[slug])
    url = links.url_for(game.seats.get(index=person))
    for width, height in WIDTHS.items():
        ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=width < 500)
        page = ctx.new_page()
        page.set_default_timeout(15000)
        page.goto(url)
        where = f"{slug} at {width}px"
        page.screenshot(path=str(artifacts / f"seat_layout_{slug}_{width}.jpeg"), full_page=True, quality=70)
        page.screenshot(path=str(artifacts / f"seat_layout_{slug}_{width}_first_screen.png"))
        assert page.locator("form.prompt").count() == 1, f"{where}: the person is asked"
        if width < 500:
            first = "form.prompt :is(input:not([type=hidden]), select, textarea)"
            assert in_first_screen(page, first), f"{where}: the decision's first option is below the first screen"
            jump = page.locator("#decision a[href='#table']")
            assert jump.count() == 1, f"{where}: the decision links to the table"
        assert_no_overlap(page, where=where)
        if slug in CARD_TEXT:
            sizes = page.evaluate(TEXT_SIZES)
            assert sizes["least"] >= sizes["small"] - 0.05, f"{where}: card text is {sizes} (smaller than small text)"
        if width < 500:  # the same page at both widths: axe once (it takes seconds on a full table)
            check_axe(page)
        ctx.close()
