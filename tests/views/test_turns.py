"""games/views/turns.py: a queued turn posted from the seat page, and the preview its script asks for.

The send is a form POST like the one-step Send: the page reloads with "Played your 3 steps." or
with the refused step and why beside the decision, and nothing played. The preview answers JSON:
the title's own table drawn from the seat's view after the queued steps, and the next question's
form fields; a refusal is a message in words.
"""

from __future__ import annotations

import json
import re

import pytest

from games import links
from games.models import Game, Seat
from tests.support.cafe_turns import to_play_phase

pytestmark = pytest.mark.django_db

PEOPLE = ("ana@example.com", "ben@example.com")


def url(game: Game, seat: int, what: str = "") -> str:
    return f"/play/{links.token_for(Seat.objects.get(game=game, index=seat))}/{what}"


def test_a_queued_turn_posted_from_the_page_is_played_and_said(client, relay):
    game = relay
    response = client.post(url(game, 0, "turn/"), {"version": game.version, "steps": '["add1", "add2", "end"]'})
    assert response.status_code == 302 and response["Location"].endswith("#decision")
    page = client.get(response["Location"]).content.decode()
    assert "Played your 3 steps." in page
    game.refresh_from_db()
    assert game.state["sums"] == [3, 0] and game.state["turn"] == 1


def test_a_refused_queued_turn_is_said_by_the_decision_and_plays_nothing(client, relay):
    game = relay
    response = client.post(url(game, 0, "turn/"), {"version": game.version, "steps": '["add2", "end", "add1"]'})
    page = client.get(response["Location"]).content.decode()
    assert (
        "Your 2nd step, End my turn, ends your turn (it hands the move to another player), "
        "so nothing can be sent after it. Nothing was played."
    ) in page
    assert Game.objects.get(pk=game.pk).version == game.version


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"steps": '["add1"]'}, "This form is incomplete"),
        ({"version": "0", "steps": ""}, "No steps were sent"),
        ({"version": "0", "steps": "[add1"}, "The steps sent could not be read"),
        ({"version": "0", "steps": "[]"}, "The steps sent could not be read"),
        ({"version": "0", "steps": json.dumps(["add1"] * 30)}, "A turn takes at most 24 steps; 30 were sent."),
    ],
)
def test_a_turn_that_cannot_be_read_is_refused_in_words(client, relay, fields, said):
    fields = {k: (str(relay.version) if k == "version" else v) for k, v in fields.items()}
    response = client.post(url(relay, 0, "turn/"), fields)
    assert said in client.get(response["Location"]).content.decode()
    preview = client.post(url(relay, 0, "preview/"), fields)
    assert preview.status_code == 400 and preview.json()["message"].startswith(said)
    assert Game.objects.get(pk=relay.pk).version == relay.version


def test_a_turn_and_a_preview_are_posts_behind_a_genuine_link(client, relay):
    assert client.get(url(relay, 0, "turn/")).status_code == 405
    assert client.get(url(relay, 0, "preview/")).status_code == 405
    bad = client.post("/play/not-a-token/preview/", {"version": relay.version, "steps": '["add1"]'})
    assert bad.status_code == 403 and "This link is not valid" in bad.json()["message"]
    bad = client.post("/play/not-a-token/turn/", {"version": relay.version, "steps": '["add1"]'})
    assert bad.status_code == 403 and "This link is not valid" in bad.content.decode()


def test_the_preview_is_the_titles_table_after_the_steps_and_the_next_question(client, make_game):
    """Café: Ana's placement previewed is her area with the card on it, and her first action's choices."""
    game = to_play_phase(make_game(title="cafe", seats=PEOPLE, options={"first_master": "first"}))
    placement = game.engine.prompts(game.state)[0].options[0].id
    card = placement.split("@")[0]
    response = client.post(url(game, 0, "preview/"), {"version": game.version, "steps": json.dumps([placement])})
    said = response.json()
    assert response.status_code == 200 and said["ok"] and said["asked"]
    assert said["steps"][0]["answer"] == placement and said["steps"][0]["label"].startswith("Top-left at row")
    assert 'class="cafe-area mine"' in said["table"] and f'data-card="{card}"' in said["table"]
    assert said["prompt"]["text"].startswith("Round 1: action 1 of")
    assert 'name="answer" value="stop"' in said["prompt_html"]
    assert Game.objects.get(pk=game.pk).version == game.version, "a preview played something"


def test_the_seat_page_offers_a_queue_only_where_the_title_queues(client, make_game):
    cafe = to_play_phase(make_game(title="cafe", seats=PEOPLE, options={"first_master": "first"}))
    page = client.get(url(cafe, 0)).content.decode()
    # the preview's address is this seat's (its link signed when the page was drawn: compare seats)
    [token] = re.findall(r'data-preview="/play/([^/"]+)/preview/"', page)
    assert links.seat_from_token(token).pk == cafe.seats.get(index=0).pk and 'id="cafe-queue"' in page
    romantica = make_game(title="cafe_romantica", seats=PEOPLE)
    page = client.get(url(romantica, 0)).content.decode()
    assert "data-preview" not in page and "prompts.js" in page
