"""The end: each seat's score by the rulebook's four categories, and the outcome (ties share the win)."""

from __future__ import annotations

from typing import Any

from games.engine.messages import msg
from games.engine.protocol import Outcome

from .cards import CardSet
from .state import Cafe, State, card_points, cardset_of

CATEGORIES = (msg("Coins (1 point per 2)"), msg("Café cards"), msg("Regulars"), msg("Special guests"))


def score_seat(cs: CardSet, seat: dict[str, Any]) -> tuple[list[tuple[Any, int]], list[tuple[Any, int]]]:
    """(breakdown by category, points of each café card by its English name, a key) for one seat."""
    cafe = Cafe(cs, seat)
    per_card = [(cs.cards[c].name, card_points(cafe, cs.cards[c])) for c in seat["cafe"]]
    breakdown = [
        (CATEGORIES[0], seat["coins"] // 2),
        (CATEGORIES[1], sum(p for _, p in per_card)),
        (CATEGORIES[2], len(seat["regulars"]) * cs.regular_points),
        (CATEGORIES[3], sum(cs.guests[g]["points"] for g in seat["guests"])),
    ]
    return breakdown, per_card


def outcome(state: State) -> Outcome | None:
    """None while the game goes on; then scores by the rulebook's four categories, ties share the win."""
    if not state["over"]:
        return None
    cs = cardset_of(state)
    scores, breakdown, cards = {}, {}, {}
    for i, seat in enumerate(state["seats"]):
        parts, per_card = score_seat(cs, seat)
        breakdown[i] = parts
        scores[i] = sum(p for _, p in parts)
        cards[i] = per_card
    top = max(scores.values())
    winners = [i for i, s in scores.items() if s == top]
    return Outcome(
        scores=scores,
        breakdown=breakdown,
        winners=winners,
        tiebreak=msg("shared win") if len(winners) > 1 else "",
        extra={"card_points": cards, "end_reason": state["end_reason"], "turns": state["turns"]},
    )
