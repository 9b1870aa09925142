"""The embedded outbox: what the local mail backend 'delivered' (the host pages are in host.py).

Organisers read every message. Anyone else signed in reads the mail sent to their own address and
nothing else, so a newcomer trying the site on one machine can open their own links. Someone not
signed in is told where their sign-in mail is, and shown none: a sign-in link is a key to an account.
"""

from __future__ import annotations

from email.utils import getaddresses

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.clickjacking import xframe_options_sameorigin

from games.models import DeliveredMail

LOCAL_BACKEND = "games.mail.LocalMailboxBackend"
SHOWN = 200  # the newest messages a list shows
LOOKED_AT = 1000  # messages naming the address somewhere, read to find those sent to it


def local_outbox() -> bool:
    """True on the embedded default, where mail is kept here instead of being sent."""
    return settings.MAILERS.get("default", {}).get("BACKEND") == LOCAL_BACKEND


def recipients(mail: DeliveredMail) -> set[str]:
    """The addresses a delivered message went to, lower-cased (its `to` joins them with commas)."""
    return {address.strip().lower() for _, address in getaddresses([mail.to]) if address.strip()}


def mine(request: HttpRequest, mail: DeliveredMail) -> bool:
    """Whether this person may read this message: an organiser any, anyone else only their own."""
    user = request.user
    return user.is_staff or (bool(user.email) and user.email.lower() in recipients(mail))


def own_mail(email: str) -> list[DeliveredMail]:
    """The newest messages sent to this address (and to no lookalike: "hana@" is not "ana@")."""
    address = email.lower()
    found = DeliveredMail.objects.filter(to__icontains=address)[:LOOKED_AT]
    return [m for m in found if address in recipients(m)][:SHOWN]


@never_cache
def outbox(request: HttpRequest) -> HttpResponse:
    """The embedded mailbox: an organiser's whole of it, anyone else's own part, and for someone not
    signed in where their mail is."""
    user = request.user
    if not user.is_authenticated:
        if not local_outbox():
            return redirect_to_login(request.get_full_path())
        return render(request, "games/outbox.html", {"visitor": True})
    mails = DeliveredMail.objects.all()[:SHOWN] if user.is_staff else own_mail(user.email)
    return render(request, "games/outbox.html", {"mails": mails, "whole": user.is_staff, "local": local_outbox()})


def _readable(request: HttpRequest, pk: int) -> DeliveredMail:
    """A message this person may read; any other (someone else's, or none) is not found, alike."""
    if not request.user.is_authenticated:
        raise Http404(_("No such message."))
    mail = get_object_or_404(DeliveredMail, pk=pk)
    if not mine(request, mail):
        raise Http404(_("No such message."))
    return mail


@never_cache
def outbox_mail(request: HttpRequest, pk: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return render(request, "games/outbox_mail.html", {"mail": _readable(request, pk)})


@xframe_options_sameorigin  # the outbox's own page frames it; every other page stays unframeable
@never_cache
def outbox_html(request: HttpRequest, pk: int) -> HttpResponse:
    """A delivered email's HTML part, for the outbox page's sandboxed frame: no script, nothing fetched."""
    mail = _readable(request, pk)
    resp = HttpResponse(mail.body_html or format_html("<p>{}</p>", _("(no HTML part)")))

    resp["Content-Security-Policy"] = (
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'; "
        "sandbox allow-popups allow-top-navigation-by-user-activation"
    )
    return resp
