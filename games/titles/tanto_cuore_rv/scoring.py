"""End-of-game scoring (rulebook section 10) and the tie-break.

Every card a house owns counts: waiting room, hand, kitchen entrance, play area and private
quarters. '?' VP count only when their condition holds; chambermaid bonuses count only for
maids in the private quarters.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine import Outcome
from games.engine.messages import Msg, card_ref, msg

from .state import State, owned

CHIEF_TYPES = ("maid_chief", "chambermaid_chief")


def _label(card_name: str, chambermaids: bool, k: int) -> Msg | dict[str, str]:
    """'Florence Spring (chambermaids) x2': what a breakdown row counts."""
    card = card_ref(card_name)
    if chambermaids:
        if k > 1:
            return msg("%(card)s (chambermaids) x%(n)s", card=card, n=k)
        return msg("%(card)s (chambermaids)", card=card)
    return msg("%(card)s x%(n)s", card=card, n=k) if k > 1 else card


def card_points(s: State, seat: int) -> tuple[list[tuple[Any, int]], int]:
    """(label, points) per card kind and place, and the number of maids that gave no VP."""
    cards = s["cards"]
    zone = s["seats"][seat]
    quarters = Counter(zone["quarters"])
    everywhere = Counter(owned(zone))
    chambermaids = len(zone["quarters"])
    chiefs = sum(k for c, k in everywhere.items() if cards[c]["type"] in CHIEF_TYPES)
    memories = len(zone["memories"])
    rows: list[tuple[Any, int]] = []
    no_vp = 0
    for cid in sorted(everywhere, key=lambda c: cards[c]["name"]):
        card = cards[cid]
        if card["type"] == "love":
            continue
        total, inq = everywhere[cid], quarters[cid]
        rule, vp, p = card["vp_rule"], card["vp"], card["vp_params"]
        if rule == "fixed":
            scoring = total
        elif rule == "chambermaid_only":
            scoring = inq
        elif rule == "florence":
            scoring = inq if chambermaids >= p["chambermaids_at_least"] else 0
        elif rule == "hyacinth":
            scoring = inq if memories >= p["reminiscences_at_least"] else 0
        elif rule == "margareta":
            scoring = total if total >= p["penalty_from"] else 0
        elif rule == "clorinde":
            scoring = total if chiefs < p["chiefs_at_least"] else 0
        else:  # pragma: no cover - the loader only lets known rules through
            raise ValueError(rule)
        points = scoring * vp
        no_vp += total - scoring if vp > 0 else total
        if points:
            where = rule in ("chambermaid_only", "florence", "hyacinth")
            rows.append((_label(card["name"], where, scoring), points))
    for rid, k in sorted(Counter(zone["memories"]).items()):
        r = cards[rid]
        rows.append((_label(r["name"], False, k), r["vp"] * k))
    return rows, no_vp


def outcome(s: State) -> Outcome | None:
    if not s["over"]:
        return None
    scores: dict[int, int] = {}
    breakdown: dict[int, list[tuple[Any, int]]] = {}
    no_vp: dict[int, int] = {}
    for seat in range(len(s["players"])):
        rows, n = card_points(s, seat)
        breakdown[seat] = rows
        scores[seat] = sum(p for _, p in rows)
        no_vp[seat] = n
    best = max(scores.values())
    leaders = [i for i, v in scores.items() if v == best]
    tiebreak: Any = ""
    if len(leaders) > 1:
        most = max(no_vp[i] for i in leaders)
        winners = [i for i in leaders if no_vp[i] == most]
        tiebreak = msg("most maids that give no VP") if len(winners) == 1 else msg("shared win")
    else:
        winners = leaders
    extra: dict[str, Any] = {"maids_without_vp": no_vp, "end_reason": s["end_reason"], "turns": s["turns"]}
    return Outcome(scores=scores, breakdown=breakdown, winners=winners, tiebreak=tiebreak, extra=extra)
