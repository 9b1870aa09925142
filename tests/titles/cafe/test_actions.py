"""The actions: produce, dry, roast, deliver (groups by orthogonal adjacency), clear and stop."""

from __future__ import annotations

import pytest

from games.engine import IllegalMove
from games.engine.messages import english

from .helpers import all_cubes, grid, make_card, option_ids, play, with_area

SHOPS = make_card(
    "card910",
    ["shop:card910.a", "shop:card910.b", "shop:card910.c", "blank", "blank", "blank"],
    {
        "card910.a": {"need": {"red": 2}, "vp": 4},
        "card910.b": {"need": {"red": 1, "green": 1}, "vp": 4},
        "card910.c": {"need": {"yellow": 3}, "vp": 6},
    },
)


def test_produce_fills_every_empty_square_of_a_same_colour_group():
    state = with_area(grid("bean:red bean:red bean:red", "cup cup blank"), cubes={"0,1": ["red", 1]})
    supply = state["supply"]["red"]
    after = play(state, 0, "produce@r0c0")
    assert {k: v for k, v in after["seats"][0]["cubes"].items()} == {
        "0,0": ["red", 1],
        "0,1": ["red", 1],
        "0,2": ["red", 1],
    }
    assert after["supply"]["red"] == supply - 2
    assert after["seats"][0]["left"] == 1


def test_produce_groups_do_not_join_diagonally():
    state = with_area(grid("bean:red blank", "blank bean:red", "cup blank"))
    ids = option_ids(state)
    assert "produce@r0c0" in ids and "produce@r1c1" in ids
    after = play(state, 0, "produce@r0c0")
    assert after["seats"][0]["cubes"] == {"0,0": ["red", 1]}


def test_produce_groups_do_not_mix_colours():
    state = with_area(grid("bean:red bean:green", "cup cup"))
    after = play(state, 0, "produce@r0c0")
    assert after["seats"][0]["cubes"] == {"0,0": ["red", 1]}
    assert "produce@r0c1" in option_ids(after)


def test_produce_groups_cross_card_borders():
    # a red bean of the area (row 0, col 0) and one of a card placed beside it form one group
    beans = make_card("card911", ["blank", "cup", "blank", "bean:red", "blank", "blank"])
    area = grid("bean:red blank dry", "cup blank roast")
    beside = play(with_area(area, stage="place", hand="card911", extra_cards=[beans]), 0, "card911@r-1c1:rot0")
    after = play(beside, 0, "produce@r0c0")  # the new bean lands on row 0, col 1
    assert after["seats"][0]["cubes"] == {"0,0": ["red", 1], "0,1": ["red", 1]}
    apart = play(with_area(area, stage="place", hand="card911", extra_cards=[beans]), 0, "card911@r1c1:rot0")
    assert {"produce@r0c0", "produce@r2c1"} <= set(option_ids(apart))  # row 2, col 1 touches no red bean


def test_produce_when_the_supply_runs_short_fills_in_reading_order():
    state = with_area(
        grid("bean:red bean:red bean:red", "cup blank blank"), supply={"yellow": 5, "brown": 5, "green": 5, "red": 2}
    )
    after = play(state, 0, "produce@r0c0")
    assert after["seats"][0]["cubes"] == {"0,0": ["red", 1], "0,1": ["red", 1]}
    assert after["supply"]["red"] == 0
    assert not any(i.startswith("produce") for i in option_ids(after))


def test_dry_moves_all_cubes_of_one_colour_onto_one_empty_square():
    area = grid("bean:red bean:red blank bean:red", "cup dry blank blank")
    cubes = {"0,0": ["red", 1], "0,1": ["red", 1], "0,3": ["red", 1]}
    state = with_area(area, cubes=cubes, left=2)
    after = play(state, 0, "dry@r1c1:red")
    assert after["seats"][0]["cubes"] == {"1,1": ["red", 3]}
    assert all_cubes(after) == all_cubes(state)


