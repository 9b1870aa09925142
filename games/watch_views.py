"""Spectators: the host's read-only link shows the table as nobody's seat sees it (view(state, None))
and the public log; never a hand, a secret or a private log line. The host can revoke it."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from . import links
from .present import score_rows, seat_view, table_template
from .views import LOG_LINES

MAX_TOKEN = 2000


@never_cache
def watch(request: HttpRequest, token: str) -> HttpResponse:
    try:
        game = links.game_from_watch_token(token[:MAX_TOKEN])
    except links.LinkError as e:
        return render(request, "games/join_refused.html", {"message": str(e)}, status=403)
    if game.state is None:
        return render(request, "games/watch.html", {"game": game, "waiting": True})
    engine = game.engine
    view, total = seat_view(engine, game.state, None, LOG_LINES)
    lines = view.get("log", [])
    outcome = engine.outcome(game.state)
    names = {s.index: s.name for s in game.seats.select_related("player")}
    context = {
        "game": game,
        "view": view,
        "table_template": table_template(game.title),
        "log": list(enumerate(lines, start=total - len(lines)))[::-1],
        "log_hidden": total - len(lines),
        "new_from": total,
        "rows": score_rows(outcome, names) if outcome else None,
        "tiebreak": outcome.tiebreak if outcome else "",
    }
    return render(request, "games/watch.html", context)
