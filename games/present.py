"""Small shapes templates need that the engine's view does not give directly."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.template.loader import get_template

from games.title_files import PREFIX
from games.titles import get_title, when_changed

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
    """The title's own drawing of the table if it offers one, else the generic panels.

    page: TITLE.page_template (SVG and layout, may enhance the form), else games/_panels.html;
    email: TITLE.email_template (HTML tables, CSS inlined when sent), else emails/_table.html.
    A title's templates are files in its package's templates/, named titles/<slug>/<file>
    (games/title_files.py finds them).
    """
    title = get_title(slug)
    own = title.email_template if medium == "email" else title.page_template
    if own:
        return get_template(f"{PREFIX}/{slug}/{own}")
    return get_template("emails/_table.html" if medium == "email" else "games/_panels.html")


when_changed(table_template.cache_clear)