def test_a_dry_group_dries_one_colour_per_square_in_one_action():
    area = grid("bean:red bean:green bean:brown", "dry dry cup")
    cubes = {"0,0": ["red", 1], "0,1": ["green", 1], "0,2": ["brown", 1]}
    state = with_area(area, cubes=cubes)
    ids = option_ids(state)
    assert "dry@r1c0:green+red" in ids and "dry@r1c0:brown+green+red" not in ids  # two squares, two colours
    after = play(state, 0, "dry@r1c0:green+red")
    assert after["seats"][0]["cubes"] == {"0,2": ["brown", 1], "1,0": ["green", 1], "1,1": ["red", 1]}
    assert after["seats"][0]["left"] == 0


def test_dry_needs_an_empty_drying_square():
    area = grid("bean:red dry", "cup blank")
    state = with_area(area, cubes={"0,0": ["red", 1], "0,1": ["green", 2]})
    assert not any(i.startswith("dry") for i in option_ids(state))
    with pytest.raises(IllegalMove):
        play(state, 0, "dry@r0c1:red")
    cleared = play(state, 0, "clear@r0c1")  # free: the square is empty again
    assert "dry@r0c1:red" in option_ids(cleared)


def test_roast_moves_all_dry_cubes_of_one_colour_onto_one_empty_roast_square():
    area = grid("dry dry roast", "cup dry roast")
    cubes = {"0,0": ["red", 2], "0,1": ["green", 1], "1,1": ["green", 3]}
    state = with_area(area, cubes=cubes)
    after = play(state, 0, "roast@r0c2:green")
    assert after["seats"][0]["cubes"] == {"0,0": ["red", 2], "0,2": ["green", 4]}


def test_a_roast_group_roasts_one_colour_per_square():
    area = grid("dry dry roast", "cup blank roast")
    state = with_area(area, cubes={"0,0": ["red", 2], "0,1": ["green", 1]})
    after = play(state, 0, "roast@r0c2:green+red")
    assert after["seats"][0]["cubes"] == {"0,2": ["green", 1], "1,2": ["red", 2]}


def test_red_on_a_star_roast_square_costs_an_extra_action():
    area = grid("dry roast* cup", "cup blank blank")
    state = with_area(area, cubes={"0,0": ["red", 2]})
    assert state["seats"][0]["left"] == 2
    after = play(state, 0, "roast@r0c1:red")
    assert after["seats"][0]["cubes"] == {"0,1": ["red", 2]}
    assert after["seats"][0]["left"] == 0
    one_left = with_area(area, cubes={"0,0": ["red", 2]}, left=1)
    assert "roast@r0c1:red" not in option_ids(one_left)
    # other colours roast on a star square for one action
    green = play(with_area(area, cubes={"0,0": ["green", 2]}), 0, "roast@r0c1:green")
    assert green["seats"][0]["left"] == 1


def test_red_goes_to_a_plain_roast_square_of_the_group_when_there_is_one():
    area = grid("dry roast* roast", "cup blank blank")
    after = play(with_area(area, cubes={"0,0": ["red", 1]}), 0, "roast@r0c1:red")
    assert after["seats"][0]["cubes"] == {"0,2": ["red", 1]}
    assert after["seats"][0]["left"] == 0


def test_deliver_empties_the_chosen_roast_squares_into_shops_then_the_warehouse():
    area = grid("shop:card910.a shop:card910.b shop:card910.c", "roast cup roast", "roast blank blank")
    cubes = {"1,0": ["red", 3], "1,2": ["green", 1], "2,0": ["yellow", 1]}
    state = with_area(area, cubes=cubes, extra_cards=[SHOPS])
    wh = dict(state["seats"][0]["warehouse"])
    after = play(state, 0, "deliver:r1c0+r1c2")  # roast squares need not be adjacent
    seat = after["seats"][0]
    # shops completed first (most points first), then the extra red goes to the warehouse
    assert seat["shops"] == {"card910.a": {"red": 2}, "card910.b": {"red": 1, "green": 1}}
    assert seat["warehouse"]["red"] == wh["red"]
    assert seat["cubes"] == {"2,0": ["yellow", 1]}
    assert after["seats"][0]["left"] == 0
    assert all_cubes(after) == all_cubes(state)


