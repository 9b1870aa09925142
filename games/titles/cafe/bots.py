"""A quick, sensible bot: value-based draft, a sampled best placement, downstream-first actions.

It must be cheap (thousands of games in tests and the simulate figure) and play well enough that
scores say something about the card set. A small share of random choices keeps fuzzing broad.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from . import actions as act_mod
from . import draft
from .cards import OFFSETS, by_colour, card_shops
from .grid import parse
from .state import MAX_ACTIONS, ROUNDS
from .turn import placement_options, prompts

EXPLORE = 0.04  # share of random (still legal) choices
SAMPLE = 20  # placements scored per decision

_VALUE = {"cup": 4.0, "ship": 0.6, "dry": 1.0, "roast": 1.1, "roast*": 0.8, "blank": 0.0}


def card_value(card: dict[str, Any], seat: dict[str, Any]) -> float:
    v = 0.0
    for code in card["squares"]:
        if code.startswith("bean:"):
            v += 1.0
        elif code.startswith("shop:"):
            continue
        elif code == "ship":
            v += 1.2 if draft.ships(seat["area"]) < draft.SHIPS_FOR_FREE else 0.1
        else:
            v += _VALUE[code]
    for _, shop in card_shops(card):  # a fixed order: float sums depend on it
        v += shop["vp"] * 0.6
    return v


def _pick(state: dict[str, Any], i: int, rng: random.Random, explore: float) -> str:
    seat = state["seats"][i]
    options = draft.picks(seat, state["display"], state["cards"])
    if rng.random() < explore:
        return rng.choice(options).id
    wh = seat["warehouse"]
    best, best_v = options[0].id, -1e9
    for p in options:
        if p.card is None:
            return p.id
        v = card_value(state["cards"][p.card], seat) + rng.random() * 0.5
        if p.pay:
            # paying costs warehouse points; pay the most plentiful colour
            if wh[p.pay] != max(wh.values()):
                continue
            v -= 1.5
        if v > best_v:
            best, best_v = p.id, v
    return best


_ROW = 1 << 8  # a cell (r, c) as the int r * _ROW + c: an area never reaches 128 columns from the start


def _area_costs(seat: dict[str, Any], cards: dict[str, Any]) -> dict[int, tuple[float, str, str]]:
    """Per occupied cell: what covering it loses (shops are charged per shop, below), its code, and
    the code's first 4 letters (squares of one kind of work join when these match)."""
    cubes = seat["cubes"]
    out = {}
    for k, code in seat["area"].items():
        if code == "cup" or code.startswith("shop:"):
            loss = 0.0
        elif code.startswith("bean:"):
            loss = 0.8
        else:
            loss = _VALUE.get(code, 0.0) * 0.8
        if k in cubes:
            loss += 1.2 * cubes[k][1]
        r, c = parse(k)
        out[r * _ROW + c] = (loss, code, code[:4])
    return out


@lru_cache(maxsize=256)
def _footprints(squares: tuple[str, ...]) -> dict[int, tuple[tuple[int, float | None, str], ...]]:
    """Per rotation, each square of a card as (cell offset, its value if it is a bean, dry or roast
    square else None, the code's first 4 letters), in square order."""
    out = {}
    for rot, offsets in OFFSETS.items():
        out[rot] = tuple(
            (
                dr * _ROW + dc,
                _VALUE.get(code, 0.8)
                if code.startswith("bean:") or code == "dry" or code.startswith("roast")
                else None,
                code[:4],
            )
            for (dr, dc), code in zip(offsets, squares, strict=True)
        )
    return out


_NEIGHBOURS = (-_ROW, _ROW, -1, 1)  # up, down, left, right


def _next_to(costs: dict[int, tuple[float, str, str]]) -> dict[str, dict[int, int]]:
    """Per kind of work square (first 4 letters of its code): cell -> how many of its 4 neighbours
    in the area are of that kind."""
    out: dict[str, dict[int, int]] = {"bean": {}, "dry": {}, "roas": {}}
    for cell, (_, _, kind) in costs.items():
        counts = out.get(kind)
        if counts is not None:
            for step in _NEIGHBOURS:
                counts[cell + step] = counts.get(cell + step, 0) + 1
    return out


def _placement_score(seat, card, p, costs, cups: int, cards, footprints, next_to) -> float:
    """How good placing the card at p looks: squares gained and lost, joined groups, cups, shops.

    `footprints` is _footprints(card squares), `costs` is _area_costs(seat), `next_to` _next_to(costs).
    """
    score = 0.0
    new_cups = cups + card["cups"]
    lost_shops: dict[str, None] = {}  # in square order: a set's order follows string hashes (they vary by process)
    base = p.row * _ROW + p.col
    for offset, value, kind in footprints[p.rot]:
        cell = base + offset
        old = costs.get(cell)
        if old is not None:
            score -= old[0]
            if old[1] == "cup":
                new_cups -= 1
            elif old[1].startswith("shop:"):
                lost_shops[old[1][5:]] = None
        if value is not None:
            score += value
            for _ in range(next_to[kind].get(cell, 0)):
                score += 0.6  # one addition per joined neighbour, as the sum has always been made
    score += 4.0 * (min(new_cups, MAX_ACTIONS) - min(cups, MAX_ACTIONS))
    for sid in lost_shops:
        shop = cards[sid.split(".")[0]]["shops"][sid]
        score -= shop["vp"] * 0.8 + 1.5 * sum(seat["shops"].get(sid, {}).values())
    return score


