"""A turn outside the answers: roll and shine, ♥ lost or pooled, end of turn, win, turn cap."""

from __future__ import annotations

import copy

from games.titles.cafe_romantica import TITLE, turn

from .helpers import (
    CARDS,
    Dice,
    acting,
    drafted,
    give,
    illegal,
    log_of,
    rng,
    said,
    seat,
)

# ---------------------------------------------------------------- roll and shine


def _begin(state, rolls, pooling=False):
    state = copy.deepcopy(state)
    state["cards"] = CARDS
    state["options"]["pooling"] = pooling
    turn.begin_turn(state, Dice(rolls))
    return state


def test_roll_every_die_rolled_and_shown():
    state = _begin(drafted(3), [1, 4, 6])
    assert state["dice"] == [1, 4, 6]
    assert "Rolls: P0 1; P1 4; P2 6." in log_of(state, None)[-4]


def test_roll_cards_on_that_face_shine_and_earn():
    state = give(drafted(3), 0, {"gentleman": 2, "shy": 1}, manager="rin")
    state = _begin(state, [4, 4, 4])
    assert state["seats"][0]["hearts"] == CARDS["flyer"]["hearts"] + 6


def test_roll_again_when_no_host_shines_sora():
    state = give(drafted(3), 0, {"gentleman": 1}, manager="sora")
    after = _begin(state, [2, 5, 6, 4])  # Sora's 2 shines no host: she rolls a 4, Gentleman shines
    assert after["rolls"][0] == [2, 4] and after["dice"][0] == 4
    assert after["seats"][0]["hearts"] == CARDS["flyer"]["hearts"] + 3
    assert "P0 2, rolled again 4;" in "\n".join(log_of(after, 1))
    kept = _begin(state, [4, 5, 6])  # Gentleman shines on the first roll: no second die
    assert kept["rolls"][0] == [4] and kept["dice"][0] == 4


def test_roll_rival_takes_hearts_never_below_zero():
    state = give(drafted(3), 0, {"delinquent": 1}, manager="rin")
    cards = copy.deepcopy(CARDS)
    cards["hosts"]["delinquent"] = dict(cards["hosts"]["delinquent"], ability={"kind": "rival", "amount": 5})
    state["cards"] = cards
    turn.begin_turn(state, Dice([1, 1, 3]))
    flyer = CARDS["flyer"]["hearts"]
    assert state["seats"][1]["hearts"] == 0
    assert state["seats"][0]["hearts"] == flyer + 1 + flyer
    assert state["seats"][2]["hearts"] == flyer
    assert "P0 takes 2 ♥ from P1, who rolled the same number." in log_of(state, 2)[-1]


def _no_income(state):
    for i, m in enumerate(["rin", "aoi", "mei"]):
        state = seat(state, i, manager=m)
    return state


def test_hearts_lost_at_end_of_turn():
    state = acting(_no_income(drafted(3)), [0, 1, 2], hearts=[1, 1, 1])
    state = TITLE.apply(state, 0, "pass", rng())
    state = TITLE.apply(state, 1, "pass", rng())
    state = TITLE.apply(state, 2, "pass", Dice([3, 3, 3]))
    assert state["turn"] == 2 and all(s["hearts"] == CARDS["flyer"]["hearts"] for s in state["seats"])


def test_pooling_keeps_hearts():
    state = _no_income(drafted(3, {"pooling": True}))
    state = acting(state, [0, 1, 2], hearts=[1, 1, 1])
    for s in (0, 1):
        state = TITLE.apply(state, s, "pass", rng())
    state = TITLE.apply(state, 2, "pass", Dice([3, 3, 3]))
    assert all(s["hearts"] == 1 + CARDS["flyer"]["hearts"] for s in state["seats"])


# ---------------------------------------------------------------- end of turn and the win


def test_end_of_turn_field_moves_down_and_refills():
    state = acting(drafted(3), [0, 1, 2], hearts=[0, 0, 0])
    field = list(state["field"])
    deck = list(state["deck"])
    state["field"][1] = None  # a card taken from the top row this turn
    turn.end_turn(state, Dice([]))
    assert state["field"][:4] == deck[0:4]  # refilled top row first, left to right
    assert state["field"][4:] == [field[0], deck[4], field[2], field[3]]
    assert sorted(state["deck"][-4:]) == sorted(field[4:])  # bottom row under the deck
    assert state["deck"][: len(deck) - 5] == deck[5:]


def test_win_at_start_of_turn_with_three_agendas():
    state = acting(drafted(3), [0, 1, 2], hearts=[30, 0, 0])
    state = seat(state, 0, done=state["seats"][0]["agendas"][:2])
    last = state["seats"][0]["agendas"][2]
    state = TITLE.apply(state, 0, f"agenda:{last}", rng())
    assert state["phase"] == "over" and TITLE.outcome(state).winners == [0]
    assert TITLE.turns_played(state) == 1
    assert TITLE.prompts(state) == {}
    assert "over" in illegal(state, 1, "pass")


def test_win_shared_when_several_begin_the_turn_with_three():
    state = acting(drafted(3), [0, 1, 2], hearts=[0, 0, 0])
    state = seat(state, 0, done=state["seats"][0]["agendas"])
    state = seat(state, 2, done=state["seats"][2]["agendas"])
    state["acting"] = 3
    turn.settle(state, rng())
    out = TITLE.outcome(state)
    assert out.winners == [0, 2] and "shared" in said(out.tiebreak, state)


def test_turn_cap_scores_agendas_then_club_value():
    state = drafted(3, {"turn_cap": 1})
    state = acting(state, [0, 1, 2], hearts=[0, 0, 0])
    state = seat(state, 1, done=state["seats"][1]["agendas"][:1])
    state = seat(state, 2, done=state["seats"][2]["agendas"][:1])
    state = give(state, 2, {"gentleman": 1})
    state["acting"] = 3
    turn.settle(state, rng())
    out = TITLE.outcome(state)
    assert out.winners == [2] and out.scores == {0: 0, 1: 1, 2: 1} and "club ♥" in said(out.tiebreak, state)


def test_turn_cap_off_by_default():
    assert drafted(2)["options"]["turn_cap"] == 0


def _park_deck(state, cards):
    """Move cards into seat 0's club/focus so they stay conserved while out of the deck."""
    for c in cards:
        kind = c.rsplit("-", 1)[0]
        if kind in CARDS["hosts"]:
            state["seats"][0]["club"].setdefault(kind, []).append(c)
        else:
            state["seats"][0]["focus"].append(c)


def test_end_of_turn_empty_deck_refills_from_the_recycled_bottom_row():
    state = acting(drafted(3), [0, 1, 2], hearts=[0, 0, 0])
    _park_deck(state, state["deck"])
    state["deck"] = []
    top, bottom = list(state["field"][:4]), list(state["field"][4:])
    turn.end_turn(state, Dice([]))
    assert state["field"][4:] == top and sorted(state["field"][:4]) == sorted(bottom)
    TITLE.check_invariants(state)


def test_end_of_turn_empty_deck_leaves_gaps():
    state = acting(drafted(3), [0, 1, 2], hearts=[0, 0, 0])
    _park_deck(state, state["deck"] + state["field"][4:])  # the bottom row was all taken this turn
    state["deck"], state["field"][4:] = [], [None] * 4
    top = list(state["field"][:4])
    turn.end_turn(state, Dice([]))
    assert state["field"] == [None] * 4 + top
    TITLE.check_invariants(state)
    assert TITLE.view(state, 0)["data"]["field"] == [None] * 4 + top