def test_deliver_fills_a_shop_partly_and_never_beyond_its_need():
    area = grid("shop:card910.a shop:card910.b shop:card910.c", "roast cup roast")
    state = with_area(area, cubes={"1,0": ["yellow", 5]}, extra_cards=[SHOPS])
    after = play(state, 0, "deliver:r1c0")
    assert after["seats"][0]["shops"] == {"card910.c": {"yellow": 3}}
    assert after["seats"][0]["warehouse"]["yellow"] == state["seats"][0]["warehouse"]["yellow"] + 2


def test_only_fully_visible_shops_receive_cubes():
    two = make_card(
        "card912",
        ["shop:card912.a", "shop:card912.a", "cup", "blank", "blank", "blank"],
        {"card912.a": {"need": {"red": 1}, "vp": 5}},
    )
    half = grid("shop:card912.a blank", "roast cup")  # one of its two squares is hidden
    state = with_area(half, cubes={"1,0": ["red", 1]}, extra_cards=[two])
    ids = option_ids(state)
    assert "deliver:r1c0" not in ids and "store:r1c0" in ids
    whole = grid("shop:card912.a shop:card912.a", "roast cup")
    state = with_area(whole, cubes={"1,0": ["red", 1]}, extra_cards=[two])
    assert play(state, 0, "deliver:r1c0")["seats"][0]["shops"] == {"card912.a": {"red": 1}}


def test_store_puts_every_cube_of_the_chosen_roast_squares_in_the_warehouse():
    area = grid("shop:card910.a shop:card910.b shop:card910.c", "roast cup roast")
    state = with_area(area, cubes={"1,0": ["red", 2], "1,2": ["green", 1]}, extra_cards=[SHOPS])
    after = play(state, 0, "store:r1c0+r1c2")
    wh = state["seats"][0]["warehouse"]
    assert after["seats"][0]["warehouse"] == {**wh, "red": wh["red"] + 2, "green": wh["green"] + 1}
    assert after["seats"][0]["shops"] == {} and after["seats"][0]["cubes"] == {}


def test_warehouse_cubes_never_go_to_shops():
    area = grid("shop:card910.a shop:card910.b shop:card910.c", "blank cup blank")
    state = with_area(area, extra_cards=[SHOPS], warehouse={"yellow": 5, "brown": 5, "green": 5, "red": 5})
    assert option_ids(state) == ["stop"]


def test_clearing_a_square_is_free():
    state = with_area(grid("bean:red dry", "cup blank"), cubes={"0,0": ["red", 1]})
    after = play(state, 0, "clear@r0c0")
    assert after["seats"][0]["cubes"] == {} and after["seats"][0]["left"] == 1
    assert after["supply"]["red"] == state["supply"]["red"] + 1


def test_actions_are_spent_one_prompt_at_a_time_until_none_is_left():
    state = with_area(grid("bean:red dry roast", "cup cup blank"))
    state = play(state, 0, "produce@r0c0")
    assert state["seats"][0]["stage"] == "act" and state["seats"][0]["left"] == 1
    state = play(state, 0, "dry@r0c1:red")
    assert state["seats"][0]["stage"] != "act"


def test_stopping_loses_the_actions_left():
    state = with_area(grid("bean:red dry roast", "cup cup blank"))
    after = play(state, 0, "stop")
    assert after["seats"][0]["left"] == 0
    assert any("2 actions unused" in english(e["text"]) for e in after["log"])


def test_an_action_not_offered_is_refused_and_changes_nothing():
    state = with_area(grid("bean:red dry roast", "cup cup blank"))
    for bad in ("roast@r0c2:red", "produce@r5c5", "deliver:r0c2", 17, None):
        with pytest.raises(IllegalMove):
            play(state, 0, bad)
    assert state["seats"][0]["left"] == 2
