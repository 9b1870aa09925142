"""Each title's "your move" email: the table as HTML tables with inlined CSS (no <svg>, no <style>),
nothing another seat may not see, and a link that opens the seat.

A game is played through the write path until a person is asked mid-game; that person's email is
rendered from the real state, and again after another seat's hidden cards are swapped for others
(a different hand, a different kitchen entrance below its top card, other face-down agendas): the
two emails must be the same, and the other seat's hidden card names must not appear.
"""

from __future__ import annotations

import copy
import re

import pytest

from games import notify
from games.engine.messages import english
from games.models import Game
from tests.support.play import mid_game

pytestmark = pytest.mark.django_db(transaction=True)

MINE = ["cafe_baras", "tanto_cuore_rv", "cafe_romantica"]


def email_for(game: Game, index: int, state) -> str:
    """The HTML part of `index`'s "your move" email as the sender renders it, from `state`."""
    game.state = state
    seat = game.seats.select_related("player").get(index=index)
    prompt = game.engine.prompts(state)[index]
    note = notify.your_move(game, seat, game.engine.view(state, index), prompt)
    assert note is not None
    return notify.render(note)[1]


def unsigned(html: str) -> str:
    """The email with its signed links blanked: a seat or unsubscribe link carries the second it was signed."""
    return re.sub(r"/(play|unsubscribe)/[^/\"]+/", r"/\1/LINK/", html)


def hide_differently(slug: str, state, other: int) -> tuple[dict, set[str]]:
    """A copy of `state` where seat `other`'s hidden cards are different ones; and the names swapped out."""
    s = copy.deepcopy(state)
    if slug == "cafe_baras":
        from games.titles.cafe_baras.state import cardset_of

        cards = cardset_of(s).cards
        hand = s["seats"][other]["hand"]
        k = min(len(hand), len(s["deck"]))
        assert k, "the other seat holds cards and the deck has some to swap in"
        swapped = hand[:k]
        hand[:k], s["deck"][:k] = s["deck"][:k], swapped
        return s, {cards[c].name for c in swapped}
    if slug == "tanto_cuore_rv":
        cards = s["cards"]
        z = s["seats"][other]
        old = z["hand"] + z["discard"][:-1]
        love = [c for c in cards if cards[c]["type"] == "love"]
        chief = [c for c in cards if cards[c]["type"] == "maid_chief"][0]
        z["hand"] = [chief] * len(z["hand"])
        z["discard"] = [love[0]] * (len(z["discard"]) - 1) + z["discard"][-1:]
        return s, {cards[c]["name"] for c in old} - {cards[chief]["name"], cards[love[0]]["name"]}
    # cafe_romantica: other face-down agendas of the same costs (from the box, or traded with the bot)
    cards = s["cards"]["agendas"]
    seats = s["seats"]
    me = 1 - other
    swapped = set()
    for k, a in enumerate(seats[other]["agendas"]):
        if a in seats[other]["done"]:
            continue
        for b in cards:
            holder = next((i for i, z in enumerate(seats) if b in z["agendas"]), None)
            if b == a or cards[b]["cost"] != cards[a]["cost"] or holder in (me, other):
                continue
            if holder is not None:
                if b in seats[holder]["done"]:
                    continue
                theirs = seats[holder]["agendas"]
                seats[holder]["agendas"] = [a if x == b else x for x in theirs]
            seats[other]["agendas"] = seats[other]["agendas"][:k] + [b] + seats[other]["agendas"][k + 1 :]
            swapped.add(cards[a]["name"])
            break
    assert swapped, "some face-down agenda could be swapped"
    return s, swapped


@pytest.mark.parametrize(("slug", "steps"), [("cafe_baras", 10), ("tanto_cuore_rv", 30), ("cafe_romantica", 8)])
def test_email_shows_the_table_without_svg_style_or_hidden_cards(slug, steps, make_game, client):
    game, person = mid_game(make_game, slug, steps, seed=5)
    other = 1 - person
    real = email_for(game, person, game.state)
    assert "<svg" not in real.lower() and "<style" not in real.lower()
    assert 'class="t-card' in real and "style=" in real, "the title's own table, with its CSS inlined"
    assert "font-family:Arial" in real.replace(": ", ":"), "card text in a sans-serif"

    changed, hidden = hide_differently(slug, game.state, other)
    game.refresh_from_db()
    assert hidden
    again = email_for(game, person, changed)
    assert unsigned(again) == unsigned(real), "another seat's hidden cards change nothing in this seat's email"
    visible = set(re.findall(r'<span class="t-name"[^>]*>([^<]+)</span>', real))
    # a card taken from the display is public
    said = " ".join(english(line) for line in game.engine.view(game.state, person)["log"])
    for name in {n for n in hidden - visible if n not in said}:
        assert name not in real, f"{name} (hidden) is in the email"

    link = re.search(r'href="(http://testserver(/play/[^"]+))"', real)
    assert link, "the email links to the seat"
    page = client.get(link.group(2))
    assert page.status_code == 200
    body = page.content.decode()
    assert 'class="pic-table' in body and 'form method="post" class="prompt"' in body


@pytest.mark.parametrize("slug", ["cafe", *MINE])
def test_every_title_email_has_no_svg_and_no_style_left(slug, make_game):
    game, person = mid_game(make_game, slug, 4, seed=5)
    html = email_for(game, person, game.state)
    assert "<svg" not in html.lower() and "<style" not in html.lower()
    assert "Open your seat" in html


def test_a_game_name_with_a_line_break_still_mails_on_one_subject_line(make_game):
    """The admin accepts a name with a line break; a mail header may not hold one."""
    from django.core import mail as outbox

    from games.channels import outbox as sender
    from games.models import Game, Notification

    game = make_game()
    Game.objects.filter(pk=game.pk).update(name="Friday\r\nnight")
    game.refresh_from_db()
    note = notify.notice(game, game.seats.get(index=0), f"News of {game.name}", "Hello")
    assert note.subject == "News of Friday night"
    assert sender.send(note.pk) == Notification.Status.SENT
    assert outbox.outbox[-1].subject == "News of Friday night"
