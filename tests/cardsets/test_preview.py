"""The card set preview (cardsets/preview.py): every card drawn at the seat page's size, Café's plan
cards as cards (their six squares), what is not a card in words; and each title's showcase card for
the front page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from cardsets.kinds import KINDS, shipped_files
from cardsets.models import CardSet
from cardsets.preview import sections, showcase, words
from cardsets.shipped import store_shipped
from games.engine.svg import PX

pytestmark = pytest.mark.django_db


def test_cafes_plan_and_initial_cards_are_drawn_as_the_seat_page_draws_them():
    kind = KINDS["cafe"]
    files = shipped_files("cafe")
    shown = dict(sections(kind, files, kind.check(files)[0]))
    plan, initial, solo = shown["plan_cards.yaml"], shown["initial_cards.yaml"], shown["solo.yaml"]
    assert len(plan) == 48 and len(initial) == 4
    for item in plan + initial:
        assert item.picture.count('class="cafe-cell ') == 6, item.key
        assert 'class="cafe-card"' in item.picture and not item.lines
    card41 = next(i for i in plan if i.key == "card41").picture
    assert "Card 41" in card41 and "Only with 4 players" in card41 and "★" in card41
    assert "Brazil" in next(i for i in initial if i.key == "start1").picture
    # the solo ranks are no card: listed in words, not Python values
    assert not any(item.picture for item in solo)
    assert solo[0].lines == ["min: 0", "title: Apprentice", "win: no"]


def test_field_values_read_as_words():
    assert words(True) == "yes" and words(False) == "no"
    assert words(["bean-yellow", "dry"]) == "bean-yellow, dry"
    assert words({"a": {"need": {"red": 1}, "vp": 3}}) == "a: need: red: 1; vp: 3"


def test_the_preview_page_draws_no_card_at_the_size_of_the_page(client, organiser):
    client.force_login(organiser)
    store_shipped(CardSet)
    for cs in CardSet.objects.filter(check_status="shipped"):
        page = client.get(reverse("cardsets:preview", args=[cs.pk])).content.decode()
        assert "squares: [" not in page and "star: False" not in page, cs.title
        widths = [int(w) for w in re.findall(r'<svg class="[^"]*" viewBox="[^"]*" width="(\d+)"', page)]
        assert widths and max(widths) <= 320, f"{cs.title}: every card at the seat page's size"
        assert 'href="/static/titles/pictures.css"' in page


@pytest.mark.parametrize("slug", ["cafe", "cafe_baras", "cafe_romantica", "tanto_cuore_rv"])
def test_each_title_is_shown_by_its_card_with_the_most_on_it(slug):
    picture = showcase(slug)
    assert picture.startswith("<svg") and 'role="img"' in picture
    width = float(re.search(r'width="(\d+)"', picture).group(1))
    assert width in (round(120 * PX), 308)


def test_a_title_that_draws_no_card_has_no_picture():
    assert showcase("pebbles") == ""
