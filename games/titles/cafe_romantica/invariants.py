"""Invariants checked after every step of a fuzzed game."""

from __future__ import annotations

import json
from typing import Any

from .cards import deck_ids
from .turn import card_conservation

LOG_TAIL = 80
_CHECKED_SETS: list[Any] = []  # card sets already round-tripped (held, so ids stay unique)


def _all_cards(cards: dict[str, Any]) -> list[str]:
    for held, ids in _ALL_CARDS:
        if held is cards:
            return ids
    ids = sorted(deck_ids(cards))
    _ALL_CARDS[:] = _ALL_CARDS[-3:] + [(cards, ids)]
    return ids


_ALL_CARDS: list[tuple[Any, list[str]]] = []


def check_invariants(state: dict[str, Any]) -> None:
    """Cards conserved, no negative ♥, sound agendas, plain JSON, and no hidden agenda or sealed
    answer in another seat's view."""
    cards = state["cards"]
    # the card set is checked once per set and the log by its latest entries: both are shared,
    # never changed in place (a new entry makes a new list), so this covers the whole state
    rest = {k: v for k, v in state.items() if k not in ("cards", "log")}
    rest["log_tail"] = state["log"][-LOG_TAIL:]
    assert json.loads(json.dumps(rest)) == rest, "the state is not plain JSON"
    if not any(c is cards for c in _CHECKED_SETS):
        assert json.loads(json.dumps(cards)) == cards, "the card set is not plain JSON"
        _CHECKED_SETS[:] = _CHECKED_SETS[-3:] + [cards]
    ids = card_conservation(state)
    assert len(ids) == len(set(ids)), "a card is in two places"
    assert sorted(ids) == _all_cards(cards), "cards were lost or invented"
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
    from .view import view_body  # local: the view imports the rules, the rules never import this

    hidden = {i: [a for a in s["agendas"] if a not in s["done"]] for i, s in enumerate(state["seats"])}
    names = {i: [cards["agendas"][a]["name"] for a in ags] for i, ags in hidden.items()}
    # the log holds messages (games/engine/messages.py): searched as JSON too, names escaped
    # views are searched as ASCII JSON (fast), so names are searched in their escaped form
    words = {i: [json.dumps(n)[1:-1] for n in names[i]] + [f'"{a}"' for a in ags] for i, ags in hidden.items()}
    # a log entry never changes once written and hidden agendas only ever get fewer, so each
    # entry is checked while it is among the newest (a step writes far fewer than LOG_TAIL lines)
    log = state["log"][-LOG_TAIL:]
    public = json.dumps([e["text"] for e in log])  # messages: searched as JSON, in one call
    for i, ns in names.items():
        assert not any(json.dumps(n)[1:-1] in public for n in ns), (
            f"a face-down agenda of seat {i} named in the public log"
        )
    spectator = view_body(state, None)
    views = [(None, spectator, json.dumps(spectator))]
    for viewer in range(len(state["seats"])):
        v = view_body(state, viewer)
        # only what differs from the spectator's view needs searching again (equality is cheap)
        diff = [p for p in v["panels"] if p not in spectator["panels"]]
        data = {k: x for k, x in v["data"].items() if k != "seats" and x != spectator["data"].get(k)}
        seats = [x for x, y in zip(v["data"]["seats"], spectator["data"]["seats"], strict=True) if x != y]
        views.append((viewer, v, json.dumps([v["status"], diff, data, seats])))
    private: dict[str, list[Any]] = {}
    for e in log:
        for key, text in e.get("private", {}).items():
            private.setdefault(key, []).append(text)
    for viewer, v, blob in views:
        blob += json.dumps(private.get(str(viewer), []))
        for i, ws in words.items():
            if i != viewer:
                assert not any(w in blob for w in ws), f"a face-down agenda of seat {i} seen by {viewer}"
        if viewer is not None:
            assert v["data"]["my_sealed"] in (None, state["sealed"].get(str(viewer))), "another seat's sealed answer"
