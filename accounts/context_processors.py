"""What every page tells a signed-in person about their account."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse

from . import bounces


def mail_refused(request: HttpRequest) -> dict[str, str]:
    """A signed-in person whose address refuses mail is told at once, with a way to say it works
    again (seat pages say the same to a seat's player who is not signed in)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or user.mail_refused_at is None:
        return {}
    return {
        "mail_refused": bounces.said(user.mail_refused_at, user.mail_refused_reason),
        "mail_refused_address": user.email,
        "mail_refused_action": reverse("mail-works"),
    }
