"""Small shapes templates need that the engine's view does not give directly."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.template.loader import select_template

LOG_LINES = 60  # the newest log lines a page shows (the rest: the history)


def seat_view(engine, state: dict, seat: int | None, last: int) -> tuple[dict[str, Any], int]:
    """The engine's view for a seat with only the last `last` log lines read, and the log's length.

    A long game's log is most of its state; pages show its newest lines and emails fewer still.
    Every title keeps its log as state["log"] and turns entry i into line i of view["log"], so the
    engine is simply given the tail.
    """
    log = state.get("log") if isinstance(state, dict) else None
    if not isinstance(log, list):
        return engine.view(state, seat), 0
    if len(log) <= last:
        return engine.view(state, seat), len(log)
    return engine.view({**state, "log": log[-last:]}, seat), len(log)


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


def table_context(
    engine, slug: str, state: dict, seat: int | None, names: dict[int, str], last: int, total: int | None = None
) -> dict[str, Any]:
    """What every page drawing a table through one seat's eyes shows (the seat page, spectators,
    the admin's table as seat): the view, the title's drawing, the newest `last` log lines numbered
    by their place in the whole log (newest first), and the final scores once the game is over.
    `total` is the log's length when the caller read only its tail from the database."""
    view, length = seat_view(engine, state, seat, last)
    total = total or length
    lines = view.get("log", [])
    outcome = engine.outcome(state)
    return {
        "view": view,
        "table_template": table_template(slug),
        "log": list(enumerate(lines, start=total - len(lines)))[::-1],
        "log_hidden": total - len(lines),
        "log_total": total,
        "rows": score_rows(outcome, names) if outcome else None,
        "tiebreak": outcome.tiebreak if outcome else "",
    }


@cache
def table_template(slug: str, medium: str = "page"):
    """The title's own drawing of the table if it has one, else the generic panels.

    page: templates/games/titles/<slug>/table.html (SVG and layout, may enhance the form);
    email: templates/emails/titles/<slug>/table.html (HTML tables, CSS inlined when sent).
    """
    if medium == "email":
        return select_template([f"emails/titles/{slug}/table.html", "emails/_table.html"])
    return select_template([f"games/titles/{slug}/table.html", "games/_panels.html"])
