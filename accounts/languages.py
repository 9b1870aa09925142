"""Which language a person reads: their profile's, else what their browser asks for, else the site's.

Django's LocaleMiddleware reads the choice kept in a cookie (by the switcher, and at sign-in from the
profile) and else Accept-Language, bounded and parsed by Django itself (a forged, unknown or huge
header falls back to LANGUAGE_CODE, never an error). A seat page reads in its player's profile
language. A profile with no language yet takes the one the browser asked for, once (at sign-in or on
a seat page), so mail and pings (which have no browser) go out in it too.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

CODES = frozenset(code for code, _ in settings.LANGUAGES)


def valid(code: object) -> str | None:
    """`code` if it is one of ours (exactly, as a profile or a form stores it), else None."""
    return code if isinstance(code, str) and code in CODES else None


def for_user(user) -> str:
    """The language to write to `user` in (mail, pings, a seat page opened from a link)."""
    return valid(getattr(user, "language", None)) or settings.LANGUAGE_CODE


def remember(user, code: str) -> None:
    """A person who has not chosen a language gets the one their browser asked for."""
    if user is not None and getattr(user, "pk", None) and not user.language and valid(code):
        user.language = code
        get_user_model().objects.filter(pk=user.pk, language="").update(language=code)


def keep(request: HttpRequest, response: HttpResponse, code: str) -> HttpResponse:
    """The language cookie Django's LocaleMiddleware reads on every request, at no query's cost: set
    by the switcher and, at sign-in, from the profile."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=365 * 24 * 3600,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        secure=request.is_secure(),
    )
    return response


def signed_in(request: HttpRequest, user, response: HttpResponse) -> HttpResponse:
    """At sign-in: the profile's language from now on in this browser; a profile without one takes
    the browser's (mail goes out in it until they choose)."""
    chosen = valid(user.language)
    if chosen:
        translation.activate(chosen)
        return keep(request, response, chosen)
    remember(user, translation.get_language())
    return response


def as_player(request: HttpRequest, player) -> None:
    """A page opened by a player's own link (a seat, its settings) reads in the player's language; a
    player who has not chosen one gets the browser's, which their mail then uses too. Someone else
    signed in keeps their own."""
    if player is None:
        return
    if request.user.is_authenticated and request.user.pk != player.pk:
        return
    chosen = valid(player.language)
    if chosen:
        translation.activate(chosen)
        request.LANGUAGE_CODE = chosen
    else:
        remember(player, translation.get_language())


@require_POST
def choose(request: HttpRequest) -> HttpResponse:
    """The switcher: any visitor's choice is kept in a cookie; a signed-in person's in their profile
    too. A code we do not have changes nothing; `next` is followed only on this site."""
    code = valid(request.POST.get("language"))
    target = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    response = HttpResponseRedirect(target)
    if code:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            get_user_model().objects.filter(pk=user.pk).update(language=code)
        keep(request, response, code)
    return response
