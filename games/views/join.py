"""Join links: a host's shared link to a draft game's open seats, and the emailed confirmation.

Following the link shows the game and asks for a name and an address; the seat is taken only by
the button behind the link mailed to that address (a GET never takes it: mail scanners fetch
links). Taking it signs the person in. Asking is rate-limited as sign-in links are.
"""

from __future__ import annotations

from django import forms as django_forms
from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache

from accounts import limits
from accounts.addresses import AddressField
from accounts.models import User
from games import links
from games.actions import joining, write
from games.forms.fields import PlainTextField

MAX_TOKEN = 2000


class JoinForm(django_forms.Form):
    name = PlainTextField(max_length=80, label=gettext_lazy("Your name, as the table will see it"))
    email = AddressField(
        label=gettext_lazy("Your email address"), help_text=gettext_lazy("We mail you a link that takes the seat.")
    )


def _refused(request: HttpRequest, message: str, status: int = 403) -> HttpResponse:
    return render(request, "games/join_refused.html", {"message": message}, status=status)


@never_cache
def join(request: HttpRequest, token: str) -> HttpResponse:
    try:
        game = links.game_from_join_token(token[:MAX_TOKEN])
    except links.LinkError as e:
        return _refused(request, str(e))
    open_seats = game.seats.filter(player=None, is_bot=False).count()
    form = JoinForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        address = form.cleaned_data["email"]
        if limits.mail_request_limited(request, address):
            form.add_error(None, _("Too many requests were made just now. Try again in an hour."))
        else:
            joining.ask_to_join(game, address, form.cleaned_data["name"])
            return render(request, "games/join_sent.html", {"game": game, "address": address})
    status = 429 if form.non_field_errors() else 400 if form.errors else 200
    context = {"game": game, "form": form, "open_seats": open_seats}
    return render(request, "games/join.html", context, status=status)


@never_cache
def join_confirm(request: HttpRequest) -> HttpResponse:
    source = request.POST if request.method == "POST" else request.GET
    token = source.get("t", "")
    if not isinstance(token, str) or len(token) > MAX_TOKEN:
        token = ""
    try:
        data = links.read_confirm_token(token)
    except links.LinkError as e:
        return _refused(request, str(e))
    if request.method != "POST":
        return render(request, "games/join_confirm.html", {"token": token, "address": data["a"]})
    user = User.objects.for_email(data["a"])
    if not user.is_active:
        return _refused(request, _("This address cannot take seats here."))
    try:
        seat = joining.claim_seat(data, user)
    except write.SubmitError as e:
        return _refused(request, e.message, status=409)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(
        request,
        _("You have seat %(n)s in %(game)s. The host starts the game.") % {"n": seat.index + 1, "game": seat.game.name},
    )

    return redirect(reverse("seat", args=[links.token_for(seat)]))
