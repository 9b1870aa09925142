"""Setup, options and the protocol duties of the title (apply never changes its input, defaults)."""

from __future__ import annotations

import copy
import json

import pytest

from games.engine import OptionsError
from games.titles.cafe_romantica import TITLE
from games.titles.cafe_romantica.cards import deck_ids

from .helpers import (
    CARDS,
    drafted,
    field_state,
    illegal,
    rng,
)

# ---------------------------------------------------------------- setup and options


def test_setup_player_counts():
    for n in (2, 3, 4):
        assert len(TITLE.setup([f"P{i}" for i in range(n)], {}, rng())["seats"]) == n
    for n in (1, 5):
        with pytest.raises(OptionsError):
            TITLE.setup([f"P{i}" for i in range(n)], {}, rng())


def test_setup_options_validated():
    for bad in ({"turn_cap": -1}, {"turn_cap": "10"}, {"pooling": "yes"}, {"colour": "pink"}):
        with pytest.raises(OptionsError):
            TITLE.setup(["A", "B"], bad, rng())
    assert {f.name for f in TITLE.options_schema} == {"turn_cap", "pooling"}


def test_setup_deck_of_hosts_and_focus_shuffled_field_of_eight():
    state = TITLE.setup(["A", "B", "C"], {}, rng())
    assert len(state["field"]) == 8 and None not in state["field"]
    assert sorted(state["deck"] + state["field"]) == sorted(deck_ids(CARDS))
    other = TITLE.setup(["A", "B", "C"], {}, rng(9))
    assert other["deck"] != state["deck"]


def test_setup_takes_the_cardset_from_options():
    cards = copy.deepcopy(CARDS)
    cards["flyer"] = dict(cards["flyer"], hearts=5)
    state = TITLE.setup(["A", "B"], {"cardset": cards}, rng())
    assert state["cards"]["flyer"]["hearts"] == 5


def test_setup_state_is_json():
    state = drafted(4)
    assert json.loads(json.dumps(state)) == state


# ---------------------------------------------------------------- protocol duties


def test_apply_does_not_change_its_input():
    state = field_state()
    before = json.dumps(state, sort_keys=True)
    TITLE.apply(state, 0, "gentleman-1", rng())
    state2 = drafted(3)
    before2 = json.dumps(state2, sort_keys=True)
    if state2["phase"] == "auction":
        for s in TITLE.prompts(state2):
            TITLE.apply(state2, s, TITLE.default_answer(state2, s), rng())
    assert json.dumps(state, sort_keys=True) == before and json.dumps(state2, sort_keys=True) == before2


def test_default_answers_are_legal_in_every_phase():
    state = TITLE.setup(["A", "B", "C"], {}, rng())
    for _ in range(200):
        if TITLE.outcome(state):
            break
        prompts = TITLE.prompts(state)
        s = min(prompts)
        prompts[s].validate(TITLE.default_answer(state, s))
        state = TITLE.apply(state, s, TITLE.default_answer(state, s), rng(_))
    assert state["turn"] > 5


def test_bad_seat_is_refused():
    assert "no such seat" in illegal(field_state(), 7, "pass")
