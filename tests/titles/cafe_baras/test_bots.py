"""Thousands of bot games through the pure engine, with the invariants checked at every step."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import IllegalMove
from games.engine.rng import step_rng
from games.engine.simulate import run
from games.titles.cafe_baras import TITLE
from games.titles.cafe_baras.state import cardset_of

MAX_STEPS = 2_000


def _without_cardset(state):
    return {k: v for k, v in state.items() if k != "cardset"}


def play_game(players: int, seed: str, chooser=None, each_step=None) -> dict:
    names = [f"Bot {i + 1}" for i in range(players)]
    state = TITLE.setup(names, {}, step_rng(seed, 0))
    assert json.loads(json.dumps(state["cardset"])) == state["cardset"]
    TITLE.check_invariants(state)
    seq = 0
    while TITLE.outcome(state) is None:
        prompts = TITLE.prompts(state)
        assert len(prompts) == 1, "Café Baras asks one seat at a time"
        (seat,) = prompts
        seq += 1
        rng = step_rng(seed, seq)
        answer = chooser(state, seat, prompts[seat], rng) if chooser else TITLE.bot_answer(state, seat, rng)
        prompts[seat].validate(answer)  # every bot answer is one the prompt offers
        before = json.dumps(_without_cardset(state), sort_keys=True)
        new = TITLE.apply(state, seat, answer, step_rng(seed, seq))
        assert json.dumps(_without_cardset(state), sort_keys=True) == before, "apply changed its input"
        assert new["cardset"] is state["cardset"], "the card set is shared, never copied"
        state = new
        TITLE.check_invariants(state)
        plain = _without_cardset(state)
        assert json.loads(json.dumps(plain)) == plain
        if each_step:
            each_step(state)
        assert seq < MAX_STEPS, f"game {seed} does not end"
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bot_games_keep_every_invariant_and_end(players):
    games = {2: 350, 3: 400, 4: 350}[players]
    lengths = []
    for i in range(games):
        state = play_game(players, f"fuzz-{players}-{i}")
        result = TITLE.outcome(state)
        assert set(result.scores) == set(range(players))
        assert all(sum(p for _, p in result.breakdown[s]) == result.scores[s] for s in result.scores)
        assert result.winners and all(result.scores[w] == max(result.scores.values()) for w in result.winners)
        lengths.append(TITLE.turns_played(state) / players)
    lengths.sort()
    median = lengths[len(lengths) // 2]
    assert 5 <= median <= 20, f"median game length {median} turns per player"


def test_games_with_random_legal_answers_end_too():
    def chooser(state, seat, prompt, rng):
        return prompt.random_answer(rng)

    for i in range(60):
        play_game(3, f"random-{i}", chooser)


def test_deadline_answers_are_always_legal():
    """Half the moves are the deadline's default answer: it must always be accepted."""

    def chooser(state, seat, prompt, rng):
        default = TITLE.default_answer(state, seat)
        prompt.validate(default)
        return default if rng.random() < 0.5 else TITLE.bot_answer(state, seat, rng)

    for i in range(60):
        play_game(3, f"deadline-{i}", chooser)


def test_only_default_answers_still_end_the_game():
    def chooser(state, seat, prompt, rng):
        return TITLE.default_answer(state, seat)

    for i in range(20):
        play_game(2, f"defaults-{i}", chooser)


def test_same_seed_same_game():
    a = play_game(3, "replay-7")
    b = play_game(3, "replay-7")
    assert a == b


def test_simulate_runner_reports_no_errors():
    report = run("cafe_baras", 120, 3, "sim", workers=1, check=True)
    assert report.errors == 0, report.first_errors
    assert report.games == 120 and len(report.lengths) == 120


GARBAGE = st.one_of(
    st.none(),
    st.integers(),
    st.text(max_size=12),
    st.sampled_from(["add:", "serve:", "add:nope", "serve:latte", "pass", "add:latte"]),
    st.lists(st.text(max_size=8), max_size=5),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 40), answer=GARBAGE, seat=st.integers(0, 2))
def test_any_answer_is_applied_or_refused_without_changing_anything(seed, steps, answer, seat):
    state = TITLE.setup(["a", "b", "c"], {}, random.Random(seed))
    for i in range(steps):
        if state["over"]:
            break
        (who,) = TITLE.prompts(state)
        state = TITLE.apply(state, who, TITLE.bot_answer(state, who, random.Random(i)), random.Random(i))
    before = json.dumps(_without_cardset(state), sort_keys=True)
    try:
        new = TITLE.apply(state, seat, answer, random.Random(1))
    except IllegalMove as e:
        assert str(e)
    else:
        TITLE.check_invariants(new)
        (who,) = TITLE.prompts(state) if not state["over"] else (None,)
        assert who == seat
    assert json.dumps(_without_cardset(state), sort_keys=True) == before


def test_cards_are_conserved_across_the_whole_set():
    state = play_game(4, "conserve")
    cs = cardset_of(state)
    places = [state["deck"], state["discard"], state["display"]] + [
        s[k] for s in state["seats"] for k in ("hand", "cafe", "regulars")
    ]
    assert sorted(c for p in places for c in p) == sorted(cs.order)


@pytest.mark.parametrize(
    ("breakage", "message"),
    [
        (lambda s: s["seats"][0]["hand"].append(s["deck"][0]), "not conserved"),
        (lambda s: s["deck"].pop(), "not conserved"),
        (lambda s: s["seats"][1].update(coins=-1), "coins"),
        (lambda s: s["seats"][0]["guests"].append(s["box"][0]), "guests"),
        (lambda s: s["display"].append(s["deck"].pop()), "display overfull"),
        (lambda s: s["seats"][1].update(counter=s["seats"][0]["counter"]), "counters"),
    ],
)
def test_the_invariant_check_catches_a_broken_table(breakage, message):
    state = TITLE.setup(["a", "b", "c"], {}, random.Random(3))
    TITLE.check_invariants(state)
    breakage(state)
    with pytest.raises(AssertionError, match=message):
        TITLE.check_invariants(state)
