"""Signing in by a link mailed to you: no password, ever (organisers may keep theirs).

The link's GET only shows a button: mail scanners fetch links, and a fetch must never sign anyone
in. The button's POST spends the link (django-sesame, SESAME_ONE_TIME) and starts a session of two
weeks. Asking for a link says the same thing whether the address is known or not.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from . import actions, bounces, languages, limits, tokens
from .forms import SignInForm

TOKEN_FIELD = "sesame"
MAX_TOKEN = 500  # a sesame token is under 100 characters; anything far longer is not one


def sign_in(request: HttpRequest) -> HttpResponse:
    form = SignInForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        address = form.cleaned_data["email"]
        if limits.mail_request_limited(request, address):
            form.add_error(None, _("Too many sign-in links were asked for just now. Try again in an hour."))
            return render(request, "accounts/sign_in.html", {"form": form}, status=429)
        actions.send_sign_in_link(address)
        return render(request, "accounts/sign_in_sent.html", {"address": address})
    return render(request, "accounts/sign_in.html", {"form": form}, status=400 if form.errors else 200)


@never_cache
def sign_in_link(request: HttpRequest) -> HttpResponse:
    source = request.POST if request.method == "POST" else request.GET
    token = source.get(TOKEN_FIELD, "")
    if not isinstance(token, str) or len(token) > MAX_TOKEN:
        token = ""
    if request.method == "POST":
        user = tokens.user_from_sign_in(token, spend=True) if token else None  # spends the link
        if user is None:
            return _link_refused(request)
        login(request, user, backend="sesame.backends.ModelBackend")
        bounces.clear(user)  # the link arrived, so mail reaches this address
        messages.success(request, _("Signed in as %(email)s.") % {"email": user.email})
        return languages.signed_in(request, user, redirect("home"))
    user = tokens.user_from_sign_in(token, spend=False) if token else None  # looks, spends nothing
    if user is None:
        return _link_refused(request)
    return render(request, "accounts/sign_in_link.html", {"email": user.email, "token": token})


def _link_refused(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "accounts/sign_in.html",
        {
            "form": SignInForm(),
            "refused": _("This sign-in link has expired, was already used, or is not whole. Ask for a new one here."),
        },
        status=403,
    )


@require_POST
def sign_out(request: HttpRequest) -> HttpResponse:
    logout(request)
    return redirect("home")


@login_required
@require_POST
def mail_works(request: HttpRequest) -> HttpResponse:
    """The person says mail reaches their address again: their held game mail starts again."""
    if request.user.mail_refused_at is None:
        messages.info(
            request, _("Mail goes to %(email)s already; nothing was changed.") % {"email": request.user.email}
        )
    else:
        bounces.clear(request.user)
        messages.success(request, _("Thank you: game mail goes to %(email)s again.") % {"email": request.user.email})

    return redirect("home")
