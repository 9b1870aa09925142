"""A person's private calendar feed of their deadlines, and a new address for it from the profile.

The feed answers calendar apps, which poll it without a session: the address itself is the key
(accounts.tokens), and a bad, damaged or replaced one gets a 404 that says so. Two queries: the
person, then their seats (games.calendar_feed).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import get_conditional_response
from django.utils.crypto import constant_time_compare
from django.utils.http import http_date, quote_etag
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from accounts import actions, tokens
from games import calendar_feed

MAX_TOKEN = 200  # a genuine address's token is under 80 characters
MAX_AGE = 300  # seconds a calendar app may keep the feed before asking again (it asks cheaply: 304)
NOT_FOUND = gettext_lazy(
    "This calendar address does not work: it may have been cut short when it was copied, or replaced "
    "by a newer one. The address that works is on your profile, under Calendar feed."
)


@require_safe
def feed(request: HttpRequest, token: str) -> HttpResponse:
    user = _owner(token)
    if user is None:
        refused = HttpResponseNotFound(str(NOT_FOUND), content_type="text/plain; charset=utf-8")
        refused["Cache-Control"] = "private, no-cache"
        return refused
    found = calendar_feed.feed_for(user.pk, timezone.now())
    response = HttpResponse(found.body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="deadlines.ics"'
    response["Cache-Control"] = f"private, max-age={MAX_AGE}"
    response["ETag"] = quote_etag(found.etag)
    response["Last-Modified"] = http_date(found.last_modified.timestamp())
    response["X-Robots-Tag"] = "noindex"
    return get_conditional_response(
        request, etag=response["ETag"], last_modified=int(found.last_modified.timestamp()), response=response
    )


def _owner(token: str):
    """The active person a feed address names, while its nonce is still theirs; else None."""
    if len(token) > MAX_TOKEN:
        return None
    try:
        user_pk, nonce = tokens.read_calendar_token(token)
    except tokens.BadToken:
        return None
    if type(user_pk) is not int or not isinstance(nonce, str):
        return None
    user = get_user_model().objects.filter(pk=user_pk, is_active=True).only("pk", "calendar_nonce").first()
    if user is None or not constant_time_compare(user.calendar_nonce, nonce):
        return None
    return user


@login_required
@require_POST
def new_address(request: HttpRequest) -> HttpResponse:
    """Replace the feed's address: the old one opens nothing from now on."""
    actions.new_calendar_address(request.user)
    messages.success(
        request,
        _(
            "Your calendar feed has a new address (below). The old one no longer works: "
            "give the new one to your calendar app."
        ),
    )
    return redirect(reverse("profile") + "#calendar")
