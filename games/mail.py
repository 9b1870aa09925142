"""Sending outbox rows through Django's email API, and the embedded local mailbox backend."""

from __future__ import annotations

from datetime import timedelta

from django.core.mail import EmailMultiAlternatives
from django.core.mail.backends.base import BaseEmailBackend
from django.db import transaction
from django.utils import timezone

from . import notify
from .models import DeliveredMail, Notification

# 30 s doubling to a cap of 32 min: about 30 hours of tries before a row is given up.
MAX_ATTEMPTS = 60


def backoff_seconds(attempts: int) -> int:
    """30 s, 1 min, 2 min ... 32 min between tries: an ESP outage of hours still loses nothing."""
    return 30 * 2 ** min(max(attempts - 1, 0), 6)


class LocalMailboxBackend(BaseEmailBackend):
    """Delivers into the DeliveredMail table, which the organiser reads at /outbox/."""

    def send_messages(self, email_messages) -> int:
        for m in email_messages:
            html = next((c for c, mime in getattr(m, "alternatives", []) if mime == "text/html"), "")
            headers = dict(m.extra_headers)
            if m.reply_to:
                headers["Reply-To"] = ", ".join(m.reply_to)
            DeliveredMail.objects.create(
                to=", ".join(m.to), subject=m.subject, body_text=m.body, body_html=html, headers=headers
            )
        return len(email_messages)


def send(notification_id: int) -> str:
    """Send one row if it is still unsent; returns its status. Safe to call twice: a row is sent once."""
    with transaction.atomic():
        note = Notification.objects.select_for_update().filter(pk=notification_id).first()
        if note is None or note.status in (Notification.Status.SENT, Notification.Status.GAVE_UP):
            return note.status if note else "missing"
        if not note.body_text:
            # rendered once, from the context frozen when the row was written; kept for the admin
            notify.finish(note)
            note.context = {}
            note.save(update_fields=["body_text", "body_html", "headers", "ics", "context"])
        headers = {"X-Cafe-Notification": str(note.pk), **note.headers}
        reply_to = headers.pop("Reply-To", None)
        msg = EmailMultiAlternatives(
            subject=note.subject,
            body=note.body_text,
            to=[note.recipient],
            reply_to=[reply_to] if reply_to else None,
            headers=headers,
        )
        if note.body_html:
            msg.attach_alternative(note.body_html, "text/html")
        if note.ics:
            msg.attach("deadline.ics", note.ics, "text/calendar; method=PUBLISH")
        note.attempts += 1
        try:
            msg.send()
        except Exception as e:  # noqa: BLE001 - any ESP or SMTP failure is recorded and retried
            note.status = Notification.Status.GAVE_UP if note.attempts >= MAX_ATTEMPTS else Notification.Status.FAILED
            note.last_error = f"{type(e).__name__}: {e}"[:2000]
            note.next_attempt_at = timezone.now() + timedelta(seconds=backoff_seconds(note.attempts))
            note.save(update_fields=["status", "attempts", "last_error", "next_attempt_at"])
            return note.status
        note.status = Notification.Status.SENT
        note.sent_at = timezone.now()
        note.last_error = ""
        status = getattr(msg, "anymail_status", None)
        message_id = getattr(status, "message_id", None) if status else None
        note.message_id = "" if message_id is None else str(message_id)[:200]
        note.save(update_fields=["status", "attempts", "last_error", "sent_at", "message_id"])
        return note.status
