"""What pages show beside the engine's view (games/present.py): players by the names they go by now."""

from __future__ import annotations

from html import unescape

import pytest
from django.test import Client

from accounts.models import User
from games import links
from games.models import Seat
from games.present import renamed
from tests.support.play import mid_game

pytestmark = pytest.mark.django_db(transaction=True)


def page(seat: Seat) -> str:
    response = Client().get(f"/play/{links.token_for(seat)}/")
    assert response.status_code == 200
    return unescape(response.content.decode())


def test_a_player_who_renames_themself_is_called_by_the_new_name_in_the_table(make_game):
    game, _ = mid_game(make_game, "cafe_romantica", 2)
    User.objects.filter(email="ana@example.com").update(name="Ana Lima")
    ben = Seat.objects.select_related("player", "game").get(game=game, index=1)
    shown = page(ben)
    panel = next(p for p in game.engine.view(game.state, 1)["panels"] if p.get("table"))
    assert panel["table"]["rows"][0][0] == {"$seat": 0}, "the title names a seat; the service says who sits there"
    assert "<td>Ana Lima</td>" in shown, "the dice and turn order table names her as she is now"
    assert "Ana Lima's club" in shown, "and her club"
    assert "<td>ana</td>" not in shown


def test_renamed_changes_whole_names_and_possessives_never_a_card_or_a_sentence():
    view = {
        "status": "ana's turn: waiting for ana, ben.",
        "panels": [{"title": "ana's club", "cards": [{"id": "c1", "name": "ana"}], "table": {"rows": [["ana", "3"]]}}],
        "log": ["ana took 2."],
        "data": {"seats": [{"name": "ana", "coins": 2}]},
    }
    shown = renamed(view, {"ana": "Ana Lima"})
    assert shown["status"] == "Ana Lima's turn: waiting for ana, ben."
    assert shown["panels"][0]["title"] == "Ana Lima's club"
    assert shown["panels"][0]["cards"][0]["name"] == "ana", "a card keeps its own name"
    assert shown["panels"][0]["table"]["rows"][0] == ["Ana Lima", "3"]
    assert shown["data"]["seats"][0]["name"] == "Ana Lima"
    assert shown["log"] == ["ana took 2."], "sentences are the languages issue's"
    assert renamed(view, {}) is view


def test_the_final_scores_say_a_tie_break_is_one_on_the_page_and_in_the_email(make_game):
    from games import notify
    from games.models import Notification
    from tests.support.play import finish

    game = make_game()
    finish(game)
    ana = Seat.objects.select_related("player", "game").get(game=game, index=0)
    shown = page(ana)
    assert '<p class="tiebreak"><strong>Tie-break:</strong> ties share the win.</p>' in shown
    assert '<th scope="row">' in shown and '<ul class="adds"><li>pebbles <strong>' in shown
    text, html = notify.render(Notification.objects.get(seat=ana, kind="final"))
    assert "Tie-break: ties share the win." in text and "<strong>Tie-break:</strong> ties share the win." in html
