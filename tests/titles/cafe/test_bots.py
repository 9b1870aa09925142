"""Thousands of bot games through the pure engine, every step checked.

Invariants every step: 35 cubes a colour across supply, areas, shops and warehouses; every plan
card in exactly one place; actions between 0 and 8; a cup always visible; the game ends after
round 8. Along the way: JSON round trips, apply never changes its input, and no seat's view shows
the deck or the removed cards.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import IllegalMove
from games.engine.rng import step_rng
from games.titles.cafe import TITLE, check_invariants

GAMES = {1: 700, 2: 500, 3: 220, 4: 80}  # 1500 games


def _play(n: int, seed: str, deep: bool) -> dict:
    state = TITLE.setup([f"Bot {i}" for i in range(n)], {}, step_rng(seed, 0))
    check_invariants(state)
    seq = 0
    while TITLE.outcome(state) is None:
        prompts = TITLE.prompts(state)
        assert prompts, f"{seed}: no prompt and no outcome"
        seat = min(prompts)
        seq += 1
        answer = TITLE.bot_answer(state, seat, step_rng(seed, seq))
        assert answer in {o.id for o in prompts[seat].options}
        if deep:
            before = json.dumps(state, sort_keys=True)
        new = TITLE.apply(state, seat, answer, step_rng(seed, seq))
        if deep:
            assert json.dumps(state, sort_keys=True) == before, "apply changed its input"
            assert json.loads(json.dumps(new)) == new
            hidden = [f'"{c}"' for c in (*new["deck"], *new["removed"])]
            blob = json.dumps(TITLE.view(new, seat))
            if TITLE.outcome(new) is None:  # once over, the view shows everything
                assert not any(h in blob for h in hidden), "a view shows a hidden card"
        elif seq % 40 == 0:
            assert json.loads(json.dumps(new)) == new
        state = new
        check_invariants(state)
        assert seq < 2000, f"{seed}: no end"
    assert state["round"] == 8 and TITLE.turns_played(state) == 8
    assert json.loads(json.dumps(state)) == state
    return state


@pytest.mark.parametrize("n", sorted(GAMES))
def test_bot_games_keep_every_invariant(n):
    scores = []
    for g in range(GAMES[n]):
        state = _play(n, f"bots-{n}-{g}", deep=g < 15)
        scores += TITLE.outcome(state).scores.values()
    assert max(scores) > 15, "bots should reach sensible scores"


def test_a_broken_state_is_caught_by_the_invariants():
    state = TITLE.setup(["A", "B"], {}, step_rng("x", 0))
    lost = {**state, "supply": {**state["supply"], "red": state["supply"]["red"] - 1}}
    with pytest.raises(AssertionError, match="red"):
        check_invariants(lost)
    seats = [{**state["seats"][0], "actions": 9, "left": 9}, state["seats"][1]]
    with pytest.raises(AssertionError, match="actions"):
        check_invariants({**state, "seats": seats})


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    steps=st.integers(0, 120),
    junk=st.one_of(st.text(max_size=12), st.integers(), st.none()),
)
def test_random_answers_are_played_or_refused_without_change(seed, steps, junk):
    """Any answer at any point is either legal (and keeps the invariants) or refused, changing nothing."""
    state = TITLE.setup(["A", "B", "C"], {}, step_rng(str(seed), 0))
    for seq in range(1, steps + 1):
        prompts = TITLE.prompts(state)
        if not prompts:
            break
        rng = step_rng(str(seed), seq)
        seat = rng.choice(sorted(prompts))
        before = json.dumps(state, sort_keys=True)
        try:
            TITLE.apply(state, seat, junk, rng)
        except IllegalMove:
            pass
        else:
            assert junk in {o.id for o in prompts[seat].options}
        assert json.dumps(state, sort_keys=True) == before
        state = TITLE.apply(state, seat, prompts[seat].random_answer(rng), rng)
        check_invariants(state)
