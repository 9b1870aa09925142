"""Builders for Café test states: a real game, then a hand-drawn business area for seat 0."""

from __future__ import annotations

import random
from typing import Any

from games.titles.cafe import TITLE, load_cardset
from games.titles.cafe.cards import COLOURS, CUBES_PER_COLOUR

CARDSET = load_cardset()


def new_game(n: int = 3, seed: str = "t", **options: Any) -> dict[str, Any]:
    return TITLE.setup([f"P{i + 1}" for i in range(n)], options, random.Random(seed))


def grid(*rows: str) -> dict[str, str]:
    """An area from rows of square codes ("bean:red dry . cup"); '.' is an empty cell; row 0 first."""
    area = {}
    for r, row in enumerate(rows):
        for c, tok in enumerate(row.split()):
            if tok != ".":
                area[f"{r},{c}"] = tok
    return area


def make_card(cid: str, squares: list[str], shops: dict[str, Any] | None = None, star: bool = False) -> dict[str, Any]:
    """A card dict in the loaded shape; shops: {"card900.a": {"need": {...}, "vp": n}}."""
    shop_defs = {}
    for sid, spec in (shops or {}).items():
        size = squares.count(f"shop:{sid}")
        shop_defs[sid] = {"need": spec["need"], "vp": spec["vp"], "size": size}
    return {
        "id": cid,
        "squares": squares,
        "cups": squares.count("cup"),
        "ships": squares.count("ship"),
        "shops": shop_defs,
        "star": star,
    }


def with_area(
    area: dict[str, str],
    *,
    cubes: dict[str, list] | None = None,
    shops: dict[str, dict[str, int]] | None = None,
    stage: str = "act",
    left: int | None = None,
    hand: str | None = None,
    extra_cards: list[dict[str, Any]] = (),
    supply: dict[str, int] | None = None,
    warehouse: dict[str, int] | None = None,
    n: int = 1,
) -> dict[str, Any]:
    """A game in the play phase with seat 0 showing `area` (other seats keep their start)."""
    state = new_game(n)
    cards = dict(state["cards"])
    for card in extra_cards:
        cards[card["id"]] = card
    seat = dict(state["seats"][0])
    seat["area"] = area
    seat["cubes"] = cubes or {}
    seat["shops"] = shops or {}
    seat["stage"] = stage
    seat["hand"] = hand
    if warehouse is not None:
        seat["warehouse"] = warehouse
    cups = sum(1 for code in area.values() if code == "cup")
    seat["actions"] = min(8, cups) if left is None else max(left, min(8, cups))
    seat["left"] = (min(8, cups) if left is None else left) if stage == "act" else 0
    seats = [seat, *({**s, "stage": "done"} for s in state["seats"][1:])]
    if hand is not None:
        state["deck"] = [c for c in state["deck"] if c != hand]
    state.update(cards=cards, seats=seats, phase="play", display=[], to_pick=[])
    if supply is not None:
        state["supply"] = supply
    return state


def all_cubes(state: dict[str, Any]) -> dict[str, int]:
    """Cubes of each colour anywhere: supply, areas, shops and warehouses (35 each in a real game)."""
    total = dict(state["supply"])
    for seat in state["seats"]:
        for colour, n in seat["cubes"].values():
            total[colour] += n
        for held in seat["shops"].values():
            for colour, n in held.items():
                total[colour] += n
        for colour, n in seat["warehouse"].items():
            total[colour] += n
    return total


def option_ids(state: dict[str, Any], seat: int = 0) -> list[str]:
    return [o.id for o in TITLE.prompts(state)[seat].options]


def play(state: dict[str, Any], seat: int, *answers: str) -> dict[str, Any]:
    for a in answers:
        state = TITLE.apply(state, seat, a, random.Random(0))
    return state


__all__ = ["CARDSET", "COLOURS", "CUBES_PER_COLOUR", "TITLE"]
