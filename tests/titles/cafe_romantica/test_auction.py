"""The proxy auction against an open auction played step by step, and the auction's table rules."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import IllegalMove
from games.titles.cafe_romantica import TITLE, auction, turn

from .helpers import drafted, log_of, rng, said, seat


def open_auction(priority: list[int], limits: dict[int, list[int]], hearts: dict[int, int]) -> list[tuple[int, int]]:
    """The rulebook's open auction, played call by call as at a table (README): for each card
    the price is called from 0 upward, each player still without a card says whether she stays
    in (never above her limit or what she can afford); one left takes it at that price; if all drop
    at once, the first of them in tie-break order takes it at the last price they stayed at."""
    results = []
    without = list(priority)
    pos = 0
    while without:
        if len(without) == 1:  # nobody contests the last card
            results.append((without[0], 0))
            break
        price = 0
        still_in = list(without)
        while True:
            staying = [p for p in still_in if price <= min(hearts[p], limits[p][pos] if pos < len(limits[p]) else 0)]
            if len(staying) == 1:
                winner, paid = staying[0], price
                break
            if not staying:
                winner, paid = still_in[0], price - 1  # still_in keeps tie-break order
                break
            still_in = staying
            price += 1
        results.append((winner, paid))
        without.remove(winner)
        pos += 1
    return results


@st.composite
def auctions(draw):
    n = draw(st.integers(2, 4))
    hearts = [draw(st.integers(0, 20)) for _ in range(n)]
    limits = {s: [draw(st.integers(0, hearts[s])) for _ in range(n - 1)] for s in range(n)}
    priority = draw(st.permutations(list(range(n))))
    return list(priority), limits, dict(enumerate(hearts))


@settings(max_examples=4000, deadline=None)
@given(auctions())
def test_proxy_auction_matches_open_auction(case):
    priority, limits, hearts = case
    proxy = auction.resolve(priority, limits)
    assert proxy == open_auction(priority, limits, hearts)
    # each seat exactly one card, nobody pays more than her limit or what she has
    assert sorted(s for s, _ in proxy) == sorted(priority)
    for pos, (s, price) in enumerate(proxy):
        assert 0 <= price <= hearts[s]
        if pos < len(priority) - 1:
            assert price <= limits[s][pos]


def test_auction_winner_pays_one_more_than_runner_up():
    assert auction.resolve([0, 1, 2], {0: [5, 0], 1: [3, 0], 2: [1, 0]})[0] == (0, 4)


def test_auction_tie_goes_to_tie_break_order_at_own_limit():
    assert auction.resolve([2, 1, 0], {0: [4, 0], 1: [4, 0], 2: [1, 0]})[0] == (1, 4)


def test_auction_zero_bids_everyone_in_for_free():
    assert auction.resolve([1, 0], {0: [0], 1: [0]}) == [(1, 0), (0, 0)]


def test_auction_last_card_goes_for_nothing():
    res = auction.resolve([0, 1, 2], {0: [9, 9], 1: [0, 5], 2: [0, 2]})
    assert res == [(0, 1), (1, 3), (2, 0)]


def test_auction_holder_drops_out_of_later_auctions():
    # seat 0 would bid 9 for card 2 but already holds card 1
    res = auction.resolve([0, 1, 2], {0: [3, 9], 1: [1, 1], 2: [0, 0]})
    assert res[0] == (0, 2) and res[1] == (1, 1)


def _auction_state(n=3, hearts=(5, 3, 2)):
    state = drafted(n)
    for i, h in enumerate(hearts):
        state = seat(state, i, hearts=h)
    state["sealed"] = {}
    return state


def test_auction_bids_are_a_simultaneous_sealed_decision():
    state = _auction_state()
    assert set(TITLE.prompts(state)) == {0, 1, 2}
    state = TITLE.apply(state, 0, {"1": 4, "2": 1}, rng())
    assert set(TITLE.prompts(state)) == {1, 2}
    for other in (1, 2, None):
        v = TITLE.view(state, other)
        assert v["data"]["my_sealed"] is None
        assert "4" not in " ".join(said(v["log"][-1:], state))
        assert json.dumps(state["sealed"]["0"]) not in json.dumps(v["data"]["answered"])
    assert TITLE.view(state, 0)["data"]["my_sealed"] == [4, 1]


def test_auction_limits_revealed_in_log_after_everyone_answered():
    state = _auction_state()
    state = TITLE.apply(state, 0, {"1": 4, "2": 1}, rng(1))
    state = TITLE.apply(state, 1, {"1": 2, "2": 2}, rng(2))
    state = TITLE.apply(state, 2, {"1": 2, "2": 0}, rng(3))
    assert state["phase"] == "actions"
    log = "\n".join(log_of(state, 1))
    assert "P0 4, 1" in log and "P1 2, 2" in log and "P2 2, 0" in log
    assert state["order"][0] == 0 and state["seats"][0]["hearts"] == 5 - 3
    assert state["order"][1] == 1 and state["seats"][1]["hearts"] == 3 - 1  # P2's limit for card 2 is 0
    assert state["seats"][2]["hearts"] == 2


def test_auction_cannot_bid_more_than_you_have():
    state = _auction_state()
    try:
        TITLE.apply(state, 1, {"1": 4, "2": 0}, rng())
    except IllegalMove as e:
        assert "0 to 3" in str(e)
    else:
        raise AssertionError("a bid above the seat's ♥ was accepted")


def test_auction_cannot_answer_twice():
    state = TITLE.apply(_auction_state(), 0, {"1": 1, "2": 1}, rng())
    try:
        TITLE.apply(state, 0, {"1": 1, "2": 1}, rng())
    except IllegalMove as e:
        assert "already" in str(e)
    else:
        raise AssertionError("a second set of bids was accepted")


def test_auction_seat_without_hearts_is_not_asked_and_bids_zero():
    state = _auction_state(hearts=(5, 0, 2))
    assert set(TITLE.prompts(state)) == {0, 2}
    state = TITLE.apply(state, 0, {"1": 0, "2": 0}, rng())
    state = TITLE.apply(state, 2, {"1": 1, "2": 0}, rng())
    assert state["order"][0] == 2 and state["seats"][2]["hearts"] == 1


def test_auction_tie_break_is_reverse_of_last_turn_order():
    state = _auction_state()
    state["order"] = [1, 2, 0]
    state = seat(state, 0, manager="hana")
    assert turn.tie_break_order(state) == [0, 2, 1]


def test_auction_tie_break_first_turn_is_reverse_of_choosing_order():
    state = _auction_state()
    state["order"] = []
    assert turn.tie_break_order(state) == state["choose_order"][::-1]


def test_auction_strategist_wins_every_tie():
    state = _auction_state()
    state["order"] = [0, 1, 2]
    for i in range(3):
        state = seat(state, i, manager=["hana", "mei", "rin"][i])
    assert turn.tie_break_order(state)[0] == 1
    state = TITLE.apply(state, 0, {"1": 2, "2": 0}, rng(1))
    state = TITLE.apply(state, 1, {"1": 2, "2": 0}, rng(2))
    state = TITLE.apply(state, 2, {"1": 2, "2": 0}, rng(3))
    assert state["order"][0] == 1
