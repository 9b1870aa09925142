"""Invariants checked after every step of the fuzz games (AssertionError names what broke)."""

from __future__ import annotations

from collections import Counter

from .state import DISPLAY_SIZE, State, cardset_of

PHASES = ("main", "effect", "refill", "over")


def check_invariants(state: State) -> None:
    cs = cardset_of(state)
    seats = state["seats"]
    everywhere = state["deck"] + state["discard"] + state["display"]
    for s in seats:
        everywhere += s["hand"] + s["cafe"] + s["regulars"]
    if len(everywhere) != len(cs.order) or set(everywhere) != cs.card_ids:
        seen = Counter(everywhere)
        dupes = sorted(c for c, k in seen.items() if k != 1)
        lost = sorted(cs.card_ids - set(seen))
        raise AssertionError(
            f"café cards not conserved: in two places {dupes}, lost {lost}, unknown {sorted(set(seen) - cs.card_ids)}"
        )

    guests = state["guests"] + state["box"] + [g for s in seats for g in s["guests"]]
    assert len(guests) == len(cs.guest_order) and set(guests) == set(cs.guest_order), "special guests not conserved"
    assert len(state["box"]) == len(cs.guest_order) - (len(seats) + 1), "guests came out of the box"

    counters = [s["counter"] for s in seats]
    assert len(set(counters)) == len(counters) and all(c in cs.counters for c in counters), "counters wrong"
    for i, s in enumerate(seats):
        assert isinstance(s["coins"], int) and s["coins"] >= 0, f"seat {i} has {s['coins']} coins"
        for r in s["regulars"]:
            assert cs.cards[r].pref is not None, f"seat {i} has a regular with no preferred decor: {r}"
    assert len(state["display"]) <= DISPLAY_SIZE, "display overfull"
    if state["deck"]:
        assert len(state["display"]) == DISPLAY_SIZE or state["phase"] != "main", (
            "display has gaps while the deck has cards"
        )
    assert state["phase"] in PHASES, f"unknown phase {state['phase']}"
    assert 0 <= state["turn"] < len(seats), "turn out of range"
    assert state["over"] == (state["phase"] == "over"), "over flag and phase disagree"
    if state["phase"] == "effect":
        assert state["pending"] and state["source"] in state["seats"][state["turn"]]["cafe"], "effect without a source"
    if state["end"] is not None:
        assert 0 <= state["end"]["left"] < len(seats), "end countdown out of range"
