"""Addresses that refuse mail: a permanent refusal marks the address, and game mail to it is held.

A refusal comes from a send (a 5xx "no such mailbox", marked by games.mail) or from an ESP's bounce
webhook (anymail's tracking signal, received here). The person is told on their next visit and may
say their address works again; signing in by a mailed link clears the mark, since it proves mail
arrives. The host sees the mark beside the seat, organisers in the admin.
"""

from __future__ import annotations

import logging

from anymail.signals import tracking
from django.dispatch import receiver
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from .models import User

log = logging.getLogger(__name__)

# anymail's normalised event types that say an address will not take mail
REFUSING_EVENTS = frozenset({"bounced", "rejected"})


def mark_refused(address: str, reason: str) -> int:
    """Mark the person with this address (if any) as refusing mail; returns how many were marked."""
    return User.objects.filter(email=address.strip().lower()).update(
        mail_refused_at=timezone.now(), mail_refused_reason=reason[:300]
    )


def clear(user: User) -> None:
    """The person says (or a sign-in proves) that mail reaches them again."""
    if user.mail_refused_at is not None:
        User.objects.filter(pk=user.pk).update(mail_refused_at=None, mail_refused_reason="")
        user.mail_refused_at, user.mail_refused_reason = None, ""


def refusal_of(address: str) -> str | None:
    """Why mail to this address is held, in words; None if it is not."""
    row = User.objects.filter(email=address.strip().lower(), mail_refused_at__isnull=False).values_list(
        "mail_refused_at", "mail_refused_reason"
    )
    found = row.first()
    return None if found is None else said(*found)


def said(when, reason: str) -> str:
    """'mail to this address was refused for good on 25 Nov 2026 (550 5.1.1 no such mailbox)'."""
    day = date_format(when, "DATE_FORMAT")
    if reason:
        return _("mail to this address was refused for good on %(day)s (%(reason)s)") % {"day": day, "reason": reason}
    return _("mail to this address was refused for good on %(day)s") % {"day": day}


@receiver(tracking, dispatch_uid="accounts.bounces.tracked")
def tracked(sender, event, esp_name: str, **kwargs) -> None:
    """An ESP's bounce or rejection (its tracking webhook, through anymail) marks the address."""
    if event.event_type not in REFUSING_EVENTS or not event.recipient:
        return
    reason = event.mta_response or event.description or event.reject_reason or event.event_type
    marked = mark_refused(str(event.recipient), f"{esp_name}: {reason}"[:300])
    log.info("bounce webhook (%s): %s for a recipient, %d person marked", esp_name, event.event_type, marked)
