"""Invariants checked after every step of fuzzed games: cards conserved, no negative counts,
a consistent turn and stage."""

from __future__ import annotations

from collections import Counter

from .state import ZONES, State


def check_invariants(s: State) -> None:
    counts: Counter[str] = Counter()
    for cid, k in s["town"].items():
        assert k >= 0, f"town stack {cid} is negative ({k})"
        counts[cid] += k
    for i, z in enumerate(s["seats"]):
        for zone in ZONES:
            counts.update(z[zone])
        for c in z["quarters"]:
            assert s["cards"][c].get("chamber"), f"seat {i}: {c} in private quarters is no chambermaid"
        for r in z["memories"]:
            assert s["cards"][r]["type"] == "reminiscence", f"seat {i}: {r} among reminiscences"
    counts.update(s["remi_deck"])
    counts.update(s["remi_row"])
    stage = s["stage"]
    if stage["kind"] == "reveal":
        counts.update(stage["cards"])
    totals = Counter({k: v for k, v in s["totals"].items() if v})
    assert +counts == totals, f"cards not conserved: {dict(counts - totals)} extra, {dict(totals - counts)} missing"
    assert len(s["remi_row"]) == min(3, len(s["remi_row"]) + len(s["remi_deck"])), "reminiscence row not refilled"
    if not s["over"]:
        t = s["turn"]
        for key in ("servings", "love", "employments", "extra_draws"):
            assert t[key] >= 0, f"negative {key}: {t[key]}"
        assert 0 <= t["seat"] < len(s["players"])
        if stage["kind"] in ("keep", "bottom"):
            assert stage["waiting"], "a waiting stage with nobody to wait for"
            assert t["seat"] not in stage["waiting"], "the seat whose turn it is waits on itself"
    assert s["turns"] >= 0
