"""What a seat sees: the grid, every legal placement, the actions, and never the deck."""

from __future__ import annotations

import json

from games.engine.messages import english
from games.engine.rng import step_rng

from .helpers import TITLE, new_game, option_ids, play


def _placing():
    state = new_game(3, first_master="first")
    while state["phase"] == "draft":
        seat = state["to_pick"][0]
        state = play(state, seat, option_ids(state, seat)[0])
    return state


def test_view_hides_the_deck_and_the_cards_removed_face_down():
    state = new_game(2)
    hidden = set(state["deck"]) | set(state["removed"])
    for seat in (0, 1, None):
        blob = json.dumps(TITLE.view(state, seat))
        assert not any(f'"{c}"' in blob for c in hidden), seat
        assert TITLE.view(state, seat)["data"]["deck_count"] == len(state["deck"])


def test_view_lists_every_legal_placement_with_its_cells():
    state = _placing()
    v = TITLE.view(state, 0)
    ids = [p["id"] for p in v["data"]["placements"]]
    assert ids == option_ids(state, 0)
    p = v["data"]["placements"][0]
    assert len(p["cells"]) == 6 and {"row", "col", "square", "kind"} <= set(p["cells"][0])
    area = v["data"]["seats"][0]["area"]
    assert len(area["cells"]) == 6 and area["top"] == 0 and area["left"] == 0
    assert v["data"]["seats"][0]["hand"]["id"] == state["seats"][0]["hand"]
    # another seat's page does not offer seat 0's placements
    assert "placements" not in TITLE.view(state, None)["data"]
    assert "placements" in TITLE.view(state, 1)["data"]


def test_view_lists_the_actions_one_prompt_at_a_time():
    state = _placing()
    state = play(state, 0, option_ids(state, 0)[0])
    v = TITLE.view(state, 0)
    assert [a["id"] for a in v["data"]["actions"]] == option_ids(state, 0)
    assert v["data"]["seats"][0]["actions_left"] == state["seats"][0]["left"]
    table = next(p["table"] for p in v["panels"] if english(p["title"]).startswith("Your business area"))
    assert english(table["header"][0]) == "row / col" and len(table["rows"]) >= 2


def test_once_the_game_is_over_the_view_shows_everything():
    state = TITLE.setup(["A", "B"], {}, step_rng("v", 0))
    seq = 0
    while TITLE.outcome(state) is None:
        seat = min(TITLE.prompts(state))
        seq += 1
        state = TITLE.apply(state, seat, TITLE.bot_answer(state, seat, step_rng("v", seq)), step_rng("v", seq))
    v = TITLE.view(state, None)
    assert v["data"]["removed"] == state["removed"]
    assert english(v["status"]).startswith("Game over")
    assert any(english(p["title"]) == "Final scores" for p in v["panels"])
    assert english(v["log"][-1]) == "The game ends after round 8."
