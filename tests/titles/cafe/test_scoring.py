"""Scoring: fully supplied shops, the warehouse (the summary's FAQ cases), tie-breaks, solo ranks."""

from __future__ import annotations

import pytest

from games.engine.messages import english
from games.titles.cafe.scoring import warehouse_points

from .helpers import TITLE, grid, make_card, with_area


@pytest.mark.parametrize(
    ("warehouse", "points", "case"),
    [
        ({"yellow": 1, "brown": 1, "green": 1, "red": 1}, 3, "start: 2 for one colour, 1 for another"),
        ({"yellow": 3, "brown": 2, "green": 5, "red": 1}, 4, "red scarcest 2x1, brown second 1x2"),
        ({"yellow": 0, "brown": 3, "green": 3, "red": 3}, 3, "a missing colour is the scarcest and scores 0"),
        ({"yellow": 5, "brown": 0, "green": 0, "red": 0}, 0, "only one colour: it is not among the scarcest"),
        ({"yellow": 2, "brown": 2, "green": 2, "red": 4}, 6, "ties: still only two colours score"),
        ({"yellow": 4, "brown": 4, "green": 4, "red": 4}, 12, "all equal"),
        ({"yellow": 0, "brown": 0, "green": 0, "red": 0}, 0, "no cubes, no points"),
    ],
)
def test_warehouse_scores_the_two_scarcest_colours(warehouse, points, case):
    assert warehouse_points(warehouse) == points, case


SHOP = make_card(
    "card920",
    ["shop:card920.a", "shop:card920.a", "shop:card920.b", "blank", "blank", "blank"],
    {"card920.a": {"need": {"red": 2, "green": 1}, "vp": 9}, "card920.b": {"need": {"yellow": 1}, "vp": 3}},
)


def _over(state):
    state = dict(state)
    state["phase"] = "over"
    state["round"] = 8
    return state


def test_only_fully_supplied_fully_visible_shops_score():
    area = grid("shop:card920.a shop:card920.a shop:card920.b", "cup blank blank")
    none = {"yellow": 0, "brown": 0, "green": 0, "red": 0}
    full = with_area(
        area, extra_cards=[SHOP], shops={"card920.a": {"red": 2, "green": 1}, "card920.b": {}}, warehouse=none
    )
    assert TITLE.outcome(_over(full)).scores[0] == 9
    short = with_area(area, extra_cards=[SHOP], shops={"card920.a": {"red": 2}}, warehouse=none)
    assert TITLE.outcome(_over(short)).scores[0] == 0
    half = grid("shop:card920.a blank shop:card920.b", "cup blank blank")
    hidden = with_area(half, extra_cards=[SHOP], shops={"card920.b": {"yellow": 1}}, warehouse=none)
    assert TITLE.outcome(_over(hidden)).scores[0] == 3
    assert [(english(label), n) for label, n in TITLE.outcome(_over(full)).breakdown[0]] == [
        ("Coffee shops", 9),
        ("Warehouse", 0),
    ]


def _duel(cubes0, cubes1):
    state = with_area(grid("roast dry cup", "roast dry blank"), cubes=cubes0, n=2)
    seats = list(state["seats"])
    seats[1] = {**seats[0], "cubes": cubes1}
    state["seats"] = seats
    return TITLE.outcome(_over(state))


def test_ties_are_broken_by_cubes_on_roast_squares():
    out = _duel({"0,0": ["red", 2]}, {"0,0": ["red", 1], "0,1": ["green", 5]})
    assert out.scores[0] == out.scores[1] and out.winners == [0]
    assert english(out.tiebreak) == "most cubes on roast squares"


def test_then_by_cubes_on_dry_squares():
    out = _duel({"0,0": ["red", 2], "0,1": ["green", 1]}, {"1,0": ["red", 2], "0,1": ["green", 3]})
    assert out.winners == [1] and english(out.tiebreak) == "most cubes on dry squares"


def test_then_the_tied_players_share_the_win():
    out = _duel({"0,0": ["red", 2]}, {"1,0": ["green", 2]})
    assert out.winners == [0, 1] and english(out.tiebreak).startswith("shared win")


def test_solo_game_is_ranked_by_the_target_table():
    area = grid("shop:card920.a shop:card920.a shop:card920.b", "cup blank blank")
    full = with_area(area, extra_cards=[SHOP], shops={"card920.a": {"red": 2, "green": 1}})
    out = TITLE.outcome(_over(full))
    table = full["solo"]
    assert out.scores[0] == 12  # 9 for the shop, 3 for the starting warehouse
    expected = [r for r in table if r["min"] <= 12][-1]
    assert english(out.extra["rank"]) == expected["title"]
    assert out.winners == ([0] if expected["win"] else [])
    assert table[0]["min"] == 0 and any(r["win"] for r in table)
