"""Spectators: the host's read-only link shows the table as nobody's seat sees it (view(state, None))
and the public log; never a hand, a secret or a private log line. The host can revoke it."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from games import links
from games.models import Game
from games.present import LOG_LINES, table_context

from .seat import paused_line

MAX_TOKEN = 2000


@never_cache
def watch(request: HttpRequest, token: str) -> HttpResponse:
    try:
        game = links.game_from_watch_token(token[:MAX_TOKEN])
    except links.LinkError as e:
        return render(request, "games/join_refused.html", {"message": str(e)}, status=403)
    if game.state is None:
        return render(request, "games/watch.html", {"game": game, "waiting": True})
    names = {s.index: s.name for s in game.seats.select_related("player")}
    context = {
        "game": game,
        **table_context(game.engine, game.title, game.state, None, names, LOG_LINES, game=game),
        "paused": paused_line(game, game.timezone) if game.status == Game.Status.PAUSED else "",
    }
    context["new_from"] = context["log_total"]
    return render(request, "games/watch.html", context)
