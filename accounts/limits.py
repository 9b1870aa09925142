"""Rate limits on what anyone may ask without signing in (django-ratelimit, in the shared cache)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django_ratelimit.core import is_ratelimited

# Mail anyone may make the service send to a typed address (sign-in links, join confirmations):
# per address, a few an hour is plenty for a person and caps mail to someone else's inbox; per
# client, one machine asking for many addresses.
MAIL_PER_ADDRESS = "5/h"
MAIL_PER_CLIENT = "20/h"


def client_ip(request: HttpRequest) -> str:
    """The client's address: behind the proxy (BEHIND_PROXY), the one the proxy appended last."""
    if settings.BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        last = forwarded.split(",")[-1].strip()
        if last:
            return last[:64]
    return request.META.get("REMOTE_ADDR") or "unknown"


def mail_request_limited(request: HttpRequest, address: str) -> bool:
    """Count a request that mails `address` against both limits; True when either is used up."""
    by_address = is_ratelimited(
        request, group="mail:address", key=lambda _g, _r: address, rate=MAIL_PER_ADDRESS, increment=True
    )
    by_client = is_ratelimited(
        request, group="mail:client", key=lambda _g, r: client_ip(r), rate=MAIL_PER_CLIENT, increment=True
    )
    return by_address or by_client
