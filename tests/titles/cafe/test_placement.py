"""Placement: cover exactly 2-4 visible squares, any rotation, cubes back, a cup always visible."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import IllegalMove
from games.engine.messages import english
from games.titles.cafe.cards import OFFSETS
from games.titles.cafe.placement import check, legal_placements, place

from .helpers import TITLE, all_cubes, grid, make_card, option_ids, play, with_area

PLAIN = make_card("card901", ["dry", "dry", "dry", "blank", "blank", "blank"])
CUPPED = make_card("card902", ["cup", "dry", "dry", "blank", "blank", "roast"])


def placing(area, card=PLAIN, **kw):
    return with_area(area, stage="place", hand=card["id"], extra_cards=[card, *kw.pop("extra_cards", [])], **kw)


def test_covering_one_square_is_refused():
    state = placing(grid("cup dry dry", "dry dry dry"))
    with pytest.raises(IllegalMove, match="covers 1 square"):
        play(state, 0, "card901@r1c2:rot0")


def test_covering_five_squares_is_refused():
    state = placing(grid("cup dry dry", "dry dry ."))
    # the footprint of rows 0-1, cols 0-2 would cover the 5 visible squares there
    with pytest.raises(IllegalMove, match="covers 5 squares"):
        play(state, 0, "card901@r0c0:rot0")
    assert "card901@r0c0:rot0" not in option_ids(state)


def test_covering_no_square_is_refused():
    state = placing(grid("cup dry dry", "dry dry dry"))
    with pytest.raises(IllegalMove, match="covers no square"):
        play(state, 0, "card901@r5c5:rot0")


@pytest.mark.parametrize(
    ("pid", "covered"), [("card901@r1c1:rot90", 2), ("card901@r1c0:rot0", 3), ("card901@r0c1:rot0", 4)]
)
def test_covering_two_three_or_four_squares_is_allowed(pid, covered):
    state = placing(grid("cup dry dry", "dry dry dry"))
    assert pid in option_ids(state)
    after = play(state, 0, pid)
    assert after["seats"][0]["stage"] == "act"
    assert f"covering {covered}" in english(after["log"][-1]["text"])


def test_hiding_the_last_cup_is_refused():
    state = placing(grid("cup dry dry", "dry dry dry"))
    with pytest.raises(IllegalMove, match="last cup"):
        play(state, 0, "card901@r-1c0:rot0")  # covers the cup at row 0, col 0
    assert not any(p.startswith("card901@r-1c0:rot0") for p in option_ids(state))


def test_hiding_a_cup_is_allowed_when_the_new_card_shows_one():
    state = placing(grid("cup dry dry", "dry dry dry"), card=CUPPED)
    after = play(state, 0, "card902@r-1c0:rot0")
    assert after["seats"][0]["area"]["0,0"] == "blank"
    assert after["seats"][0]["actions"] == 1


def test_covered_cubes_go_back_to_the_supply():
    state = placing(grid("cup bean:red dry", "bean:red dry dry"), cubes={"0,1": ["red", 1], "0,2": ["green", 3]})
    before = state["supply"]["red"], state["supply"]["green"]
    after = play(state, 0, "card901@r-1c1:rot0")  # covers row 0, cols 1-2
    assert after["supply"]["red"] == before[0] + 1
    assert after["supply"]["green"] == before[1] + 3
    assert after["seats"][0]["cubes"] == {}
    assert all_cubes(after) == all_cubes(state)


def test_covering_a_partly_supplied_shop_returns_its_cubes():
    shop_card = make_card(
        "card903",
        ["shop:card903.a", "shop:card903.a", "cup", "blank", "blank", "blank"],
        {"card903.a": {"need": {"red": 2, "green": 1}, "vp": 9}},
    )
    area = grid("shop:card903.a shop:card903.a cup", "dry dry dry")
    state = placing(area, extra_cards=[shop_card], shops={"card903.a": {"red": 2}})
    after = play(state, 0, "card901@r0c-1:rot90")  # covers rows 0-1 of col 0: half the shop
    assert after["seats"][0]["shops"] == {}
    assert after["supply"]["red"] == state["supply"]["red"] + 2
    # the half-hidden shop takes no delivery any more
    assert "shop:card903.a" in after["seats"][0]["area"].values()
    assert all_cubes(after) == all_cubes(state)


def test_every_rotation_is_offered_with_stable_ids():
    state = placing(grid("cup dry dry", "dry dry dry"), card=CUPPED)
    ids = option_ids(state)
    assert {pid.rsplit(":", 1)[1] for pid in ids} == {"rot0", "rot90", "rot180", "rot270"}
    assert all(pid.startswith("card902@r") for pid in ids)
    assert option_ids(state) == ids  # same ids when asked again


def test_rotation_turns_the_card_clockwise():
    # square 0 (top-left in landscape) is at the top-right after a quarter turn
    assert OFFSETS[90][0] == (0, 1)
    assert OFFSETS[180][0] == (1, 2)
    assert OFFSETS[270][0] == (2, 0)
    state = placing(grid("cup dry dry", "dry dry dry"), card=CUPPED)
    after = play(state, 0, "card902@r-2c0:rot90")  # 3 high x 2 wide, its bottom row on row 0
    assert after["seats"][0]["area"]["-2,1"] == "cup"


def test_a_card_that_looks_the_same_upside_down_is_offered_once_per_look():
    sym = make_card("card904", ["dry", "cup", "dry", "dry", "cup", "dry"])
    state = placing(grid("cup dry dry", "dry dry dry"), card=sym)
    rots = {pid.rsplit(":", 1)[1] for pid in option_ids(state)}
    assert rots == {"rot0", "rot90"}


def test_placing_another_card_than_the_one_in_hand_is_refused():
    state = placing(grid("cup dry dry", "dry dry dry"))
    with pytest.raises(IllegalMove, match="You are placing card 901"):
        play(state, 0, "card5@r1c1:rot0")
    with pytest.raises(IllegalMove, match="not a placement"):
        play(state, 0, "somewhere")


def test_actions_after_placing_are_the_visible_cups_at_most_eight():
    many = grid("cup cup cup cup cup", "cup cup cup cup cup")
    state = placing(many, card=CUPPED)
    after = play(state, 0, "card902@r1c0:rot0")  # covers 3 cups of row 1, adds 1
    assert after["seats"][0]["actions"] == 8
    assert after["seats"][0]["left"] == 8


def _random_area(rng: random.Random, cards: list[dict]) -> dict[str, str]:
    area = grid("bean:red dry roast", "cup shop:x bean:brown")
    seat = {"area": area, "cubes": {}, "shops": {}, "stack": []}
    for card in cards:
        options = legal_placements(seat["area"], card)
        p = rng.choice(options)
        seat, _ = place(seat, card, p.row, p.col, p.rot)
    return seat["area"]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    picks=st.lists(st.sampled_from([PLAIN, CUPPED]), min_size=0, max_size=6),
    r=st.integers(-8, 8),
    c=st.integers(-8, 8),
    rot=st.sampled_from([0, 90, 180, 270]),
)
def test_the_listed_placements_are_exactly_the_legal_ones(seed, picks, r, c, rot):
    area = _random_area(random.Random(seed), picks)
    for card in (PLAIN, CUPPED):
        listed = {p.id for p in legal_placements(area, card)}
        pid = f"{card['id']}@r{r}c{c}:rot{rot}"
        try:
            check(area, card, r, c, rot)
            legal = True
        except IllegalMove:
            legal = False
        # a 180-degree twin of a symmetric card is listed once; neither test card is symmetric
        assert legal == (pid in listed)
        for p in list(legal_placements(area, card))[:20]:
            assert 2 <= check(area, card, p.row, p.col, p.rot) <= 4


def test_placement_does_not_change_the_state_it_was_given():
    state = placing(grid("cup bean:red dry", "bean:red dry dry"), cubes={"0,1": ["red", 1]})
    import json

    snapshot = json.dumps(state, sort_keys=True)
    TITLE.apply(state, 0, "card901@r-1c1:rot0", random.Random(0))
    assert json.dumps(state, sort_keys=True) == snapshot
