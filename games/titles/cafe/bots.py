"""A quick, sensible bot: value-based draft, a sampled best placement, downstream-first actions.

It must be cheap (thousands of games in tests and the simulate figure) and play well enough that
scores say something about the card set. A small share of random choices keeps fuzzing broad.
"""

from __future__ import annotations

import random
from typing import Any

from . import actions as act_mod
from . import draft
from .grid import key, parse
from .placement import cells_of
from .rules import MAX_ACTIONS, ROUNDS, placement_options, prompts

EXPLORE = 0.04  # share of random (still legal) choices
SAMPLE = 14  # placements scored per decision

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
    for shop in card["shops"].values():
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


def _placement_score(seat: dict[str, Any], card: dict[str, Any], r: int, c: int, rot: int, cards) -> float:
    area, cubes = seat["area"], seat["cubes"]
    cups = sum(1 for code in area.values() if code == "cup")
    new_cups = cups
    score = 0.0
    lost_shops: set[str] = set()
    for k, code in zip(cells_of(r, c, rot), card["squares"], strict=True):
        old = area.get(k)
        if old is not None:
            if old == "cup":
                new_cups -= 1
            elif old.startswith("shop:"):
                lost_shops.add(old[5:])
            elif old.startswith("bean:"):
                score -= 0.8
            else:
                score -= _VALUE.get(old, 0.0) * 0.8
            if k in cubes:
                score -= 1.2 * cubes[k][1]
        if code.startswith("bean:"):
            score += 0.8
            rr, cc = parse(k)
            for n in (key(rr - 1, cc), key(rr + 1, cc), key(rr, cc - 1), key(rr, cc + 1)):
                if area.get(n) == code:
                    score += 0.6
        elif code in ("dry", "roast", "roast*"):
            score += _VALUE[code]
    new_cups += card["cups"]
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
    card = state["cards"][seat["hand"]]
    sample = places if len(places) <= SAMPLE else rng.sample(places, SAMPLE)
    best = max(sample, key=lambda p: _placement_score(seat, card, p.row, p.col, p.rot, state["cards"]))
    return best.id


def _act(state: dict[str, Any], i: int, rng: random.Random, explore: float) -> str:
    seat = state["seats"][i]
    acts = act_mod.options(seat, state["cards"], state["supply"])
    if rng.random() < explore:
        return rng.choice(acts).id
    by_kind: dict[str, list[act_mod.Act]] = {}
    for a in acts:
        by_kind.setdefault(a.kind, []).append(a)

    def most(kind: str) -> act_mod.Act | None:
        cands = by_kind.get(kind)
        if not cands:
            return None
        return max(cands, key=lambda a: (len(a.cells), -a.cost))

    # downstream first: empty roast squares, then roast, dry, produce; store what no shop needs
    for kind in ("deliver", "store"):
        a = most(kind)
        if a is not None and (kind == "deliver" or _should_store(state, seat, a)):
            return a.id
    for kind in ("roast", "dry", "produce"):
        a = most(kind)
        if a is not None:
            return a.id
    a = most("store")
    return a.id if a is not None else "stop"


def _should_store(state: dict[str, Any], seat: dict[str, Any], a: act_mod.Act) -> bool:
    """Store roasted cubes when the roast squares are needed, or in the last round."""
    if state["round"] == ROUNDS:
        return True
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

