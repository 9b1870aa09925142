"""Setup by player count and the draft (reveal 3, pick from the master's left, cups cost a cube)."""

from __future__ import annotations

import pytest

from games.engine import IllegalMove, OptionsError

from .helpers import CARDSET, COLOURS, CUBES_PER_COLOUR, TITLE, new_game, option_ids, play


@pytest.mark.parametrize(("n", "deck", "random_removed"), [(4, 48, 0), (3, 40, 0), (2, 32, 8), (1, 24, 16)])
def test_setup_by_player_count(n, deck, random_removed):
    state = new_game(n)
    cards = state["cards"]
    in_play = len(state["deck"]) + len(state["display"])
    assert in_play == deck
    stars = [c for c in state["removed"] if cards[c]["star"]]
    assert len(stars) == (0 if n == 4 else 8)
    assert len(state["removed"]) - len(stars) == random_removed
    assert not any(cards[c]["star"] for c in [*state["deck"], *state["display"]]) or n == 4
    # a round uses players + 2 cards: the deck lasts exactly 8 rounds
    assert deck == 8 * (n + 2)


def test_each_seat_starts_with_a_cube_of_each_colour_the_action_marker_on_1_and_its_initial_card():
    state = new_game(4)
    for i, seat in enumerate(state["seats"]):
        assert seat["warehouse"] == dict.fromkeys(COLOURS, 1)
        assert seat["actions"] == 1
        assert seat["stack"] == [[CARDSET["initial"][i], 0, 0, 0]]
        assert len(seat["area"]) == 6
    assert state["supply"] == dict.fromkeys(COLOURS, CUBES_PER_COLOUR - 4)


def test_master_token_first_seat_or_drawn():
    assert new_game(3, first_master="first")["master"] == 0
    masters = {new_game(3, seed=f"s{i}")["master"] for i in range(30)}
    assert masters == {0, 1, 2}
    with pytest.raises(OptionsError):
        new_game(3, first_master="whoever")
    with pytest.raises(OptionsError):
        new_game(5)


def test_the_master_reveals_three_and_picks_last_starting_from_the_left():
    state = new_game(3, first_master="first")
    assert len(state["display"]) == 3
    assert state["to_pick"] == [1, 2, 0]
    assert list(TITLE.prompts(state)) == [1]
    with pytest.raises(IllegalMove, match="not your turn"):
        play(state, 0, option_ids(state, 1)[0])


def test_the_display_is_refilled_after_each_pick_and_the_last_two_are_discarded():
    state = new_game(3, first_master="first")
    first = state["display"][0]
    next_in_deck = state["deck"][0]
    state = play(state, 1, [i for i in option_ids(state, 1) if i.startswith(first)][0])
    assert first not in state["display"] and len(state["display"]) == 3
    assert state["display"][-1] == next_in_deck
    state = play(state, 2, option_ids(state, 2)[0])
    assert len(state["display"]) == 3
    left = list(state["display"])
    state = play(state, 0, option_ids(state, 0)[0])
    taken = state["seats"][0]["hand"]
    assert state["display"] == [] and sorted(state["discard"]) == sorted(c for c in left if c != taken)
    assert state["phase"] == "play"


def _state_with_display(cards, *, warehouse=None, area=None):
    state = new_game(1)
    seat = dict(state["seats"][0])
    if warehouse is not None:
        seat["warehouse"] = warehouse
    if area is not None:
        seat["area"] = area
    pool = [*state["display"], *state["deck"], *state["removed"]]
    state.update(display=cards, deck=[c for c in pool if c not in cards][:21], seats=[seat])
    state["removed"] = [c for c in pool if c not in cards and c not in state["deck"]]
    return state


CUP_CARDS = [c for c in CARDSET["plan"] if CARDSET["cards"][c]["cups"]]
FREE_CARDS = [c for c in CARDSET["plan"] if not CARDSET["cards"][c]["cups"]]


def test_a_card_with_a_cup_costs_one_warehouse_cube_of_the_players_choice():
    state = _state_with_display(CUP_CARDS[:3])
    cid = CUP_CARDS[0]
    assert f"{cid}:pay-red" in option_ids(state) and cid not in option_ids(state)
    after = play(state, 0, f"{cid}:pay-red")
    assert after["seats"][0]["warehouse"]["red"] == 0
    assert after["supply"]["red"] == state["supply"]["red"] + 1
    assert after["seats"][0]["hand"] == cid


def test_a_card_without_a_cup_is_free():
    state = _state_with_display([FREE_CARDS[0], *CUP_CARDS[:2]])
    after = play(state, 0, FREE_CARDS[0])
    assert after["seats"][0]["warehouse"] == state["seats"][0]["warehouse"]


def test_two_visible_ships_make_cards_with_a_cup_free():
    area = {**new_game(1)["seats"][0]["area"], "2,0": "ship", "2,1": "ship"}
    state = _state_with_display(CUP_CARDS[:3], area=area)
    assert CUP_CARDS[0] in option_ids(state)
    after = play(state, 0, CUP_CARDS[0])
    assert after["seats"][0]["warehouse"] == state["seats"][0]["warehouse"]
    one_ship = _state_with_display(CUP_CARDS[:3], area={**area, "2,1": "blank"})
    assert CUP_CARDS[0] not in option_ids(one_ship)


def test_no_cube_and_no_two_ships_means_no_card():
    empty = dict.fromkeys(COLOURS, 0)
    state = _state_with_display(CUP_CARDS[:3], warehouse=empty)
    assert option_ids(state) == ["pass"]
    after = play(state, 0, "pass")
    assert after["seats"][0]["hand"] is None
    assert after["seats"][0]["stage"] == "act"  # no card to place: straight to the actions
    # a free card on offer can still be taken
    state = _state_with_display([FREE_CARDS[0], *CUP_CARDS[:2]], warehouse=empty)
    assert option_ids(state) == [FREE_CARDS[0]]


def test_pick_ids_name_the_card_so_conditional_picks_work():
    state = new_game(3, first_master="first")
    ids_before = set(option_ids(state, 1))
    taken = option_ids(state, 1)[0]
    state = play(state, 1, taken)
    ids_after = set(option_ids(state, 2))
    # the cards still shown keep their ids; the one taken is refused with a clear message
    assert (ids_before - {i for i in ids_before if i.split(":")[0] == taken.split(":")[0]}) <= ids_after
    with pytest.raises(IllegalMove, match="not on offer"):
        play(state, 2, taken)
