"""Invariants checked after every step of the bot games (AssertionError names what broke)."""

from __future__ import annotations

from typing import Any

from .actions import visible_shops
from .cards import COLOURS, CUBES_PER_COLOUR
from .memo import Memo
from .placement import cells_of

MAX_ACTIONS = 8
ROUNDS = 8


_checked = Memo(64)


def _check_seat(i: int, seat: dict[str, Any], cards: dict[str, Any], phase: str) -> tuple[dict[str, int], list[str]]:
    """One seat's own invariants; returns its cubes by colour and the plan cards it holds."""
    area = seat["area"]
    total = dict.fromkeys(COLOURS, 0)
    plan: list[str] = []
    # the area is exactly the top squares of the cards placed, in order
    top: dict[str, str] = {}
    for cid, r, c, rot in seat["stack"]:
        for k, code in zip(cells_of(r, c, rot), cards[cid]["squares"], strict=True):
            top[k] = code
        if cid.startswith("card"):
            plan.append(cid)
    assert top == area, f"seat {i}: the area does not match the cards placed"
    if seat["hand"]:
        plan.append(seat["hand"])
    cups = sum(1 for code in area.values() if code == "cup")
    assert cups >= 1, f"seat {i}: no cup visible"
    assert 0 <= seat["left"] <= seat["actions"] <= MAX_ACTIONS, f"seat {i}: actions {seat['left']}/{seat['actions']}"
    if seat["stage"] in ("act", "done") and phase == "play":
        assert seat["actions"] == min(MAX_ACTIONS, cups), f"seat {i}: actions {seat['actions']} but {cups} cups"
    for k, (colour, n) in seat["cubes"].items():
        code = area.get(k)
        assert code is not None, f"seat {i}: cubes on an empty cell {k}"
        assert n >= 1 and colour in COLOURS, f"seat {i}: bad cubes {colour} x{n} at {k}"
        if code.startswith("bean:"):
            assert code == f"bean:{colour}" and n == 1, f"seat {i}: bean square {k} holds {n} {colour}"
        else:
            assert code in ("dry", "roast", "roast*"), f"seat {i}: cubes on a {code} square at {k}"
        total[colour] += n
    shops = visible_shops(area, cards)
    for sid, held in seat["shops"].items():
        assert sid in shops, f"seat {i}: cubes in shop {sid}, which is not fully visible"
        for colour, n in held.items():
            assert 0 < n <= shops[sid]["need"].get(colour, 0), f"seat {i}: shop {sid} holds {n} {colour}"
            total[colour] += n
    for colour, n in seat["warehouse"].items():
        assert n >= 0, f"seat {i}: negative {colour} in the warehouse"
        total[colour] += n
    return total, plan


def check_invariants(state: dict[str, Any]) -> None:
    """Every cube of the 35 a colour is somewhere, every plan card once, actions 0..8, a cup visible.

    A seat dict that is the very object already checked (apply shares unchanged parts) is not
    re-checked; its counts still enter the totals.
    """
    cards = state["cards"]
    assert state["phase"] in ("draft", "play", "over"), state["phase"]
    assert 1 <= state["round"] <= ROUNDS, f"round {state['round']} outside 1..{ROUNDS}"
    total = dict(state["supply"])
    for c in COLOURS:
        assert total[c] >= 0, f"supply of {c} is negative"
    plan_seen: list[str] = [*state["deck"], *state["removed"], *state["display"], *state["discard"]]
    for i, seat in enumerate(state["seats"]):
        hit = _checked.get(seat, state["phase"])
        if hit is None or hit[0] != i:
            hit = _checked.put((seat, state["phase"]), (i, *_check_seat(i, seat, cards, state["phase"])))
        _, counts, plan = hit
        for c in COLOURS:
            total[c] += counts[c]
        plan_seen += plan
    for c in COLOURS:
        assert total[c] == CUBES_PER_COLOUR, f"{c}: {total[c]} cubes in the game, not {CUBES_PER_COLOUR}"
    assert sorted(plan_seen) == sorted(c for c in cards if c.startswith("card")), "plan cards lost or added"
    if state["phase"] == "over":
        assert state["round"] == ROUNDS, "the game ended before round 8"
