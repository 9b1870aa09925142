"""Play again (issue 14): one click offers the same table a new game, first seat rotated; each says yes."""

from __future__ import annotations

import pytest
from django.core import mail as django_mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import links
from games.actions import organise
from games.home import home_for
from games.models import Game, Seat
from tests.support.play import finish

pytestmark = pytest.mark.django_db(transaction=True)


def seat_path(game: Game, email: str) -> str:
    return reverse("seat", args=[links.token_for(Seat.objects.get(game=game, player__email=email))])


def test_one_click_offers_the_same_table_again_and_it_starts_when_all_say_yes(make_game):
    old = make_game(seats=("ana@example.com", "ben@example.com", None))
    finish(old)
    ana = Client()
    page = ana.get(seat_path(old, "ana@example.com")).content.decode()
    assert "Play again (the same table)" in page
    response = ana.post(reverse("seat-again", args=[links.token_for(Seat.objects.get(game=old, index=0))]))
    assert response.status_code == 302
    again = Game.objects.get(previous=old)
    assert again.status == Game.Status.DRAFT and again.title == old.title
    order = list(again.seats.order_by("index").values_list("player__email", "is_bot", "accepted"))
    assert order == [("ben@example.com", False, False), (None, True, True), ("ana@example.com", False, True)], (
        "the first seat moved on by one; the offerer and the bot have said yes"
    )
    assert any(m.subject.startswith("ana offers to play") and m.to == ["ben@example.com"] for m in django_mail.outbox)
    ben = User.objects.get(email="ben@example.com")
    assert home_for(ben).mine[0].question.startswith("Play again?")
    # a second click opens the same offer, never a second game
    ana.post(reverse("seat-again", args=[links.token_for(Seat.objects.get(game=old, index=0))]))
    assert Game.objects.filter(previous=old).count() == 1
    # ben says yes with one click on his new seat's page: the game starts
    ben_seat = Seat.objects.get(game=again, player=ben)
    waiting = Client().get(reverse("seat", args=[links.token_for(ben_seat)])).content.decode()
    assert "Yes, I'm in" in waiting
    Client().post(reverse("seat-accept", args=[links.token_for(ben_seat)]))
    again.refresh_from_db()
    assert again.status == Game.Status.ACTIVE


def test_a_game_in_play_cannot_be_played_again_and_an_offer_cannot_be_started_early(make_game, organiser):
    game = make_game()
    with pytest.raises(Exception, match="once it is over"):
        organise.play_again(game, organiser)
    finish(game)
    again = organise.play_again(game, organiser)
    with pytest.raises(Exception, match="not said yes"):
        organise.start_game(again)
    assert (
        Client()
        .post(reverse("seat-accept", args=[links.token_for(Seat.objects.get(game=game, index=0))]), follow=True)
        .status_code
        == 200
    )


def test_playing_again_with_bots_alone_starts_at_once(make_game):
    """The yes a bot would give never comes: a table of one person and bots starts the next game now."""
    from games.actions import organise
    from games.models import Game
    from tests.support.play import finish

    game = make_game(seats=("ana@example.com", None))
    finish(game)
    game.refresh_from_db()
    again = organise.play_again(game, actor=game.seats.get(index=0).player)
    assert again.status == Game.Status.ACTIVE and again.previous_id == game.pk


def test_an_offer_to_bots_alone_left_waiting_starts_when_its_maker_asks_again(make_game):
    """An offer made before such offers started at once is still a draft nobody will say yes to: the
    Play again button starts it and opens the new seat."""
    old = make_game(seats=("ana@example.com", None))
    finish(old)
    again = Game.objects.create(title=old.title, name="Stuck (again)", organiser=old.organiser, previous=old)
    ana = User.objects.get(email="ana@example.com")
    Seat.objects.create(game=again, index=0, is_bot=True, accepted=True)
    Seat.objects.create(game=again, index=1, player=ana, accepted=True)
    client = Client()
    response = client.post(reverse("seat-again", args=[links.token_for(Seat.objects.get(game=old, index=0))]))
    again.refresh_from_db()
    assert again.status == Game.Status.ACTIVE
    assert response.url == seat_path(again, "ana@example.com")
    assert "has started" in client.get(response.url).content.decode()
