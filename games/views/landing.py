"""The front page for a first visit (the four games, each pictured by its own card, in a line, with
its rules), and trying a game against bots in one click: a game with the player and two bots, started
at once, the player's seat opened. A second click while that game is still on opens it again rather
than starting another."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cardsets.preview import showcase
from games import links
from games.actions import organise, write
from games.engine import OptionsError
from games.messages import say, sayer
from games.models import Game, Seat
from games.titles import get_title, titles

from .rules import lead

BOTS = 2  # a game against bots: the player and two bots (fewer or more where a title needs it)


@dataclass
class Shown:
    """One game on the front page."""

    slug: str
    name: str
    line: str
    players: str
    picture: SafeString
    rules: bool


def shown_games() -> list[Shown]:
    """Every title, pictured by the first card its drawing draws."""
    out = []
    for t in titles():
        low, high = t.min_players, t.max_players
        players = (
            ngettext("%(n)s player", "%(n)s players", low) % {"n": low}
            if low == high
            else _("%(low)s to %(high)s players") % {"low": low, "high": high}
        )

        picture = mark_safe(showcase(t.slug, get_language() or "en", sayer(t.slug)))  # noqa: S308 - the drawing escapes every text it holds
        out.append(Shown(t.slug, t.name, lead(t.slug), players, picture, bool(t.rules_summary)))
    return out


def landing(request: HttpRequest) -> HttpResponse:
    """The four games, their rules, and (signed in) a game against bots for each in one click."""
    return render(request, "games/landing.html", {"games": shown_games()})


def bot_game_seat(user, slug: str) -> Seat | None:
    """The player's seat in a game against bots of this title that they host and that is still on."""
    seats = Seat.objects.filter(
        player=user, game__organiser=user, game__title=slug, game__status__in=(Game.Status.ACTIVE, Game.Status.PAUSED)
    ).select_related("game")
    for seat in seats.order_by("-game__created_at")[:20]:
        others = seat.game.seats.exclude(pk=seat.pk)
        if others.exists() and not others.filter(is_bot=False).exists():
            return seat
    return None


@login_required
@require_POST
def try_bots(request: HttpRequest) -> HttpResponse:
    """Start a game of the posted title against bots and open the player's seat."""
    slug = request.POST.get("title", "")
    try:
        title = get_title(slug if isinstance(slug, str) else "")
    except KeyError:
        messages.error(request, _("There is no such game to try. Pick one of the games below."))
        return redirect("games")
    seat = bot_game_seat(request.user, title.slug)
    if seat is not None:
        messages.info(
            request, _("Your game of %(title)s against bots is still on: here it is.") % {"title": title.name}
        )
        return redirect(reverse("seat", args=[links.token_for(seat)]))
    count = min(max(1 + BOTS, title.min_players), title.max_players)
    try:
        game = organise.create_game(
            request.user,
            title.slug,
            _("%(title)s against bots") % {"title": title.name},
            {},
            [request.user.email] + [None] * (count - 1),
        )
        organise.start_game(game, actor=request.user)
    except (OptionsError, write.SubmitError) as e:
        why = getattr(e, "message", None) or (say(e.args[0]) if e.args else str(e))
        messages.error(request, _("The game could not start: %(why)s") % {"why": why})
        return redirect("games")
    seat = game.seats.get(index=0)
    messages.success(
        request,
        ngettext(
            "A game of %(title)s against %(n)s bot has started: you are the first seat.",
            "A game of %(title)s against %(n)s bots has started: you are the first seat.",
            count - 1,
        )
        % {"title": title.name, "n": count - 1},
    )

    return redirect(reverse("seat", args=[links.token_for(seat)]))
