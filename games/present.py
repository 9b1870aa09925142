"""Small shapes templates need that the engine's view does not give directly: the log with moves
made for a person said as such, the players by the names they go by now, the final scores."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.core.cache import cache as shared_cache
from django.template.loader import get_template

from games import automatic
from games.messages import Reading, reading_for, render, say
from games.models import Event
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


def shown_scores(outcome, names: dict[int, str], slug: str) -> dict[str, Any]:
    """The final scores and the tie-break as a page shows them: in the reader's words (a mail keeps
    score_rows' messages and says them when it is sent, in its reader's)."""
    if not outcome:
        return {"rows": None, "tiebreak": ""}
    reading = Reading(names, slug)
    return {"rows": render(score_rows(outcome, names), reading), "tiebreak": say(outcome.tiebreak, reading)}


def table_context(
    engine,
    slug: str,
    state: dict,
    seat: int | None,
    names: dict[int, str],
    last: int,
    total: int | None = None,
    game=None,
) -> dict[str, Any]:
    """What every page drawing a table through one seat's eyes shows (the seat page, spectators,
    the admin's table as seat): the view, the title's drawing, the newest `last` log lines numbered
    by their place in the whole log (newest first), and the final scores once the game is over.
    `total` is the log's length when the caller read only its tail from the database. With the
    `game`, moves made for a person are said as such and players go by their names of now."""
    view, length = seat_view(engine, state, seat, last)
    total = total or length
    if game is None:
        view = render(view, Reading(names, slug))
    else:
        view = as_shown(game, view, seat, names, total)
    lines = view.get("log", [])
    outcome = engine.outcome(state)
    return {
        "view": view,
        "table_template": table_template(slug),
        "log": list(enumerate(lines, start=total - len(lines)))[::-1],
        "log_hidden": total - len(lines),
        "log_total": total,
        **shown_scores(outcome, names, slug),
    }


def as_shown(game, view: dict[str, Any], seat: int | None, names: dict[int, str], total: int, upto=None) -> dict:
    """A seat's view as a page or an email shows it: its log lines (the last of `total`, as of step
    `upto`) with each move made for a person said as such, and the players renamed since the game
    began called by their names of now wherever the view names them whole."""
    # the engine's messages in words, in the language active now (the reader's), players by their names of now
    view = render(view, reading_for(game, names))
    logged = players_at_start(game)
    view = renamed(view, {old: names[i] for i, old in logged.items() if old and names.get(i) and names[i] != old})
    lines = view.get("log")
    if isinstance(lines, list) and lines:
        first = total - len(lines)
        made = automatic.made_steps(game.pk, first, total, upto)
        if made:
            view = {**view, "log": automatic.tell(lines, first, made, seat, names, logged)}
    return view


def players_at_start(game) -> dict[int, str]:
    """The names the game began with, as the title logged them ({seat: name}); kept in the cache,
    since a game's first event never changes."""
    key = f"players-at-start:{game.pk}:{game.created_at.timestamp() if game.created_at else ''}"
    found = shared_cache.get(key)
    if found is None:
        payload = Event.objects.filter(game_id=game.pk, seq=0).values_list("payload__players", flat=True).first()
        found = {i: str(n) for i, n in enumerate(payload)} if isinstance(payload, list) else {}
        shared_cache.set(key, found, 24 * 3600)
    return found


def renamed(view: dict[str, Any], old_new: dict[str, str]) -> dict[str, Any]:
    """The view with each renamed player called by their name of now where it names them whole: a
    text that is the old name, or starts with it as "ben's …" (a panel's title, the status line),
    in the status, the panels and the drawing's data (never a card's, which has an id). Sentences (the log) stay as the title wrote
    them: naming players inside its sentences is the languages issue's (message ids with parameters)."""
    if not old_new:
        return view
    return {k: (_renamed(v, old_new) if k != "log" else v) for k, v in view.items()}


def _renamed(value: Any, old_new: dict[str, str]) -> Any:
    if isinstance(value, str):
        if value in old_new:
            return old_new[value]
        for old, new in old_new.items():
            if old and value.startswith(f"{old}'s "):
                return new + value[len(old) :]
        return value
    if isinstance(value, dict):
        if "id" in value:  # a card (or another thing with an id): its name is its own, even one a player has
            return value
        return {k: _renamed(v, old_new) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, old_new) for v in value]
    return value


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