def _place(state: dict[str, Any], i: int, rng: random.Random, explore: float) -> str:
    seat = state["seats"][i]
    places = placement_options(state, i)
    if not places:
        return f"discard:{seat['hand']}"
    if rng.random() < explore:
        return rng.choice(places).id
    cards = state["cards"]
    card = cards[seat["hand"]]
    sample = places if len(places) <= SAMPLE else rng.sample(places, SAMPLE)
    costs = _area_costs(seat, cards)
    cups = sum(1 for code in seat["area"].values() if code == "cup")
    footprints = _footprints(tuple(card["squares"]))
    next_to = _next_to(costs)
    best = max(sample, key=lambda p: _placement_score(seat, card, p, costs, cups, cards, footprints, next_to))
    return best.id


_STEPS = {"produce": 4, "dry": 3, "roast": 2, "deliver": 1, "store": 1}


def _colour_values(seat: dict[str, Any], cards: dict[str, Any]) -> dict[str, float]:
    """How much a cube of each colour is worth to the seat now: shops that need it, scarce in the warehouse."""
    need: dict[str, int] = {}
    for shop_need in act_mod.shop_needs(seat, cards).values():
        for c, n in shop_need.items():
            need[c] = need.get(c, 0) + n
    wh = seat["warehouse"]
    scarce = sorted(by_colour(wh), key=wh.__getitem__)[:2]  # equal counts: the first in colour order
    return {c: 1.0 + (1.5 if need.get(c) else 0.0) + (1.0 if c in scarce else 0.0) for c in wh}


def _act(state: dict[str, Any], i: int, rng: random.Random, explore: float) -> str:
    seat = state["seats"][i]
    acts = act_mod.options(seat, state["cards"], state["supply"])
    if rng.random() < explore:
        return rng.choice(acts).id
    last = state["round"] == ROUNDS
    left = seat["left"]
    area, cubes = seat["area"], seat["cubes"]
    value = _colour_values(seat, state["cards"])
    on_beans: dict[str, int] = {}
    on_dry: dict[str, int] = {}
    for k, (c, n) in cubes.items():
        code = area[k]
        if code.startswith("bean:"):
            on_beans[c] = on_beans.get(c, 0) + n
        elif code == "dry":
            on_dry[c] = on_dry.get(c, 0) + n
    best: dict[str, tuple[float, str]] = {}
    for a in acts:
        if a.kind in ("clear", "stop"):
            continue
        if last and _STEPS[a.kind] > left:
            continue  # it could not reach a shop or the warehouse before the end
        if a.kind == "produce":
            v = len(a.cells) * value[a.colours[0]]
        elif a.kind == "dry":
            v = sum(on_beans[c] * value[c] for c in a.colours)
        elif a.kind == "roast":
            v = sum(on_dry[c] * value[c] for c in a.colours) / a.cost
        else:
            v = float(len(a.cells))
        if a.kind not in best or v > best[a.kind][0]:
            best[a.kind] = (v, a.id)
    # downstream first: empty roast squares into shops, then roast, dry, produce; store when stuck or at the end
    if "deliver" in best:
        return best["deliver"][1]
    if "store" in best and (last or _should_store(seat)):
        return best["store"][1]
    for kind in ("roast", "dry", "produce"):
        if kind in best:
            return best[kind][1]
    return best["store"][1] if "store" in best else "stop"


def _should_store(seat: dict[str, Any]) -> bool:
    """Store roasted cubes when the roast squares are needed for cubes waiting on dry squares."""
    area = seat["area"]
    empty_roast = any(code.startswith("roast") and k not in seat["cubes"] for k, code in area.items())
    dry_loaded = any(area[k] == "dry" for k in seat["cubes"])
    return dry_loaded and not empty_roast


def bot_answer(state: dict[str, Any], i: int, rng: random.Random, explore: float = EXPLORE) -> str:
    if state["phase"] == "draft":
        return _pick(state, i, rng, explore)
    stage = state["seats"][i]["stage"]
    if stage == "place":
        return _place(state, i, rng, explore)
    if stage == "act":
        return _act(state, i, rng, explore)
    raise ValueError(f"seat {i} has no prompt now (prompts: {sorted(prompts(state))})")


def default_answer(state: dict[str, Any], i: int) -> str:
    """What a seat that let its deadline pass does: the bot's move, with a fixed generator."""
    return bot_answer(state, i, random.Random(f"default:{state['round']}:{i}:{len(state['log'])}"), explore=0.0)
