"""Spectators (issue 14): a revocable read-only link shows the table as nobody's seat sees it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import links
from games.actions import organise, play
from games.models import Event, Game

pytestmark = pytest.mark.django_db(transaction=True)


def watch_path(game: Game) -> str:
    game.refresh_from_db()
    return reverse("watch", args=[links.watch_token(game)])


def test_a_spectator_sees_the_public_table_and_log_never_a_secret(make_game):
    game = make_game()
    play.submit(game.pk, 0, 3, None, via="web")  # ana hides 3: the log tells her "You hid 3."
    organise.set_watch_link(game, True)
    before = Event.objects.filter(game=game).count()
    page = Client().get(watch_path(game)).content.decode()
    assert "watching as a spectator" in page and "hid a number" in page
    assert "You hid 3" not in page and ">3<" not in page, "ana's secret stays hers"
    assert "<form" not in page.split("<main>", 1)[1].split("</main>", 1)[0], "a spectator gets no form to play"
    assert Event.objects.filter(game=game).count() == before, "watching changes nothing"


def test_the_host_revokes_and_renews_the_spectator_link(make_game, organiser):
    game = make_game()
    client = Client()
    client.force_login(organiser)
    assert client.post(reverse("game-watch-link", args=[game.pk]), {"do": "new"}).status_code == 302
    first = watch_path(game)
    assert Client().get(first).status_code == 200
    assert "Spectator link" in client.get(reverse("game-detail", args=[game.pk])).content.decode()
    client.post(reverse("game-watch-link", args=[game.pk]), {"do": "new"})
    assert Client().get(first).status_code == 403, "a new link retires the old one"
    client.post(reverse("game-watch-link", args=[game.pk]), {"do": "revoke"})
    assert Client().get(watch_path(game)).status_code == 403


@pytest.mark.parametrize("bad", ["x", "a" * 5000, "%00", "not.a.token"])
def test_a_forged_spectator_link_is_refused_in_words(bad, make_game):
    game = make_game()
    organise.set_watch_link(game, True)
    response = Client().get(f"/watch/{bad}/")
    assert response.status_code == 403 and "spectator link" in response.content.decode()


def test_only_the_host_makes_spectator_links(make_game, django_user_model):
    game = make_game()
    stranger = Client()
    stranger.force_login(django_user_model.objects.for_email("eve@example.org"))
    assert stranger.post(reverse("game-watch-link", args=[game.pk]), {"do": "new"}).status_code == 403
    game.refresh_from_db()
    assert game.watch_nonce == ""


def test_a_spectator_sees_a_paused_game_as_paused_by_whom_and_why(make_game, organiser):
    game = make_game()
    organise.set_watch_link(game, True)
    organise.pause(game, actor=organiser, reason="a holiday week")
    page = Client().get(watch_path(game)).content.decode()
    line = page.split('role="status">', 1)[1].split("</p>", 1)[0]
    assert line.startswith("Paused since ") and "(a holiday week)" in line, line
    game.refresh_from_db()
    assert game.engine.view(game.state, None)["status"] not in line
