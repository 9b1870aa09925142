"""Spectators: the host's read-only link shows the table as nobody's seat sees it (view(state, None))
and the public log; never a hand, a secret or a private log line. The host can revoke it."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from . import links
from .actions import organise, write
from .host_views import hosted_game
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


@require_POST
def watch_link(request: HttpRequest, pk: int) -> HttpResponse:
    """The host makes a fresh spectator link (the old one stops working) or revokes it."""
    if not request.user.is_authenticated:
        return redirect("sign-in")
    game = hosted_game(request, pk)
    on = request.POST.get("do") == "new"
    try:
        organise.set_watch_link(game, on)
    except write.SubmitError as e:
        messages.error(request, f"{e.message} Nothing was changed.")
    else:
        messages.success(
            request, "A new spectator link: the old one no longer works." if on else "The spectator link is revoked."
        )
    return redirect(game)
