"""upcoming(): the first question of a seat's next turn (add or serve a hand card), offered in advance.

Nobody changes another seat's hand, coins or café, so the options are exactly the ones the turn
will offer; what others do before it (taking display cards, claiming guests) takes none away. Only
the end of the game can: then there is no next turn, and upcoming says None.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.errors import IllegalMove
from games.engine.rng import step_rng
from games.titles.cafe_baras import TITLE

from .helpers import arrange, rng, said, table


def ids(prompt) -> list[str]:
    return [o.id for o in prompt.options]


def play(state, seat, answer, n=0):
    return TITLE.apply(state, seat, answer, rng(n))


def finish_turn(state, seat):
    """Answer the effect and refill steps with the default answer until the turn passes on."""
    while not state["over"] and state["turn"] == seat and state["phase"] != "main":
        state = play(state, seat, TITLE.default_answer(state, seat))
    return state


def play_plan(state, seat, plan):
    """What the service does when the seat's question arrives: the first answer the prompt and apply accept."""
    prompt = TITLE.prompts(state)[seat]
    for answer in plan:
        try:
            prompt.validate(answer)
            return answer, play(state, seat, answer)
        except IllegalMove:
            continue
    return None, state


def test_upcoming_is_none_for_the_seat_to_move_at_every_step_of_its_turn():
    s = arrange(
        table(),
        turn=0,
        s0={"hand": ["coconut-water", "espresso", "donut", "oolong"], "coins": 5},
        display=["matcha", "quiche", "oven", "tip-jar"],
    )
    assert TITLE.upcoming(s, 0) is None
    assert TITLE.upcoming(s, 1) is not None and TITLE.upcoming(s, 2) is not None
    assert TITLE.upcoming(s, 3) is None and TITLE.upcoming(s, -1) is None
    s = play(s, 0, "add:coconut-water")  # take 1 card from the display: the effect step
    assert s["phase"] == "effect" and TITLE.upcoming(s, 0) is None
    s = play(s, 0, ["quiche"])  # back to four cards: no refill, the turn passes on
    assert s["turn"] == 1 and TITLE.upcoming(s, 1) is None and TITLE.upcoming(s, 0) is not None
    s = play(s, 1, ids(TITLE.prompts(s)[1])[-1])  # a serve: one card short, the refill step
    assert s["phase"] == "refill" and s["turn"] == 1 and TITLE.upcoming(s, 1) is None
    assert TITLE.upcoming(s, 2) is not None


def test_upcoming_is_none_after_the_game_ends():
    state = TITLE.setup(["A", "B", "C"], {}, step_rng("upcoming-over", 0))
    seq = 0
    while not state["over"]:
        seq += 1
        seat = state["turn"]
        state = TITLE.apply(state, seat, TITLE.bot_answer(state, seat, step_rng("b", seq)), step_rng("a", seq))
    assert TITLE.outcome(state) is not None
    assert [TITLE.upcoming(state, i) for i in range(3)] == [None, None, None]


def test_upcoming_offers_exactly_what_the_turn_will_ask_whatever_others_do_before_it():
    s = arrange(
        table(),
        turn=0,
        s0={"hand": ["pretzel", "espresso", "donut", "oolong"], "cafe": ["croissant"], "coins": 4},
        s1={"hand": ["coconut-water", "matcha", "mocha", "bagel"], "coins": 6},
        s2={"hand": ["latte", "lemonade", "cold-brew", "macarons"], "cafe": ["wooden-bench"], "coins": 2},
        display=["quiche", "oven", "tip-jar", "nachos"],
        guests=["big-eater", "socialite", "tinkerer", "food-critic"],
    )
    up = said(TITLE.upcoming(s, 2), s)
    assert up.text == "Your next turn, after P0 and P1 (2 coins): add a card to your café, or serve its customer."
    # adds seat 2 can pay for with its 2 coins, and every serve
    assert ids(up) == ["add:latte", "add:lemonade"] + [
        f"serve:{c}" for c in ("latte", "lemonade", "cold-brew", "macarons")
    ]
    s = finish_turn(play(s, 0, "add:pretzel"), 0)  # seat 0 claims Big Eater
    assert s["seats"][0]["guests"] == ["big-eater"]
    display_before = list(s["display"])
    s = play(s, 1, "add:coconut-water")  # seat 1 takes a card from the display
    s = finish_turn(play(s, 1, [display_before[0]]), 1)
    assert display_before[0] in s["seats"][1]["hand"] and s["turn"] == 2
    real = said(TITLE.prompts(s)[2], s)
    assert real.options == up.options
    for answer in ids(up):
        assert real.validate(answer) == answer
        play(s, 2, answer)  # apply accepts it too


