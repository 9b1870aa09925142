"""A first visit (games/views/landing.py): the front page shows the games, each pictured by its own
card, in a line, with its rules; a signed-in player starts a game against bots in one click and
lands on their seat."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from accounts.models import User
from games.models import Game
from games.titles import get_title
from games.views.rules import lead

pytestmark = pytest.mark.django_db(transaction=True)

SHIPPED = ("cafe", "cafe_baras", "cafe_romantica", "tanto_cuore_rv")


def signed_in(email: str = "ana@example.com") -> tuple[Client, User]:
    user = User.objects.for_email(email)
    client = Client()
    client.force_login(user)
    return client, user


def test_a_visitor_sees_the_four_games_pictured_each_in_a_line_with_its_rules():
    page = Client().get("/")
    assert page.status_code == 200
    html = page.content.decode()
    for slug in SHIPPED:
        tile = re.search(rf'<li class="landing-game" id="game-{slug}".*?</li>', html, re.S)
        assert tile, slug
        tile = tile.group(0)
        assert get_title(slug).name in tile
        assert "<svg" in tile, f"{slug} is pictured by one of its cards"
        assert escape(lead(slug)) in tile
        assert reverse("rules", args=[slug]) in tile
        assert "try-bots" not in tile, "a visitor signs in first"
    assert "Try a game against bots" in html and reverse("sign-in") in html
    assert "Sign in with your email" in html


def test_the_signed_in_home_is_as_it_was_with_one_button_for_a_game_against_bots():
    client, _ = signed_in()
    html = client.get("/").content.decode()
    assert "My games" in html and "landing-game" not in html
    form = re.search(r'<form method="post" action="/games/try/" class="try-bots">.*?</form>', html, re.S).group(0)
    assert "Try a game against bots" in form
    assert all(f'value="{slug}"' in form for slug in SHIPPED)


@pytest.mark.parametrize("slug", SHIPPED)
def test_one_click_starts_a_game_against_bots_and_opens_the_players_seat(slug):
    client, user = signed_in()
    response = client.post(reverse("try-bots"), {"title": slug})
    game = Game.objects.get(organiser=user)
    assert game.title == slug and game.status == Game.Status.ACTIVE
    seats = list(game.seats.order_by("index"))
    assert seats[0].player == user and not seats[0].is_bot
    assert len(seats) == 3 and all(s.is_bot for s in seats[1:])
    assert response.status_code == 302 and response["Location"].startswith("/play/")
    seat_page = client.get(response["Location"])
    assert seat_page.status_code == 200 and "against 2 bots has started" in seat_page.content.decode()


def test_a_second_click_opens_the_game_already_on_instead_of_another():
    client, user = signed_in()
    first = client.post(reverse("try-bots"), {"title": "cafe_baras"})
    again = client.post(reverse("try-bots"), {"title": "cafe_baras"}, follow=True)
    assert Game.objects.filter(organiser=user).count() == 1
    assert again.redirect_chain[-1][0] == first["Location"]
    assert "still on: here it is" in again.content.decode()
    other = client.post(reverse("try-bots"), {"title": "cafe"})
    assert other.status_code == 302 and Game.objects.filter(organiser=user).count() == 2


def test_a_made_up_title_is_refused_in_words_and_starts_nothing():
    client, user = signed_in()
    for value in ("", "no-such-game", "../cafe", "CAFE"):
        page = client.post(reverse("try-bots"), {"title": value}, follow=True)
        assert "There is no such game to try" in page.content.decode()
    assert not Game.objects.exists()


def test_a_visitor_is_sent_to_sign_in_and_a_get_changes_nothing():
    response = Client().post(reverse("try-bots"), {"title": "cafe"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("sign-in"))
    client, _ = signed_in()
    assert client.get(reverse("try-bots")).status_code == 405
    assert not Game.objects.exists()


def test_the_games_page_is_the_front_page_for_anyone():
    client, _ = signed_in()
    html = client.get(reverse("games")).content.decode()
    assert html.count('class="landing-game"') >= len(SHIPPED)
    assert html.count('action="/games/try/"') >= len(SHIPPED), "signed in: each game in one click"
