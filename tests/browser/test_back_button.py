"""The Back button never plays an answer the player did not choose (issue 12).

After an answer the seat page shows the next question of the turn at the same place. Back used to
show that new question with the old pick restored onto it by position (Pebbles: "Take 1" became
"Done"), so one click on Send played something never chosen. Now the page is never restored from
a cache, its form is never refilled by the browser, and a form kept from the old page is refused.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games import links
from games.models import Event, Seat
from tests.browser.flows import one_tap, submit
from tests.support.play import take_pebbles

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# the old page's form as it was, posted again: its version, question and token, and the old pick
POST_OLD_FORM = """([action, fields]) => {
  const f = document.createElement('form');
  f.method = 'post';
  f.action = action;
  for (const [name, value] of Object.entries(fields)) {
    const i = document.createElement('input');
    i.type = 'hidden'; i.name = name; i.value = value;
    f.appendChild(i);
  }
  document.body.appendChild(f);
  f.submit();
}"""


def _old_form(page) -> dict[str, str]:
    names = ("csrfmiddlewaretoken", "version", "prompt_key")
    return {n: page.locator(f'form.prompt input[name="{n}"]').get_attribute("value") for n in names}


def test_back_after_an_answer_restores_nothing_and_the_old_form_is_refused(browser, live_server, make_game, settings):
    settings.SITE_URL = live_server.url
    game = make_game("pebbles")
    take_pebbles(game, 0)  # both secrets hidden: now one seat takes pebbles, then says it is done
    [mover] = game.engine.prompts(game.state)
    url = links.url_for(Seat.objects.get(game=game, index=mover))
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    page.goto(url)
    expect(page.locator("form.prompt legend")).to_have_text("Take pebbles")
    old = _old_form(page)
    assert one_tap(page), "a single choice: the tap sends it"
    submit(page, 'form.prompt input[value="take1"]')  # the first option: the position "Done" takes next
    expect(page.locator("form.prompt legend")).to_have_text("End your turn")
    assert "Played." in page.content()
    logged = Event.objects.filter(game=game).count()

    page.go_back()
    # the page shown is the table as it is now, with nothing picked for the player
    expect(page.locator("form.prompt legend")).to_have_text("End your turn")
    page.wait_for_load_state("load")
    assert page.locator("form.prompt input:checked").count() == 0, "Back restored a pick onto the new question"
    assert page.get_attribute("form.prompt", "autocomplete") == "off"
    assert "no-store" in page.request.get(url).headers["cache-control"]

    # a page the browser kept whole (the back-forward cache) is loaded again as it is now
    page.evaluate("window.kept = true")
    page.evaluate("window.dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true}))")
    page.wait_for_function("window.kept === undefined")

    # the old page's form, sent again as it was, plays nothing
    page.evaluate(POST_OLD_FORM, [url, {**old, "answer": "take1"}])
    page.wait_for_url(f"{url}#decision")
    expect(page.locator("#decision")).to_contain_text("already answered")
    assert Event.objects.filter(game=game).count() == logged
    expect(page.locator("form.prompt legend")).to_have_text("End your turn")
    assert not errors
    context.close()
