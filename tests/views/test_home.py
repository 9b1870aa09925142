"""A signed-in player's home (issue 14): my games, waiting on me first, then others, then finished."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from games.actions import organise, play
from games.home import home_for
from tests.support.play import finish

pytestmark = pytest.mark.django_db(transaction=True)


def test_my_games_lists_what_waits_on_me_first_with_its_question_and_deadline(make_game, clocked, organiser):
    asked = clocked()  # both seats hide a number first: ana is asked, within the hour
    ana = User.objects.get(email="ana@example.com")
    ana.timezone = "Europe/Lisbon"
    ana.save()
    other = make_game()
    play.submit(other.pk, 0, 2, None, via="web")  # ana answered; ben is asked
    ended = make_game()
    finish(ended)
    stopped = make_game()
    organise.end_game(stopped, actor=organiser, reason="a test")
    draft = make_game(start=False)

    home = home_for(ana)
    assert [r.seat.game_id for r in home.mine] == [asked.pk]
    assert home.mine[0].question == "Hide a secret number"
    assert {r.seat.game_id for r in home.others} == {draft.pk, other.pk}
    waiting = {r.seat.game_id: r.waiting_on for r in home.others}
    assert waiting[other.pk] == "ben" and waiting[draft.pk] == "not started yet"
    results = {r.seat.game_id: r.result for r in home.finished}
    assert results[stopped.pk] == "over"
    assert results[ended.pk].startswith(("won with", "2nd of 2", "shared the win"))
    [figures] = home.figures
    assert (figures.title_name, figures.played) == ("Pebbles", 1)

    client = Client()
    client.force_login(ana)
    page = client.get("/").content.decode()
    assert page.index("Waiting on me") < page.index("Waiting on others") < page.index("Finished")
    assert "Hide a secret number" in page and "(Europe/Lisbon)" in page
    # one click opens the seat: the link is signed for ana's own seat
    url = home.mine[0].url
    assert client.get(url).status_code == 200
    assert "step by step" in page


def test_nobody_sees_anothers_games_or_addresses(make_game):
    make_game(seats=("ana@example.com", "ben@example.com"))
    make_game(seats=("cy@example.org", "dee@example.org"))
    client = Client()
    client.force_login(User.objects.get(email="ana@example.com"))
    page = client.get("/").content.decode()
    assert "cy@example.org" not in page and "dee@example.org" not in page and "ben@example.com" not in page
    assert len(home_for(User.objects.get(email="ana@example.com")).mine) == 1


def test_a_visitor_who_is_not_signed_in_is_offered_the_sign_in():
    page = Client().get("/").content.decode()
    assert "Sign in with your email" in page and "My games" not in page


def test_a_wait_that_began_this_minute_reads_just_now_not_0_minutes_ago(make_game):
    game = make_game()
    play.submit(game.pk, 0, 2, None, via="web")  # ben is asked now
    client = Client()
    client.force_login(User.objects.get(email="ana@example.com"))
    page = client.get("/").content.decode()
    assert 'ben <span class="meta">· just now</span>' in page
    assert "0 minutes" not in page


def test_ago_says_just_now_under_a_minute_and_the_time_after():
    from datetime import timedelta

    from django.utils import timezone

    from games.templatetags.when import ago

    now = timezone.now()
    assert ago(now - timedelta(seconds=40), now) == "just now"
    assert ago(now - timedelta(minutes=5), now) == "5\xa0minutes ago"
    assert ago(None) == ""


def test_the_yearly_vacation_line_is_said_once_not_under_every_game(clocked):
    games = [clocked(), clocked(), clocked(vacation_days=5)]
    client = Client()
    client.force_login(User.objects.get(email="ana@example.com"))
    page = client.get("/").content.decode()
    assert page.count("left this year") == 1
    assert "Vacation left this year: 14 of 14 days in Clocked and Clocked; 5 of 5 days in Clocked." in page
    for game in games[2:]:
        game.delete()
    page = client.get("/").content.decode()
    assert page.count("left this year") == 1 and "Vacation: 14 of 14 days left this year in each of your games." in page
