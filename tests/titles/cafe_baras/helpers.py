"""Building exact Café Baras tables for rule tests: a real setup, then cards moved into place."""

from __future__ import annotations

import random
from typing import Any

from games.titles.cafe_baras import TITLE
from games.titles.cafe_baras.state import cardset_of

PLACES = ("deck", "discard", "display")
SEAT_PLACES = ("hand", "cafe", "regulars")


def table(players: int = 3, seed: int = 1) -> dict[str, Any]:
    return TITLE.setup([f"P{i}" for i in range(players)], {}, random.Random(seed))


def rng(n: int = 0) -> random.Random:
    return random.Random(n)


def _take(state: dict[str, Any], cid: str) -> None:
    for key in PLACES:
        if cid in state[key]:
            state[key].remove(cid)
            return
    for s in state["seats"]:
        for key in SEAT_PLACES:
            if cid in s[key]:
                s[key].remove(cid)
                return
    raise AssertionError(f"card {cid} is nowhere")


def arrange(
    state: dict[str, Any],
    turn: int = 0,
    display: list[str] | None = None,
    guests: list[str] | None = None,
    deck: list[str] | None = None,
    discard: list[str] | None = None,
    **seats: dict[str, Any],
) -> dict[str, Any]:
    """Put cards in place and make it `turn`'s main step. Cards keep being conserved:
    a place given anew sends its old cards to the bottom of the deck (of the discard pile when the deck
    itself is given). Deck lists are bottom..top: the last card is drawn first.

    seats: s0={"hand": [...], "cafe": [...], "regulars": [...], "coins": 3, "guests": [...]}, s1=...
    guests: the face-up special guests (the rest go to the box).
    """
    cs = cardset_of(state)
    wanted: list[tuple[Any, str, list[str]]] = []
    for key, value in (("display", display), ("deck", deck), ("discard", discard)):
        if value is not None:
            wanted.append((None, key, value))
    for name, spec in seats.items():
        i = int(name[1:])
        for key in SEAT_PLACES:
            if key in spec:
                wanted.append((i, key, spec[key]))
        if "coins" in spec:
            state["seats"][i]["coins"] = spec["coins"]
    for owner, key, cards in wanted:
        where = state if owner is None else state["seats"][owner]
        old = list(where[key])
        for cid in cards:
            _take(state, cid)
        for cid in old:
            if cid not in cards and cid in where[key]:
                where[key].remove(cid)
                state["discard" if where is state and key == "deck" else "deck"].insert(0, cid)
        where[key] = list(cards)
    if guests is not None:
        for s in state["seats"]:
            s["guests"] = []
        claimed = {g: int(name[1:]) for name, spec in seats.items() for g in spec.get("guests", [])}
        for g, i in claimed.items():
            state["seats"][i]["guests"].append(g)
        state["guests"] = list(guests)
        state["box"] = [g for g in cs.guest_order if g not in guests and g not in claimed]
    state["turn"] = turn
    state["phase"] = "main"
    state["pending"] = []
    state["source"] = None
    state["trigger"] = []
    return state


def one_serve_from_the_end(guests: list[str], **seats: dict[str, Any]) -> dict[str, Any]:
    """Three players; seat 0 has two regulars and serves its third (the end) with its lemonade."""
    return arrange(
        table(3),
        turn=0,
        s0={
            "hand": ["lemonade", "espresso", "donut", "bagel"],
            "cafe": ["croissant", "wooden-bench"],
            "regulars": ["tomato-soup", "log-fireplace"],
        },
        guests=guests,
        **seats,
    )


def said(tree: Any, state: dict[str, Any] | None = None) -> Any:
    """`tree` (a view, a log, a prompt's text, an option) with every message in English, seats by the
    players' names in `state` (games/engine/messages.english); everything else as it is."""
    from dataclasses import fields, is_dataclass, replace

    from games.engine.messages import english

    names = dict(enumerate(state["players"])) if state else None
    if isinstance(tree, dict):
        if any(k in tree for k in ("$m", "$seat", "$card", "$list")):
            return english(tree, names)
        return {k: said(v, state) for k, v in tree.items()}
    if isinstance(tree, list):
        return [said(v, state) for v in tree]
    if isinstance(tree, tuple):
        return tuple(said(v, state) for v in tree)
    if is_dataclass(tree) and not isinstance(tree, type):
        return replace(tree, **{f.name: said(getattr(tree, f.name), state) for f in fields(tree) if f.init})
    return tree
