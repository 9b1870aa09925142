"""Bot games through the pure engine: invariants after every step, JSON round trip, every game ends."""

from __future__ import annotations

import json
import random
from concurrent.futures import ProcessPoolExecutor

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import IllegalMove, step_rng
from games.titles.cafe_romantica import TITLE


def play(
    players: int, seed: str, options: dict | None = None, answer=None, check: bool = True, frozen: bool = False
) -> dict:
    state = TITLE.setup([f"Bot {i}" for i in range(players)], dict(options or {}), step_rng(seed, 0))
    seq = 0
    while TITLE.outcome(state) is None:
        prompts = TITLE.prompts(state)
        assert prompts, "no prompt but no outcome"
        seat = min(prompts)
        seq += 1
        r = step_rng(seed, seq)
        a = answer(state, seat, prompts[seat], r) if answer else TITLE.bot_answer(state, seat, r)
        prompts[seat].validate(a)
        before = json.dumps(state, sort_keys=True) if frozen else None
        new = TITLE.apply(state, seat, a, r)
        if frozen:
            assert json.dumps(state, sort_keys=True) == before, "apply changed its input"
        state = new
        if check:
            TITLE.check_invariants(state)  # includes the JSON round trip of the state
        assert seq < 5000, "the game does not end"
    return state


def play_batch(start: int, stop: int) -> list[int]:
    """Bot games start..stop-1, checked every step; their lengths in turns."""
    lengths = []
    for i in range(start, stop):
        players = 2 + i % 3
        options = {"pooling": True} if i % 10 == 9 else {}
        state = play(players, f"bots-{i}", options)
        assert json.loads(json.dumps(state)) == state
        out = TITLE.outcome(state)
        assert out.winners and all(len(state["seats"][w]["done"]) == 3 for w in out.winners)
        lengths.append(TITLE.turns_played(state))
    return lengths


def test_bot_games_keep_invariants_and_end():
    games = 1000
    with ProcessPoolExecutor(2) as pool:  # the machine's two cores
        parts = list(pool.map(play_batch, [0, games // 2], [games // 2, games]))
    lengths = sorted(parts[0] + parts[1])
    assert len(lengths) == games
    assert 8 <= lengths[len(lengths) // 2] <= 30


def random_answer(state, seat, prompt, r: random.Random):
    return prompt.random_answer(r)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10**6), st.booleans(), st.integers(1, 12))
def test_random_legal_answers_keep_invariants(players, seed, pooling, cap):
    options = {"pooling": pooling, "turn_cap": cap}
    state = play(players, f"rand-{seed}", options, answer=random_answer, frozen=True)
    assert TITLE.turns_played(state) <= cap
    assert TITLE.outcome(state).winners


JUNK = st.one_of(
    st.none(),
    st.integers(-5, 50),
    st.text(max_size=12),
    st.lists(st.integers(0, 9), max_size=4),
    st.dictionaries(st.sampled_from(["1", "2", "3", "manager", "agendas"]), st.integers(-3, 30), max_size=3),
)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 40), JUNK, st.integers(0, 3))
def test_junk_answers_are_refused_and_change_nothing(seed, steps, junk, who):
    state = TITLE.setup(["A", "B", "C", "D"], {}, step_rng(str(seed), 0))
    for k in range(steps):
        if TITLE.outcome(state):
            break
        prompts = TITLE.prompts(state)
        s = min(prompts)
        state = TITLE.apply(
            state, s, TITLE.bot_answer(state, s, step_rng(str(seed), k + 1)), step_rng(str(seed), k + 1)
        )
    before = json.dumps(state, sort_keys=True)
    try:
        after = TITLE.apply(state, who, junk, random.Random(1))
    except IllegalMove as e:
        assert str(e)
    else:  # a junk value that happens to be legal (e.g. "pass" or a zero bid) must give a sound state
        TITLE.check_invariants(after)
    assert json.dumps(state, sort_keys=True) == before
