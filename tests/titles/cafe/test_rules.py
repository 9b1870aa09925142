"""The flow: simultaneous place-and-act, the shared supply, the master token, the end after round 8."""

from __future__ import annotations

import random

import pytest

from games.engine import IllegalMove
from games.engine.messages import english
from games.engine.rng import step_rng

from .helpers import TITLE, grid, new_game, option_ids, play, with_area


def _draft_all(state):
    while state["phase"] == "draft":
        seat = state["to_pick"][0]
        state = play(state, seat, option_ids(state, seat)[0])
    return state


def test_after_the_draft_every_seat_places_and_acts_at_the_same_time():
    state = _draft_all(new_game(3, first_master="first"))
    prompts = TITLE.prompts(state)
    assert sorted(prompts) == [0, 1, 2]
    assert all(o.id.startswith(state["seats"][i]["hand"] + "@") for i, p in prompts.items() for o in p.options)
    # the last seat can place and act before the first: nobody waits on anybody
    state = play(state, 2, option_ids(state, 2)[0])
    assert english(TITLE.prompts(state)[2].text).startswith("Round 1: action 1 of")
    assert state["seats"][0]["stage"] == "place"


def test_a_seat_with_nothing_to_do_is_refused():
    state = _draft_all(new_game(2, first_master="first"))
    seat = 0
    while state["seats"][seat]["stage"] != "done":
        state = play(state, seat, "stop" if state["seats"][seat]["stage"] == "act" else option_ids(state, seat)[0])
    with pytest.raises(IllegalMove, match="nothing to do"):
        play(state, 0, "stop")


def test_a_short_supply_goes_first_come_first_served():
    area = grid("bean:red bean:red bean:red", "cup cup blank")
    state = with_area(area, n=2, supply={"yellow": 9, "brown": 9, "green": 9, "red": 4})
    seats = list(state["seats"])
    seats[1] = {**seats[0]}
    state["seats"] = seats
    # seat 1 answers first and gets its 3 cubes; seat 0 then finds one left
    state = play(state, 1, "produce@r0c0")
    assert state["seats"][1]["cubes"] == {"0,0": ["red", 1], "0,1": ["red", 1], "0,2": ["red", 1]}
    assert english(TITLE.prompts(state)[0].options[0].label).endswith("(the supply is short)")
    state = play(state, 0, "produce@r0c0")
    assert state["seats"][0]["cubes"] == {"0,0": ["red", 1]}
    assert state["supply"]["red"] == 0


def test_the_master_token_passes_left_and_the_next_round_begins_when_all_are_done():
    state = _draft_all(new_game(3, first_master="first"))
    for seat in range(3):
        while state["seats"][seat]["stage"] in ("place", "act"):
            answer = "stop" if state["seats"][seat]["stage"] == "act" else option_ids(state, seat)[0]
            state = play(state, seat, answer)
    assert state["round"] == 2 and state["master"] == 1 and state["phase"] == "draft"
    assert state["to_pick"] == [2, 0, 1]
    assert len(state["display"]) == 3


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_the_game_ends_after_round_8(n):
    state = TITLE.setup([f"P{i}" for i in range(n)], {}, step_rng("end", 0))
    seq = 0
    rounds_seen = set()
    passes = 0
    while TITLE.outcome(state) is None:
        rounds_seen.add(state["round"])
        seat = min(TITLE.prompts(state))
        seq += 1
        answer = TITLE.bot_answer(state, seat, step_rng("end", seq))
        passes += answer == "pass" and len(state["to_pick"]) > 1  # no refill after a pass
        state = TITLE.apply(state, seat, answer, step_rng("end", seq))
    assert rounds_seen == set(range(1, 9))
    assert TITLE.turns_played(state) == 8
    assert TITLE.prompts(state) == {}
    # players + 2 cards a round use the deck up exactly; a seat that cannot pay takes none (no refill)
    assert len(state["deck"]) == passes
    with pytest.raises(IllegalMove, match="over"):
        TITLE.apply(state, 0, "stop", random.Random(0))


def test_default_answer_is_legal_at_every_kind_of_prompt():
    state = new_game(2, first_master="first")
    for _ in range(40):
        prompts = TITLE.prompts(state)
        if not prompts:
            break
        seat = min(prompts)
        answer = TITLE.default_answer(state, seat)
        assert answer in {o.id for o in prompts[seat].options}
        state = TITLE.apply(state, seat, answer, random.Random(0))
