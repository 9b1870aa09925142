"""The embedded outbox, for organisers: what the local mail backend 'delivered' (the host pages are
in host.py)."""

from __future__ import annotations

from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.clickjacking import xframe_options_sameorigin

from games.models import DeliveredMail


@staff_member_required
def outbox(request: HttpRequest) -> HttpResponse:
    """The embedded mailbox: what the local mail backend 'delivered'."""
    return render(request, "games/outbox.html", {"mails": DeliveredMail.objects.all()[:200]})


@staff_member_required
def outbox_mail(request: HttpRequest, pk: int) -> HttpResponse:
    mail = get_object_or_404(DeliveredMail, pk=pk)
    return render(request, "games/outbox_mail.html", {"mail": mail})


@xframe_options_sameorigin  # the outbox's own page frames it; every other page stays unframeable
@staff_member_required
def outbox_html(request: HttpRequest, pk: int) -> HttpResponse:
    """A delivered email's HTML part, for the outbox page's sandboxed frame: no script, nothing fetched."""
    mail = get_object_or_404(DeliveredMail, pk=pk)
    resp = HttpResponse(mail.body_html or "<p>(no HTML part)</p>")
    resp["Content-Security-Policy"] = (
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'; "
        "sandbox allow-popups allow-top-navigation-by-user-activation"
    )
    return resp
