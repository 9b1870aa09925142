"""A title's rules in short (games/views/rules.py): one page per title, from the summary its package
declares, linked from every seat page and from the front page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from games import links
from games.titles import get_title
from games.views.rules import lead

pytestmark = pytest.mark.django_db

SHIPPED = ("cafe", "cafe_baras", "cafe_romantica", "tanto_cuore_rv")


@pytest.mark.parametrize("slug", SHIPPED)
def test_each_title_has_a_rules_page_anyone_can_read(slug):
    title = get_title(slug)
    assert title.rules_summary == "rules.html"
    page = Client().get(reverse("rules", args=[slug]))
    assert page.status_code == 200
    html = page.content.decode()
    assert f"{title.name}: the rules in short" in html
    assert lead(slug) and escape(lead(slug)) in html.replace("'", "&#x27;")  # its line, also the front page's
    assert "The goal" in html and "<h2" in html
    others = [s for s in SHIPPED if s != slug]
    assert all(reverse("rules", args=[s]) in html for s in others), "the page links to the other rules"


def test_a_title_without_a_summary_and_a_made_up_one_have_no_rules_page():
    assert get_title("pebbles").rules_summary is None  # the tests' tiny title declares none
    assert Client().get(reverse("rules", args=["pebbles"])).status_code == 404
    page = Client().get("/rules/no-such-game/")
    assert page.status_code == 404
    assert Client().get("/rules/../admin/").status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slug", SHIPPED)
def test_a_player_opens_the_rules_from_their_seat_page(make_game, slug):
    game = make_game(title=slug, seats=["ana@example.com", "ben@example.com"])
    client = Client()
    seat_page = client.get(reverse("seat", args=[links.token_for(game.seats.get(index=0))])).content.decode()
    link = reverse("rules", args=[slug])
    assert f'href="{link}"' in seat_page
    assert get_title(slug).name in client.get(link).content.decode()


def test_every_packaged_title_declares_a_rules_summary_with_its_line():
    """A new title brings its rules in short, or its seat pages would link to no rules."""
    from games.titles import slugs

    for slug in slugs():
        title = get_title(slug)
        assert title.rules_summary, f"{slug}: TITLE.rules_summary (games/titles/README.md)"
        assert (title.folder / "templates" / title.rules_summary).is_file(), slug
        assert lead(slug), f'{slug}: its rules summary starts with <p class="lead">, its line on the front page'
