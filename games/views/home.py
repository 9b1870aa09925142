"""The front page: a signed-in player's home (games.home), or what this is."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.home import home_for
from games.models import Game


def home(request: HttpRequest) -> HttpResponse:
    """Signed in: my games (and, for organisers, the games they run). Otherwise: what this is."""
    games, mine = [], None
    if request.user.is_authenticated:
        mine = home_for(request.user)
        games = Game.objects.all() if request.user.is_superuser else Game.objects.filter(organiser=request.user)
    return render(request, "games/home.html", {"games": games, "home": mine})
