"""The games waiting on me (games/waiting.py, games/context_processors.py): the top bar's count, in
one query and by the home page's own rule, and the seat page's button to the next game waiting on me."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import links
from games.actions import organise, play
from games.home import home_for
from games.models import Seat
from games.waiting import WaitingOnMe, next_seat
from tests.support.play import finish

pytestmark = pytest.mark.django_db(transaction=True)


def ana() -> User:
    return User.objects.get(email="ana@example.com")


def bar_count(client: Client, url: str = "/") -> str | None:
    """The count the top bar shows beside "My games" (None: no count)."""
    page = client.get(url).content.decode()
    found = re.search(r'<span class="waiting-count">(\d+)<span class="visually-hidden"> waiting on you', page)
    return found.group(1) if found else None


def test_the_top_bar_counts_the_games_waiting_on_me_as_my_home_lists_them(make_game, clocked, organiser):
    clocked()  # ana is asked to hide a number
    make_game()  # and here too
    answered = make_game()
    play.submit(answered.pk, 0, 2, None, via="web")  # ana answered; ben is asked
    finish(make_game())
    make_game(start=False)
    client = Client()
    client.force_login(ana())
    assert bar_count(client) == "2"
    assert len({r.seat.game_id for r in home_for(ana()).mine}) == 2, "the same rule as the home page's first list"
    play.submit(answered.pk, 1, 1, None, via="web")  # now Ana takes pebbles there
    assert bar_count(client, reverse("profile")) == "3", "every page's top bar counts"


def test_a_play_again_offer_waits_on_me(make_game):
    game = make_game()
    finish(game)
    again = organise.play_again(game, actor=User.objects.get(email="ben@example.com"))
    assert again.seats.get(player=ana()).accepted is False
    assert WaitingOnMe(ana()).count == 1


def test_the_count_is_one_query_and_none_for_a_visitor(make_game, django_assert_num_queries):
    make_game()
    mine = WaitingOnMe(ana())
    with django_assert_num_queries(1):
        assert mine.count == 1
        assert mine.count == 1, "counted once a page"
    client = Client()
    assert bar_count(client, reverse("sign-in")) is None
    client.force_login(User.objects.get(email="ben@example.com"))
    game = make_game()
    play.submit(game.pk, 1, 1, None, via="web")
    play.submit(game.pk, 0, 1, None, via="web")
    assert WaitingOnMe(User.objects.get(email="ben@example.com")).count == 1


def test_a_page_that_shows_no_top_bar_count_pays_no_query(client, make_game, django_assert_num_queries):
    """The check of a live page renders nothing, so it never asks for the count."""
    game = make_game()
    client.force_login(ana())
    url = reverse("seat-live", args=[links.token_for(game.seats.get(index=0))])
    with django_assert_num_queries(1):
        client.get(url, {"v": "0.0.active"})


def test_after_my_answer_a_button_goes_to_the_next_game_waiting_on_me(make_game, clocked):
    first = make_game()
    urgent = clocked()  # a deadline within the hour: the most urgent
    make_game()
    client = Client()
    client.force_login(ana())
    here = reverse("seat", args=[links.token_for(first.seats.get(index=0))])
    page = client.get(here).content.decode()
    assert "Next game waiting on you" not in page, "no button while this game asks me"
    html = client.get(here).content.decode()
    key = re.search(r'name="prompt_key" value="([^"]+)"', html).group(1)
    page = client.post(here, {"answer": "2", "version": 0, "prompt_key": key}, follow=True).content.decode()
    assert "Played." in page
    button = re.search(r'<a class="button" href="([^"]+)">Next game waiting on you: ([^<]+) →</a>', page)
    assert button, "the page offers the next game"
    assert button.group(1) == reverse("seat", args=[links.token_for(urgent.seats.get(index=0))])
    assert client.get(button.group(1)).status_code == 200


def test_no_next_game_button_when_nothing_else_waits(make_game):
    game = make_game()
    play.submit(game.pk, 0, 2, None, via="web")
    client = Client()
    client.force_login(ana())
    page = client.get(reverse("seat", args=[links.token_for(game.seats.get(index=0))])).content.decode()
    assert "Nothing to decide right now" in page and "Next game waiting on you" not in page


def test_a_seat_link_alone_hands_out_no_link_to_my_other_seats(make_game):
    """A seat link opens one seat: a forwarded link (not signed in, or signed in as someone else)
    shows no button to the holder's other games."""
    game = make_game()
    make_game()
    play.submit(game.pk, 0, 2, None, via="web")
    url = reverse("seat", args=[links.token_for(game.seats.get(index=0))])
    assert next_seat(ana(), besides_game=game.pk) is not None
    assert "Next game waiting on you" not in Client().get(url).content.decode()
    other = Client()
    other.force_login(User.objects.get(email="ben@example.com"))
    assert "Next game waiting on you" not in other.get(url).content.decode()


def test_the_next_seat_is_never_a_seat_of_someone_else(make_game):
    make_game(seats=("cy@example.org", "ana@example.com"))
    game = make_game()
    found = next_seat(ana(), besides_game=game.pk)
    assert found is not None and found.player_id == ana().pk
    assert Seat.objects.filter(player=ana()).count() == 2
