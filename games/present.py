"""Small shapes templates need that the engine's view does not give directly."""

from __future__ import annotations

from typing import Any


def score_rows(outcome, names: dict[int, str]) -> list[dict[str, Any]]:
    """Final scores as rows, best first, each with the rulebook's breakdown."""
    return [
        {
            "name": names.get(i, f"Seat {i + 1}"),
            "score": outcome.scores[i],
            "breakdown": outcome.breakdown.get(i, []),
            "winner": i in outcome.winners,
        }
        for i in sorted(outcome.scores, key=lambda i: -outcome.scores[i])
    ]
