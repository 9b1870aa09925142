"""A bot that plays sensibly and fast: cheap agendas first, bonds over new faces, bids its spare ♥.

Used to fill seats, replace absent players, fuzz the engine and measure game length.
"""

from __future__ import annotations

import random
from typing import Any

from . import abilities, actions
from .cards import ids_of

State = dict[str, Any]


def _value(state: State, seat: int, a: actions.Action, rng: random.Random) -> float:
    """How much the bot likes an action (higher is better)."""
    cards = state["cards"]
    me = state["seats"][seat]
    if a.kind == "agenda":
        return 1000 + a.cost  # an agenda done is a step to the win; the dearest one affordable first
    if a.kind == "pass":
        return 0
    if a.kind == "recruit":
        h = cards["hosts"][a.target]
        per_turn = h["hearts"] * len(h["faces"]) / 6
        bond = len(me["club"].get(a.target, []))
        score = 10 * per_turn * (1.6 if bond else 1.0) + 2 * bond - 0.3 * a.cost
        if a.target == me["fave"]:
            score += 2
        return score + rng.random()
    if a.kind == "buy":
        return 6 - 0.5 * a.cost + rng.random() * 3
    # fave: worth it for a boy with a bond still to grow, more so with a big bond discount
    bond = len(me["club"][a.target])
    disc = abilities.discounts(cards, me)["fave"]
    if me["fave"] is None and bond >= 2:
        return 2 + bond + 2 * disc + rng.random()
    return 0.5 + rng.random()


def choose_action(state: State, seat: int, rng: random.Random) -> str:
    options = actions.legal(state, seat)
    return max(options, key=lambda a: _value(state, seat, a, rng)).id


def _want(state: State, seat: int) -> int:
    """The ♥ the bot means to keep for its action: the dearest agenda it can afford, else a host."""
    cards = state["cards"]
    me = state["seats"][seat]
    hearts = me["hearts"]
    agendas = [abilities.agenda_cost(cards, me, a) for a in me["agendas"] if a not in me["done"]]
    affordable = [c for c in agendas if c <= hearts]
    if affordable:
        return max(affordable)
    return min(3, hearts)


def bids(state: State, seat: int, rng: random.Random) -> dict[str, int]:
    n = len(state["seats"])
    hearts = state["seats"][seat]["hearts"]
    spare = max(0, hearts - _want(state, seat))
    out = {}
    for p in range(1, n):
        top = max(0, spare - (p - 1))
        out[str(p)] = rng.randint(top // 2, top) if top else 0
    return out


def draft_prefs(state: State, rng: random.Random) -> dict[str, list[str]]:
    """A random manager ranking and agendas cheapest first (with noise). Both start from the data
    order, not the catalogue's key order, since the generator is consumed in that order."""
    cards = state["cards"]
    managers = list(ids_of(cards, "managers"))
    rng.shuffle(managers)
    agendas = sorted(ids_of(cards, "agendas"), key=lambda a: cards["agendas"][a]["cost"] + rng.random() * 4)
    return {"manager": managers, "agendas": agendas}


def bot_answer(state: State, seat: int, rng: random.Random) -> Any:
    phase = state["phase"]
    if phase == "draft":
        return draft_prefs(state, rng)
    if phase == "auction":
        return bids(state, seat, rng)
    return choose_action(state, seat, rng)
