"""End-of-game scoring: fully supplied shops, the warehouse, tie-breaks, and the solo ranks."""

from __future__ import annotations

from typing import Any

from games.engine import Outcome
from games.engine.messages import card_ref, msg

from .actions import visible_shops
from .cards import COLOURS


def warehouse_points(warehouse: dict[str, int]) -> int:
    """The scarcest colour scores 2 a cube, the second scarcest 1 a cube; a missing colour counts 0.

    Exactly two colours score even when counts tie, and tied colours have equal counts, so which of
    them is "first" never changes the total.
    """
    counts = sorted(warehouse.get(c, 0) for c in COLOURS)
    return 2 * counts[0] + counts[1]


def supplied_shops(seat: dict[str, Any], cards: dict[str, Any]) -> list[str]:
    """Fully visible shops holding every cube they need."""
    out = []
    for sid, shop in visible_shops(seat["area"], cards).items():
        held = seat["shops"].get(sid, {})
        if all(held.get(c, 0) >= n for c, n in shop["need"].items()):
            out.append(sid)
    return sorted(out)


def shop_points(seat: dict[str, Any], cards: dict[str, Any]) -> int:
    return sum(cards[sid.split(".")[0]]["shops"][sid]["vp"] for sid in supplied_shops(seat, cards))


def cubes_on(seat: dict[str, Any], prefix: str) -> int:
    """Cubes on visible squares whose code starts with prefix ("roast" or "dry"): the tie-breakers."""
    area = seat["area"]
    return sum(n for k, (_, n) in seat["cubes"].items() if area[k].startswith(prefix))


def solo_rank(points: int, table: list[dict[str, Any]]) -> dict[str, Any]:
    rank = table[0]
    for row in table:
        if points >= row["min"]:
            rank = row
    return rank


def score(state: dict[str, Any]) -> Outcome:
    cards = state["cards"]
    scores: dict[int, int] = {}
    breakdown: dict[int, list[tuple[str, int]]] = {}
    keys: dict[int, tuple[int, int, int]] = {}
    for i, seat in enumerate(state["seats"]):
        shops = shop_points(seat, cards)
        store = warehouse_points(seat["warehouse"])
        scores[i] = shops + store
        breakdown[i] = [(msg("Coffee shops"), shops), (msg("Warehouse"), store)]
        keys[i] = (scores[i], cubes_on(seat, "roast"), cubes_on(seat, "dry"))
    if len(state["seats"]) == 1:
        rank = solo_rank(scores[0], state["solo"])
        return Outcome(
            scores=scores,
            breakdown=breakdown,
            winners=[0] if rank["win"] else [],
            tiebreak="",
            extra={"rank": card_ref(rank["title"]), "solo_table": state["solo"]},
        )
    best = max(keys.values())
    winners = sorted(i for i, k in keys.items() if k == best)
    top = max(scores.values())
    tied = [i for i, s in scores.items() if s == top]
    tiebreak: Any = ""
    if len(tied) > 1:
        most_roast = max(keys[i][1] for i in tied)
        if sum(1 for i in tied if keys[i][1] == most_roast) == 1:
            tiebreak = msg("most cubes on roast squares")
        elif len(winners) == 1:
            tiebreak = msg("most cubes on dry squares")
        else:
            tiebreak = msg("shared win (same score, same cubes on roast and on dry squares)")
    return Outcome(scores=scores, breakdown=breakdown, winners=winners, tiebreak=tiebreak)
