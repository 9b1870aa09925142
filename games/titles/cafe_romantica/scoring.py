"""The end: agendas completed, ties broken by club ♥ at the turn cap, or a shared win."""

from __future__ import annotations

from games.engine import Outcome

from . import abilities
from .state import State


def outcome(state: State) -> Outcome | None:
    if state["phase"] != "over":
        return None
    cards = state["cards"]
    seats = state["seats"]
    scores = {i: len(s["done"]) for i, s in enumerate(seats)}
    values = {i: abilities.club_value(cards, s) for i, s in enumerate(seats)}
    breakdown = {i: [("Agendas completed", scores[i])] for i in scores}
    winners = list(state["winners"])
    if state["end"] == "win":
        tiebreak = "shared win: they began the same turn with three agendas" if len(winners) > 1 else ""
    else:
        top = max(scores.values())
        tied = [i for i in scores if scores[i] == top]
        tiebreak = "turn cap: most agendas"
        if len(tied) > 1:
            tiebreak += ", then most club ♥"
        if len(winners) > 1:
            tiebreak += " (shared win)"
    return Outcome(scores, breakdown, winners, tiebreak, {"end": state["end"], "club_value": values})
