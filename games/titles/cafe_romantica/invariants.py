"""Invariants checked after every step of a fuzzed game."""

from __future__ import annotations

import json
from typing import Any

from .cards import deck_ids
from .turn import card_conservation


def check_invariants(state: dict[str, Any]) -> None:
    cards = state["cards"]
    ids = card_conservation(state)
    assert len(ids) == len(set(ids)), "a card is in two places"
    assert sorted(ids) == sorted(deck_ids(cards)), "cards were lost or invented"
    assert len(state["field"]) == 8, "the field is not two rows of four"
    for s in state["seats"]:
        assert s["hearts"] >= 0, "negative ♥"
        assert set(s["done"]) <= set(s["agendas"]), "a completed agenda the seat does not hold"
        assert len(s["agendas"]) in (0, 3), "a seat holds other than three agendas"
        assert len(set(s["done"])) == len(s["done"]), "an agenda completed twice"
        assert s["fave"] is None or s["fave"] in s["club"], "a favourite outside the club"
    taken = [a for s in state["seats"] for a in s["agendas"]]
    assert len(taken) == len(set(taken)), "an agenda dealt twice"
    if state["phase"] == "over":
        return
    from .view import view  # local: view imports the rules, the rules do not import this module

    for i, s in enumerate(state["seats"]):
        hidden = [a for a in s["agendas"] if a not in s["done"]]
        if not hidden:
            continue
        for other in [None, *range(len(state["seats"]))]:
            if other == i:
                continue
            blob = json.dumps(view(state, other), ensure_ascii=False)
            for a in hidden:
                ag = cards["agendas"][a]
                assert ag["name"] not in blob and f'"{a}"' not in blob, f"agenda {a} of seat {i} visible to {other}"
    if state["phase"] == "auction":
        for i in range(len(state["seats"])):
            data = view(state, i)["data"]
            assert data["my_sealed"] in (None, state["sealed"].get(str(i))), "a sealed answer shown to another seat"
