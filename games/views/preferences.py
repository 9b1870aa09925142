"""A person's preferences: their profile (name, timezone, mail for every game at once) and absence
calendar at /me/, the same from a seat's link, and unsubscribing from an email."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from accounts import languages, tokens
from games.actions import absences, channels
from games.actions.write import SubmitError
from games.forms.channels import SeatChannelsForm
from games.forms.preferences import PreferencesForm
from games.forms.seat import VacationForm
from games.models import Absence, ChatHook
from games.reader_time import local_time

from . import chat_hooks
from .seat import seat_or_error


@csrf_exempt  # RFC 8058 one-click: mail providers POST "List-Unsubscribe=One-Click" without a session
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks (mail scanners open links); POST unsubscribes. The person's games go on."""
    user = tokens.user_from_unsubscribe(token)
    if user is None:
        return render(
            request, "games/unsubscribe.html", {"error": _("This unsubscribe link is not valid.")}, status=403
        )
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
        raise PermissionDenied(_("A bot seat has no preferences."))
    languages.as_player(request, user)
    form = PreferencesForm(request.POST if request.method == "POST" else None, instance=user)
    if request.method == "POST" and form.is_valid():
        form.save()
        languages.as_player(request, user)
        messages.success(request, _("Saved. Your games go on as before."))
        return redirect("seat-settings", token=token)
    return _settings_page(request, seat, token, form)


def _settings_page(request, seat, token: str, form, channels_form=None, status: int = 200) -> HttpResponse:
    channels_form = channels_form or SeatChannelsForm(initial={"muted": seat.muted_channels})
    return render(
        request,
        "games/settings.html",
        {"form": form, "channels_form": channels_form, "seat": seat, "game": seat.game, "token": token},
        status=status,
    )


@require_POST
def seat_channels(request: HttpRequest, token: str) -> HttpResponse:
    """Per game: the channels other than email this seat stays quiet on (email has its own settings)."""
    seat = seat_or_error(request, token)
    if isinstance(seat, HttpResponse):
        return seat
    if seat.player is None:
        raise PermissionDenied(_("A bot seat has no preferences."))
    form = SeatChannelsForm(request.POST)
    if not form.is_valid():
        return _settings_page(request, seat, token, PreferencesForm(instance=seat.player), form, status=400)
    channels.set_muted_channels(seat, form.cleaned_data["muted"])
    messages.success(request, _("Saved for %(game)s.") % {"game": seat.game.name})
    return redirect("seat-settings", token=token)


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    """Name, timezone and mail for every game at once, and the absence calendar."""
    form = PreferencesForm(request.POST if request.method == "POST" else None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        if languages.valid(user.language):
            translation.activate(user.language)  # the page that says "Saved" is in it already
        messages.success(request, _("Saved: every game of yours uses these from now on."))
        response = redirect("profile")
        return languages.keep(request, response, user.language) if languages.valid(user.language) else response
    return _profile_page(request, form, VacationForm(tz=request.user.timezone), status=400 if form.errors else 200)


@login_required
@require_POST
def profile_chat(request: HttpRequest) -> HttpResponse:
    """Add a webhook of mine: pinged when it is my move in any game."""
    form = chat_hooks.add(request, owner=request.user)
    if form is not None:
        tz = request.user.timezone
        return _profile_page(request, PreferencesForm(instance=request.user), VacationForm(tz=tz), form, status=400)
    return redirect(reverse("profile") + "#chat")


@login_required
@require_POST
def profile_chat_hook(request: HttpRequest, hook: int) -> HttpResponse:
    """A button on one of my webhooks (test, off, on, remove); another person's is not found."""
    found = ChatHook.objects.filter(pk=hook, owner=request.user).first()
    if found is None:
        return chat_hooks.no_such(request)
    chat_hooks.act(request, found)
    return redirect(reverse("profile") + "#chat")


@login_required
@require_POST
def away(request: HttpRequest) -> HttpResponse:
    """Declare an absence once: every game of mine, now and joined during it, stops my clock."""
    tz = request.user.timezone
    form = VacationForm(request.POST, tz=tz)
    if not form.is_valid():
        return _profile_page(request, PreferencesForm(instance=request.user), form, status=400)
    starts, ends = form.period()
    try:
        absences.declare_absence(request.user, starts, ends)
    except SubmitError as e:
        form.add_error(None, _("%(why)s Nothing was saved.") % {"why": e.message})
        return _profile_page(request, PreferencesForm(instance=request.user), form, status=400)
    messages.success(
        request,
        _(
            "Away from %(starts)s until %(ends)s: your clocks stop in every game, "
            "within each game's yearly allowance (below)."
        )
        % {"starts": local_time(starts, tz), "ends": local_time(ends, tz)},
    )
    return redirect("profile")


def _profile_page(request: HttpRequest, form, away_form, chat_form=None, status: int = 200) -> HttpResponse:
    tz = request.user.timezone
    calendar = [
        {
            "starts": local_time(a.starts, tz),
            "ends": local_time(a.ends, tz),
            "games": [
                {
                    "name": g.game.name,
                    "granted": _("%(starts)s until %(ends)s")
                    % {"starts": local_time(g.starts, tz), "ends": local_time(g.ends, tz)}
                    if g.whole
                    else "",
                    "used": g.used_days,
                    "booked": g.booked_days,
                    "allowance": g.allowance_days,
                    "clock": g.clock,
                }
                for g in absences.granted(a)
            ],
        }
        for a in Absence.objects.filter(player=request.user, ends__gt=timezone.now())
    ]
    chat = chat_hooks.context(
        ChatHook.objects.filter(owner=request.user),
        lambda pk: reverse("profile-chat-hook", args=[pk]),
        reverse("profile-chat"),
        chat_form,
    )
    return render(
        request,
        "games/profile.html",
        {"form": form, "away_form": away_form, "calendar": calendar, **chat},
        status=status,
    )
