"""Bot games through the pure engine: thousands of steps with invariants, JSON round trips,
untouched inputs and an end to every game; plus property tests on random answers."""

from __future__ import annotations

import json
import random
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import IllegalMove, simulate
from games.engine.messages import english
from games.engine.rng import step_rng
from games.titles.tanto_cuore_rv import TITLE
from games.titles.tanto_cuore_rv.effects import STAGES
from games.titles.tanto_cuore_rv.state import instance_ids
from games.titles.tanto_cuore_rv.turn import love_plan


def test_a_thousand_bot_games_keep_every_invariant_and_end():
    # 500 through the simulate runner (the first-game maids, as `manage.py simulate` plays them)
    played = 0
    for players, games in ((2, 100), (3, 200), (4, 100), (5, 50), (6, 50)):
        report = simulate.run("tanto_cuore_rv", games, players, f"fuzz{players}", workers=2, check=True)
        assert report.errors == 0, report.first_errors[:1]
        assert len(report.lengths) == games and min(report.lengths) > 0
        played += report.games
    # 500 more with ten random general maids each, so every card's effect is exercised
    stages: set[str] = set()
    ends: set[str] = set()
    for g in range(500):
        seed = f"fuzz-random-{g}"
        s = TITLE.setup([f"P{i}" for i in range(2 + g % 5)], {"selection": "random"}, step_rng(seed, 0))
        seq = 0
        while TITLE.outcome(s) is None:
            seq += 1
            assert seq < simulate.MAX_STEPS, "the game never ends"
            seat = min(TITLE.prompts(s))
            stages.add(s["stage"]["kind"])
            s = TITLE.apply(s, seat, TITLE.bot_answer(s, seat, step_rng(seed, seq)), step_rng(seed, seq))
            TITLE.check_invariants(s)
        ends.add("camp fire" if "Camp Fire" in english(s["end_reason"]) else "stacks")
        played += 1
    assert played == 1000
    assert stages >= set(STAGES) | {"main"}, set(STAGES) - stages
    assert ends == {"camp fire", "stacks"}


def test_bot_games_round_trip_through_json_and_never_change_their_input():
    for g in range(25):
        players = 2 + g % 5
        seed = f"json-{g}"
        s = TITLE.setup([f"P{i}" for i in range(players)], {"selection": "random"}, step_rng(seed, 0))
        seq = 0
        while TITLE.outcome(s) is None:
            seq += 1
            seat = min(TITLE.prompts(s))
            answer = TITLE.bot_answer(s, seat, step_rng(seed, seq))
            before = json.dumps(s, sort_keys=True)
            new = TITLE.apply(s, seat, answer, step_rng(seed, seq))
            assert json.dumps(s, sort_keys=True) == before
            assert json.loads(json.dumps(new)) == new
            TITLE.check_invariants(new)
            s = new
            assert seq < 5000
        out = TITLE.outcome(s)
        assert set(out.scores) == set(range(players)) and out.winners


def test_replaying_the_same_answers_gives_the_same_game():
    def run(seed: str):
        s = TITLE.setup(["A", "B", "C"], {}, step_rng(seed, 0))
        for seq in range(1, 300):
            if TITLE.outcome(s) is not None:
                break
            seat = min(TITLE.prompts(s))
            s = TITLE.apply(s, seat, TITLE.bot_answer(s, seat, step_rng(seed, seq)), step_rng(seed, seq))
        return s

    assert run("same") == run("same")


def test_default_answers_are_always_legal_and_finish_games():
    for g in range(15):
        seed = f"default-{g}"
        s = TITLE.setup(["A", "B", "C", "D"][: 2 + g % 3], {}, step_rng(seed, 0))
        seq = 0
        while TITLE.outcome(s) is None and seq < 3000:
            seq += 1
            seat = min(TITLE.prompts(s))
            # every other step a deadline passes, so the passive answer gets exercised everywhere
            answer = TITLE.default_answer(s, seat) if seq % 2 else TITLE.bot_answer(s, seat, step_rng(seed, seq))
            s = TITLE.apply(s, seat, answer, step_rng(seed, seq))
            TITLE.check_invariants(s)
        assert TITLE.outcome(s) is not None


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6), steps=st.integers(1, 150))
def test_random_answers_are_applied_or_refused_without_changing_anything(seed, players, steps):
    rng = random.Random(seed)
    s = TITLE.setup([f"P{i}" for i in range(players)], {"selection": "random"}, rng)
    for _ in range(steps):
        if TITLE.outcome(s) is not None:
            break
        ps = TITLE.prompts(s)
        seat = rng.choice(sorted(ps))
        answer = ps[seat].random_answer(rng)
        before = json.dumps(s, sort_keys=True)
        try:
            s = TITLE.apply(s, seat, answer, rng)
        except IllegalMove as e:
            assert str(e)
            assert json.dumps(s, sort_keys=True) == before
            s = TITLE.apply(s, seat, TITLE.default_answer(s, seat), rng)
        TITLE.check_invariants(s)


@settings(max_examples=200, deadline=None)
@given(
    hand=st.lists(st.sampled_from(["love_1", "love_2", "love_3", "evita_catala"]), max_size=9),
    need=st.integers(0, 20),
)
def test_love_plan_wastes_the_least_love_then_plays_the_fewest_cards(hand, need):
    s = TITLE.setup(["A", "B"], {}, random.Random(0))
    value = {"love_1": 1, "love_2": 2, "love_3": 3}
    plan = love_plan(s, hand, need)
    counts = [hand.count(k) for k in value]
    best = None
    for combo in product(*(range(k + 1) for k in counts)):
        total = sum(n * v for n, v in zip(combo, value.values(), strict=True))
        if total >= need:
            key = (total, sum(combo))
            best = key if best is None or key < best else best
    if best is None:
        assert plan is None
    else:
        assert plan is not None and (sum(value[c] for c in plan), len(plan)) == best
        assert all(plan.count(c) <= hand.count(c) for c in plan)


@given(st.lists(st.sampled_from(["a", "b", "c"]), max_size=12))
def test_instance_ids_are_unique_and_name_their_card(cards):
    ids = instance_ids(cards)
    assert len({i for i, _ in ids}) == len(cards)
    assert all(i.split("#")[0] == c for i, c in ids)
