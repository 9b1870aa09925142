"""Join links (issue 14): a host shares open seats; a seat is taken by the confirmation mailed to the joiner."""

from __future__ import annotations

import re

import pytest
from django.core import mail as django_mail
from django.core import signing
from django.test import Client
from django.urls import reverse

from accounts import tokens
from accounts.models import User
from games import links
from games.actions import joining, organise
from games.models import Game, Seat

pytestmark = pytest.mark.django_db(transaction=True)


def host_client() -> Client:
    client = Client()
    client.force_login(User.objects.for_email("host@example.org"))
    return client


def open_game(host: Client, seats: str = "host@example.org\nopen\nopen") -> Game:
    response = host.post(reverse("game-new"), {"title": "pebbles", "name": "Open table", "seats": seats})
    assert response.status_code == 302, response.content.decode()[:1500]
    return Game.objects.get(name="Open table")


def join_path(game: Game) -> str:
    game.refresh_from_db()
    return reverse("join", args=[links.join_token(game)])


def ask(path: str, name: str, email: str, client: Client | None = None):
    return (client or Client()).post(path, {"name": name, "email": email})


def confirm_path() -> str:
    body = django_mail.outbox[-1].body
    return re.search(r"http://testserver(/join/confirm/\?t=\S+)", body).group(1)


def take(client: Client, path: str):
    token = path.split("?t=", 1)[1]
    return client.post(reverse("join-confirm"), {"t": token})


def test_a_friend_follows_the_join_link_and_takes_a_seat_by_the_mailed_confirmation():
    host = host_client()
    game = open_game(host)
    page = host.get(reverse("game-detail", args=[game.pk])).content.decode()
    assert "Open seats: 2" in page and "/join/" in page
    joiner = Client()
    shown = joiner.get(join_path(game)).content.decode()
    assert "Join Open table" in shown and "2 seats open" in shown
    assert ask(join_path(game), "Bea", "bea@example.org", joiner).status_code == 200
    assert not Seat.objects.filter(game=game, player__email="bea@example.org").exists(), "asking takes nothing"
    confirm = confirm_path()
    assert joiner.get(confirm).status_code == 200, "opening the mailed link shows a button"
    assert not Seat.objects.filter(game=game, player__email="bea@example.org").exists(), "a GET takes nothing"
    done = take(joiner, confirm)
    assert done.status_code == 302 and "/play/" in done["Location"]
    seat = Seat.objects.get(game=game, player__email="bea@example.org")
    assert seat.index == 1 and seat.player.name == "Bea"
    assert joiner.session.get("_auth_user_id") == str(seat.player_id), "taking the seat signs in"


def test_one_seat_per_person_and_the_link_stops_when_every_seat_is_taken():
    host = host_client()
    game = open_game(host, "host@example.org\nopen")
    ask(join_path(game), "Bea", "bea@example.org")
    first = confirm_path()
    assert take(Client(), first).status_code == 302
    again = take(Client(), first)
    assert again.status_code == 409 and "already" in again.content.decode()
    game.refresh_from_db()
    assert game.join_nonce == "", "full: the link stops working"
    response = Client().get(reverse("join", args=[signing.dumps({"g": game.pk, "j": "x"}, salt=tokens.JOIN_SALT)]))
    assert response.status_code == 403


def test_a_revoked_link_and_its_pending_confirmations_stop_working():
    host = host_client()
    game = open_game(host)
    old_path = join_path(game)
    ask(old_path, "Bea", "bea@example.org")
    pending = confirm_path()
    assert host.post(reverse("game-join-link", args=[game.pk]), {"do": "revoke"}).status_code == 302
    assert Client().get(old_path).status_code == 403
    refused = take(Client(), pending)
    assert refused.status_code == 409 and "revoked" in refused.content.decode()
    host.post(reverse("game-join-link", args=[game.pk]), {"do": "new"})
    assert Client().get(join_path(game)).status_code == 200
    assert Client().get(old_path).status_code == 403, "the old link stays dead"


def test_the_host_starts_early_with_bots_in_the_open_seats():
    host = host_client()
    game = open_game(host)
    response = host.post(reverse("game-start", args=[game.pk]), follow=True)
    assert "still open" in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.DRAFT
    host.post(reverse("game-start", args=[game.pk]), {"bots": "1"})
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.join_nonce == ""
    assert Seat.objects.filter(game=game, is_bot=True).count() == 2


@pytest.mark.parametrize("bad", ["", "x", "a" * 5000, "%00", "not.a.token"])
def test_forged_or_damaged_links_are_refused_in_words(bad):
    host = host_client()
    game = open_game(host)
    assert Client().get(f"/join/{bad or 'x'}/").status_code == 403
    assert Client().post(reverse("join-confirm"), {"t": bad}).status_code == 403
    assert not Seat.objects.filter(game=game, player__isnull=False).exclude(player__email="host@example.org").exists()


def test_only_the_host_manages_the_join_link():
    game = open_game(host_client())
    stranger = Client()
    stranger.force_login(User.objects.for_email("eve@example.org"))
    assert stranger.post(reverse("game-join-link", args=[game.pk]), {"do": "revoke"}).status_code == 403
    game.refresh_from_db()
    assert game.join_nonce


def test_a_started_game_has_no_join_link(make_game):
    game = open_game(host_client())
    organise.start_game(game, bots_in_open_seats=True)
    with pytest.raises(links.LinkError):
        links.game_from_join_token(signing.dumps({"g": game.pk, "j": ""}, salt=tokens.JOIN_SALT))
    with pytest.raises(Exception, match="not started"):
        joining.set_join_link(game, True)
