"""upcoming(): the draft pick of a seat that picks later this round, offered for conditional picks.

The options are the picks this seat could make from the display as it is now; the seat's own
warehouse and ships set the price and nobody else changes them in the draft, so an option is
refused when the pick arrives only if another seat took that card first (or, for "pass", a card
the seat can take was refilled).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import IllegalMove
from games.engine.messages import english
from games.engine.rng import step_rng

from .helpers import TITLE, new_game, play


def ids(prompt) -> list[str]:
    return [o.id for o in prompt.options]


def card_of(option_id: str) -> str | None:
    return None if option_id == "pass" else option_id.split(":")[0]


def play_plan(state, seat, plan):
    """What the service does when the seat's question arrives: the first answer the prompt and apply accept."""
    prompt = TITLE.prompts(state)[seat]
    for answer in plan:
        try:
            prompt.validate(answer)
            return answer, TITLE.apply(state, seat, answer, random.Random(0))
        except IllegalMove:
            continue
    return None, state


def bot_game_to_end(n: int, seed: str) -> dict:
    state = TITLE.setup([f"P{i}" for i in range(n)], {}, step_rng(seed, 0))
    seq = 0
    while TITLE.outcome(state) is None:
        seat = min(TITLE.prompts(state))
        seq += 1
        state = TITLE.apply(state, seat, TITLE.bot_answer(state, seat, step_rng(seed, seq)), step_rng(seed, seq))
    return state


def test_upcoming_is_none_for_the_seat_picking_now_a_seat_that_has_picked_and_outside_the_draft():
    state = new_game(3, first_master="first")
    assert state["to_pick"] == [1, 2, 0]
    assert TITLE.upcoming(state, 1) is None  # being asked now
    assert TITLE.upcoming(state, 2) is not None and TITLE.upcoming(state, 0) is not None
    assert TITLE.upcoming(state, 5) is None
    state = play(state, 1, ids(TITLE.prompts(state)[1])[0])
    assert TITLE.upcoming(state, 1) is None  # picked already: its placement waits on nobody
    assert TITLE.upcoming(state, 2) is None  # now being asked
    assert TITLE.upcoming(state, 0) is not None
    state = play(state, 2, ids(TITLE.prompts(state)[2])[0])
    state = play(state, 0, ids(TITLE.prompts(state)[0])[0])
    assert state["phase"] == "play"
    assert [TITLE.upcoming(state, i) for i in range(3)] == [None, None, None]  # next round's cards unknown


def test_upcoming_is_none_when_the_game_is_over_and_in_solo():
    over = bot_game_to_end(3, "upcoming-over")
    assert TITLE.outcome(over) is not None
    assert [TITLE.upcoming(over, i) for i in range(3)] == [None, None, None]
    solo = new_game(1)
    assert TITLE.upcoming(solo, 0) is None  # the solo player is the only picker, asked now


def test_upcoming_offers_the_picks_the_real_prompt_accepts_when_the_cards_are_still_there():
    state = new_game(4, first_master="first")  # picks: 1, 2, 3, then 0 (master)
    up = TITLE.upcoming(state, 0)
    assert "after P2, P3 and P4, last as master" in english(up.text, dict(enumerate(state["names"])))
    # before anybody picks, the seat's upcoming options are exactly what it would be offered now
    assert ids(up) == [o.id for o in TITLE.prompts({**state, "to_pick": [0]})[0].options]
    shown = list(state["display"])
    taken = []
    for seat in (1, 2, 3):
        answer = TITLE.bot_answer(state, seat, random.Random(seat))
        taken.append(card_of(answer))
        state = play(state, seat, answer)
    real = TITLE.prompts(state)[0]
    still = [i for i in ids(up) if card_of(i) not in taken]
    assert still, "three picks from six cards leave some of the first display"
    for answer in still:
        assert real.validate(answer) == answer
        assert TITLE.apply(state, 0, answer, random.Random(0))["seats"][0]["hand"] == card_of(answer)
    # and what the real prompt offers for a card of the first display is exactly what was offered in advance
    assert [i for i in ids(real) if card_of(i) in shown] == still


