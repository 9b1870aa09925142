"""A person's preferences: mail and timezone from a seat's link, and unsubscribing from an email."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt

from accounts import tokens
from games.forms.preferences import PreferencesForm

from .seat import seat_or_error


@csrf_exempt  # RFC 8058 one-click: mail providers POST "List-Unsubscribe=One-Click" without a session
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks (mail scanners open links); POST unsubscribes. The person's games go on."""
    user = tokens.user_from_unsubscribe(token)
    if user is None:
        return render(request, "games/unsubscribe.html", {"error": "This unsubscribe link is not valid."}, status=403)
    if request.method == "POST":
        type(user).objects.filter(pk=user.pk).update(unsubscribed=True)
        return render(request, "games/unsubscribe.html", {"done": True, "email": user.email})
    return render(request, "games/unsubscribe.html", {"email": user.email})


def seat_settings(request: HttpRequest, token: str) -> HttpResponse:
    """A player's own mail preferences and timezone, reached from their seat link."""
    seat = seat_or_error(request, token)
    if isinstance(seat, HttpResponse):
        return seat
    user = seat.player
    if user is None:
        raise PermissionDenied("A bot seat has no preferences.")
    form = PreferencesForm(request.POST if request.method == "POST" else None, instance=user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Saved. Your games go on as before.")
        return redirect("seat-settings", token=token)
    return render(request, "games/settings.html", {"form": form, "seat": seat, "game": seat.game, "token": token})
