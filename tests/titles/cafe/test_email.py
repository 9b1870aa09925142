"""Café's "your move" email: the business areas as small HTML tables with inlined CSS, nothing hidden, a link to the seat."""

from __future__ import annotations

import html as htmllib
import re
from collections import Counter

import pytest

from games import notify
from games.actions import play
from games.engine.rng import step_rng
from games.models import Notification
from games.titles.cafe.placement import cells_of

pytestmark = pytest.mark.django_db

ANA = "ana@example.com"


def _mid_game(make_game, rounds: int = 3):
    """A game of Ana and a bot, Ana playing like a bot too, until `rounds` rounds are done and she is asked again."""
    game = make_game("cafe", seats=(ANA, None), options={"first_master": "first"})
    for n in range(400):
        game.refresh_from_db()
        prompts = game.engine.prompts(game.state)
        if game.state["round"] > rounds and 0 in prompts:
            return game
        if 0 not in prompts:  # the bot's turn (bots play after commit, and this test runs in one transaction)
            play.advance(game.pk)
            continue
        answer = game.engine.bot_answer(game.state, 0, step_rng("mail-test", n))
        play.submit(game.pk, 0, answer, game.version, via="web")
    raise AssertionError("the game never reached the round")


class _Rendered:
    def __init__(self, note: Notification):
        self.body_text, self.body_html = notify.render(note)


def _last_email(game) -> _Rendered:
    """Seat 0's newest "your move" email as the sender renders it (this test never commits, so it is unsent)."""
    return _Rendered(
        Notification.objects.filter(game=game, seat__index=0, kind=Notification.Kind.YOUR_MOVE).latest("pk")
    )


def _area_tables(body: str) -> dict[str, str]:
    return dict(re.findall(r'<table[^>]*data-area="(\d+)"[^>]*>(.*?)</table>', body, re.S))


def test_the_email_draws_each_area_as_a_table_with_inlined_css_and_no_svg(make_game):
    game = _mid_game(make_game)
    body = _last_email(game).body_html
    assert "<svg" not in body.lower()
    assert "<style" not in body.lower(), "the inliner leaves no style block"
    tables = _area_tables(body)
    assert set(tables) == {"0", "1"}, "one table a seat"
    for seat, table in tables.items():
        s = game.state["seats"][int(seat)]
        tds = re.findall(r'<td class="([^"]+)"[^>]*style="([^"]*)"[^>]*>(.*?)</td>', table, re.S)
        squares = [td for td in tds if td[0] != "none"]
        assert len(squares) == len(s["area"]), "one cell a visible square"
        # bean squares are lettered (colour never alone) and coloured by the inlined CSS
        beans = [(cls, style, text) for cls, style, text in squares if "k-bean" in cls]
        assert beans and all(re.match(r"[YBGR]\b", text) and "background" in style for _, style, text in beans)
        # cube letters match the state: "2R" = two red cubes
        pictured = Counter()
        for _, _, text in squares:
            for n, letter in re.findall(r'<span class="cafe-cubes"[^>]*>(\d+)([YBGR])</span>', text):
                pictured[letter] += int(n)
        wanted = Counter()
        for colour, n in s["cubes"].values():
            wanted[colour[0].upper()] += n
        assert pictured == wanted, seat


def test_the_cells_of_the_own_table_are_the_squares_on_top(make_game):
    game = _mid_game(make_game, rounds=2)
    table = _area_tables(_last_email(game).body_html)["0"]
    s = game.state["seats"][0]
    owners = {}
    for cid, r, c, rot in s["stack"]:
        for k in cells_of(r, c, rot):
            owners[k] = cid
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]  # the first row numbers the columns
    top = min(int(k.split(",")[0]) for k in s["area"])
    left = min(int(k.split(",")[1]) for k in s["area"])
    assert len(rows) == max(int(k.split(",")[0]) for k in s["area"]) - top + 1
    for i, row in enumerate(rows):
        cells = re.findall(r"<td([^>]*)>", row)
        for j, attrs in enumerate(cells):
            found = re.search(r'title="([^"]*)"', attrs)
            say = found.group(1) if found else ""
            key = f"{top + i},{left + j}"
            if key not in s["area"]:
                assert not say
                continue
            say = htmllib.unescape(say)
            assert say.startswith(f"Row {top + i}, col {left + j}:"), say
            card = owners[key].replace("card", "card ").replace("start", "initial card ")
            assert f"({card})" in say, (say, key)


def test_the_email_shows_nothing_hidden(make_game):
    game = _mid_game(make_game)
    body = _last_email(game).body_html
    hidden = set(game.state["deck"]) | set(game.state["removed"])
    assert hidden
    text = htmllib.unescape(re.sub(r"<[^>]+>", " ", body))
    for cid in hidden:
        n = cid.removeprefix("card")
        assert not re.search(rf"\bcard ?{n}\b", text, re.I), f"hidden {cid} shows in the email"
        assert not re.search(rf"\bcard{n}\b", body), f"hidden {cid} shows in the markup"
    assert f"Deck: {len(game.state['deck'])} cards" in text


def test_the_email_links_to_the_seat_page_with_the_picture(make_game, client):
    game = _mid_game(make_game, rounds=1)
    body = _last_email(game).body_html
    links = set(re.findall(r'<a class="cafe-link" href="([^"]+)"', body))
    assert len(links) == 1
    url = htmllib.unescape(links.pop())
    page = client.get(url.removeprefix("http://testserver"))
    assert page.status_code == 200
    content = page.content.decode()
    assert 'class="cafe-area mine"' in content and "Your business area" in content
    assert 'name="answer"' in content, "the seat's question is on the page"