def test_if_gone_a_card_another_seat_took_is_refused_and_the_next_pick_is_played():
    state = new_game(3, first_master="first")  # seat 1 picks first, then seat 2
    up = ids(TITLE.upcoming(state, 2))
    first, second = state["display"][0], state["display"][1]
    want = [i for i in up if card_of(i) == first][0]
    fallback = [i for i in up if card_of(i) == second][0]
    took = [i for i in ids(TITLE.prompts(state)[1]) if card_of(i) == first][0]
    state = play(state, 1, took)  # seat 1 takes the card seat 2 wanted
    real = TITLE.prompts(state)[2]
    with pytest.raises(IllegalMove):
        real.validate(want)
    with pytest.raises(IllegalMove, match="not on offer now"):
        TITLE.apply(state, 2, want, random.Random(0))
    played, after = play_plan(state, 2, [want, fallback])
    assert played == fallback and after["seats"][2]["hand"] == second


def test_pass_in_advance_is_refused_once_a_card_the_seat_can_take_is_refilled():
    state = new_game(3, first_master="first")
    cards = state["cards"]
    cup = [c for c in state["deck"] if cards[c]["cups"] > 0]
    free = [c for c in state["deck"] if cards[c]["cups"] == 0][0]
    seats = [dict(s) for s in state["seats"]]
    seats[2]["warehouse"] = {c: 0 for c in seats[2]["warehouse"]}  # nothing to pay with
    rest = [c for c in state["deck"] if c not in cup[:3] and c != free]
    state = {**state, "seats": seats, "display": cup[:3], "deck": [free, *rest]}
    assert ids(TITLE.upcoming(state, 2)) == ["pass"]  # every card shown needs a cube seat 2 lacks
    state = play(state, 1, ids(TITLE.prompts(state)[1])[0])  # the refill is a card without a cup
    real = TITLE.prompts(state)[2]
    assert free in state["display"] and free in ids(real)
    with pytest.raises(IllegalMove):
        real.validate("pass")
    played, _ = play_plan(state, 2, ["pass", free])
    assert played == free


@settings(max_examples=60, deadline=None, derandomize=True)
@given(n=st.integers(2, 4), seed=st.integers(0, 10**6), rnd=st.integers(1, 8), picked=st.integers(0, 2))
def test_upcoming_never_names_a_pick_the_real_prompt_could_not_have(n, seed, rnd, picked):
    """Random bot games stopped in a draft: every upcoming option is offered when the pick arrives,
    unless another seat took its card in between (or, for "pass", a card the seat can take came up)."""
    rng = random.Random(seed)
    state = TITLE.setup([f"P{i}" for i in range(n)], {}, rng)
    while not (state["phase"] == "draft" and state["round"] == rnd):
        seat = min(TITLE.prompts(state))
        state = TITLE.apply(state, seat, TITLE.bot_answer(state, seat, rng), rng)
    for _ in range(min(picked, n - 2)):
        (seat,) = TITLE.prompts(state)
        state = TITLE.apply(state, seat, TITLE.prompts(state)[seat].random_answer(rng), rng)
    waiting = state["to_pick"][1:]
    assert waiting
    ahead = {i: TITLE.upcoming(state, i) for i in waiting}
    assert all(p is not None for p in ahead.values())
    shown = set(state["display"])
    taken: set[str] = set()
    while state["phase"] == "draft":
        (seat,) = TITLE.prompts(state)
        real = TITLE.prompts(state)[seat]
        if seat in ahead:
            offered = ids(real)
            for answer in ids(ahead[seat]):
                card = card_of(answer)
                if answer in offered:
                    assert real.validate(answer) == answer
                elif card is not None:
                    assert card in taken and card not in state["display"], (answer, offered)
                else:
                    assert any(c not in shown for c in state["display"]), "pass refused with the same display"
            # nothing the seat could have picked from the old display is missing from upcoming
            assert {i for i in offered if card_of(i) in shown} <= set(ids(ahead[seat]))
        answer = real.random_answer(rng) if rng.random() < 0.5 else TITLE.bot_answer(state, seat, rng)
        if card_of(answer):
            taken.add(card_of(answer))
        state = TITLE.apply(state, seat, answer, rng)