def test_nothing_others_do_takes_an_option_away_only_the_end_of_the_game_does():
    s = arrange(
        table(),
        turn=0,
        s0={"hand": ["lemonade", "espresso"], "cafe": ["croissant", "wooden-bench"], "regulars": ["latte", "mocha"]},
        s1={"hand": ["matcha", "oolong"], "coins": 3},
        s2={"hand": ["cold-brew", "bagel"], "coins": 1},
        display=["quiche", "oven", "tip-jar", "nachos"],
    )
    up2 = TITLE.upcoming(s, 2)
    s = finish_turn(play(s, 0, "serve:lemonade"), 0)  # seat 0's third regular: the end is triggered
    assert said(s["end"], s) == {"by": 0, "reason": "P0 gained their third regular", "left": 2}
    assert TITLE.upcoming(s, 0) is None  # seat 0 has had its last turn
    assert said(TITLE.upcoming(s, 2), s).text.startswith("Your next turn (your last), after P1")
    s = finish_turn(play(s, 1, "serve:matcha"), 1)
    assert TITLE.upcoming(s, 0) is None and TITLE.upcoming(s, 1) is None
    # an answer naming a card the seat does not hold (one it hoped to get from the display) is refused,
    # and the next answer left in advance is played
    real = TITLE.prompts(s)[2]
    assert real.options == up2.options
    with pytest.raises(IllegalMove):
        real.validate("add:quiche")
    played, after = play_plan(s, 2, ["add:quiche", "serve:cold-brew"])
    assert played == "serve:cold-brew"
    assert finish_turn(after, 2)["over"]


def test_no_next_turn_when_every_seat_will_pass_first():
    s = table(3)
    every = [*s["deck"], *s["discard"], *s["display"], *(c for seat in s["seats"] for c in seat["hand"])]
    s["deck"], s["discard"], s["display"] = [], [], []
    for seat in s["seats"]:
        seat["hand"] = []
    s["seats"][1]["cafe"] = every  # every card out of play: each turn is a pass
    s.update(turn=0, phase="main", passes=0)
    assert ids(TITLE.upcoming(s, 1)) == ["pass"] and ids(TITLE.upcoming(s, 2)) == ["pass"]
    assert said(TITLE.upcoming(s, 1), s).text == "Your next turn, after P0: you have no cards, so you can only pass."
    s = play(s, 0, "pass")
    assert TITLE.upcoming(s, 0) is None  # P1 and P2 pass too: three passes in a row end the game
    assert TITLE.upcoming(s, 2) is not None
    s = play(play(s, 1, "pass"), 2, "pass")
    assert s["over"]
    # a seat still holding a card breaks the run of passes, unless the run is complete before it
    s2 = table(3)
    s2["seats"][1]["hand"] = s2["seats"][1]["hand"][:1]
    for i in (0, 2):
        s2["seats"][i]["hand"] = []
    s2.update(deck=[], discard=[], display=[], turn=0, phase="main", passes=2)
    assert TITLE.upcoming(s2, 1) is None and TITLE.upcoming(s2, 2) is None  # P0's pass is the third
    assert play(s2, 0, "pass")["over"]
    s2["passes"] = 1
    up2 = TITLE.upcoming(s2, 2)
    assert TITLE.upcoming(s2, 1) is not None and ids(up2) == ["pass"]
    s2 = play(s2, 0, "pass")
    s2 = finish_turn(play(s2, 1, ids(TITLE.prompts(s2)[1])[0]), 1)
    assert not s2["over"] and TITLE.prompts(s2)[2].options == up2.options


def _random_answer(state, seat, prompt, r):
    return prompt.random_answer(r) if r.random() < 0.3 else TITLE.bot_answer(state, seat, r)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(n=st.integers(2, 4), seed=st.integers(0, 10**6), steps=st.integers(0, 60))
def test_upcoming_is_exactly_the_next_main_question_in_random_games(n, seed, steps):
    """Random games stopped anywhere: for every waiting seat, upcoming is None exactly when the game ends
    before its turn, and otherwise the turn asks it with the same options (every one accepted)."""
    r = random.Random(seed)
    state = TITLE.setup([f"P{i}" for i in range(n)], {}, r)
    for _ in range(steps):
        if state["over"]:
            break
        seat = state["turn"]
        state = TITLE.apply(state, seat, _random_answer(state, seat, TITLE.prompts(state)[seat], r), r)
    if state["over"]:
        assert all(TITLE.upcoming(state, i) is None for i in range(n))
        return
    ahead = {i: TITLE.upcoming(state, i) for i in range(n) if i != state["turn"]}
    assert TITLE.upcoming(state, state["turn"]) is None
    checked: set[int] = set()
    while not state["over"] and len(checked) < len(ahead):
        seat = state["turn"]
        prompt = TITLE.prompts(state)[seat]
        if seat in ahead and seat not in checked and state["phase"] == "main":
            checked.add(seat)
            assert ahead[seat] is not None, "upcoming said no turn, but the turn came"
            assert prompt.options == ahead[seat].options
            for answer in ids(ahead[seat]):
                assert prompt.validate(answer) == answer
        state = TITLE.apply(state, seat, _random_answer(state, seat, prompt, r), r)
    for seat in set(ahead) - checked:
        assert state["over"] and ahead[seat] is None, "upcoming offered a turn the game never gave"
