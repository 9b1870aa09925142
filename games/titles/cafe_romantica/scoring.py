"""The end: agendas completed, ties broken by club ♥ at the turn cap, or a shared win."""

from __future__ import annotations

from typing import Any

from games.engine import Outcome
from games.engine.messages import msg

from . import abilities
from .state import State


def outcome(state: State) -> Outcome | None:
    if state["phase"] != "over":
        return None
    cards = state["cards"]
    seats = state["seats"]
    scores = {i: len(s["done"]) for i, s in enumerate(seats)}
    values = {i: abilities.club_value(cards, s) for i, s in enumerate(seats)}
    breakdown = {i: [(msg("Agendas completed"), scores[i])] for i in scores}
    winners = list(state["winners"])
    tiebreak: Any = ""
    if state["end"] == "win":
        if len(winners) > 1:
            tiebreak = msg("shared win: they began the same turn with three agendas")
    else:
        top = max(scores.values())
        tied = len([i for i in scores if scores[i] == top]) > 1
        shared = len(winners) > 1
        if tied and shared:
            tiebreak = msg("turn cap: most agendas, then most club ♥ (shared win)")
        elif tied:
            tiebreak = msg("turn cap: most agendas, then most club ♥")
        elif shared:
            tiebreak = msg("turn cap: most agendas (shared win)")
        else:
            tiebreak = msg("turn cap: most agendas")
    return Outcome(scores, breakdown, winners, tiebreak, {"end": state["end"], "club_value": values})
