"""The front page: a signed-in player's home (games.home), or for a visitor the four games (landing.py)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.home import home_for
from games.models import Game
from games.titles import choices

from .landing import landing


def home(request: HttpRequest) -> HttpResponse:
    """Signed in: my games (and, for organisers, the games they run). Otherwise: the four games
    (landing.py), for a first visit."""
    if not request.user.is_authenticated:
        return landing(request)
    mine = home_for(request.user)
    games = Game.objects.all() if request.user.is_superuser else Game.objects.filter(organiser=request.user)
    return render(request, "games/home.html", {"games": games, "home": mine, "try_titles": choices()})
