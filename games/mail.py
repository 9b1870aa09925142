"""Sending outbox rows through Django's email API, and the embedded local mailbox backend.

A send is at least once: a row is claimed (SENDING, with a lease) in one short transaction, sent
with no transaction open (a slow mail server holds no lock, on SQLite no write lock for everyone),
and marked sent right after. A worker that dies between the two leaves the row SENDING; once its
lease ends the sweep sends it again, with the same Message-ID, so a mail server or client that has
the first copy can drop the second.

Failures are temporary (retried with backoff, about 30 hours in all) or permanent (a 5xx refusal
of the recipient, an ESP's rejection): a permanent one is not retried, and a refused recipient's
address is marked as refusing mail (accounts.bounces), which holds their game mail until they say
it works again.
"""

from __future__ import annotations

import hashlib
import smtplib
from dataclasses import dataclass
from datetime import timedelta

from anymail.exceptions import AnymailAPIError, AnymailRecipientsRefused
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.core.mail.backends.base import BaseEmailBackend
from django.db import transaction
from django.utils import timezone

from accounts import bounces

from . import notify
from .models import DeliveredMail, Notification

# 30 s doubling to a cap of 32 min: about 30 hours of tries before a row is given up.
MAX_ATTEMPTS = 60
# Mail a person asks for by typing their address is sent even to an address marked as refusing:
# they say it works, and signing in by the link proves it.
ASKED_FOR = frozenset({Notification.Kind.SIGN_IN, Notification.Kind.JOIN})


def backoff_seconds(attempts: int) -> int:
    """30 s, 1 min, 2 min ... 32 min between tries: an ESP outage of hours still loses nothing."""
    return 30 * 2 ** min(max(attempts - 1, 0), 6)


def lease_seconds() -> int:
    """How long a claimed row is left to its sender before the sweep sends it again: a send that
    times out on every step of the SMTP dialogue still ends well within it."""
    return int(settings.MAIL_TIMEOUT * 8) + 60


def message_id(note: Notification) -> str:
    """The row's Message-ID, the same on every try: a repeat after a crash can be dropped by it."""
    domain = settings.DEFAULT_FROM_EMAIL.rsplit("@", 1)[-1].strip(" >") or "localhost"
    stamp = note.created_at.isoformat() if note.created_at else ""
    digest = hashlib.sha256(f"{note.pk}:{stamp}:{settings.SECRET_KEY}".encode()).hexdigest()[:16]
    return f"<cafe-turns.{note.pk}.{digest}@{domain}>"


@dataclass(frozen=True)
class Failure:
    """Why a send failed, and whether trying again can help."""

    reason: str
    permanent: bool = False
    refused_address: bool = False  # the recipient's server said this mailbox does not take mail
    unreachable: bool = False  # no answer at all: the next rows of a batch would only wait as long


def _smtp_text(code: int, text: bytes | str) -> str:
    body = text.decode(errors="replace") if isinstance(text, bytes) else str(text)
    return f"{code} {body}".strip()[:300]


def _said(error: BaseException) -> str:
    """An error's words; an exception whose own __str__ fails is still told by its arguments."""
    try:
        return str(error)
    except Exception:  # noqa: BLE001 - e.g. an ESP error without the response its __str__ reads
        return " ".join(str(a) for a in error.args)


def classify(error: BaseException) -> Failure:
    """Permanent: the recipient refused with a 5xx (no such mailbox), or an ESP rejected the message
    itself. Everything else (timeouts, refused connections, 4xx, our own sender or login refused,
    which an operator fixes) is temporary and keeps its backoff."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _ in error.recipients.values()]
        text = "; ".join(_smtp_text(c, t) for c, t in error.recipients.values())
        if codes and all(500 <= code < 600 for code in codes):
            return Failure(f"refused by the recipient's mail server: {text}", permanent=True, refused_address=True)
        return Failure(f"recipient deferred: {text}")
    if isinstance(error, smtplib.SMTPDataError) and 500 <= error.smtp_code < 600:
        text = _smtp_text(error.smtp_code, error.smtp_error)
        mailbox = text[4:9].startswith(("5.1.", "5.2.1"))  # enhanced codes for a bad or disabled mailbox
        return Failure(f"message refused: {text}", permanent=True, refused_address=mailbox)
    if isinstance(error, AnymailRecipientsRefused):
        return Failure(f"refused by the ESP: {_said(error)}"[:300], permanent=True, refused_address=True)
    if isinstance(error, AnymailAPIError):
        status = getattr(error, "status_code", None)
        if status is not None and 400 <= status < 500 and status not in (401, 403, 408, 429):
            return Failure(f"refused by the ESP ({status}): {_said(error)}"[:300], permanent=True)
    # smtplib reports a greeting that never came as a disconnection "timed out"
    if isinstance(error, TimeoutError) or (
        isinstance(error, smtplib.SMTPServerDisconnected) and "timed out" in _said(error)
    ):
        return Failure(f"the mail server did not answer in {settings.MAIL_TIMEOUT:g} s", unreachable=True)
    unreachable = isinstance(error, (ConnectionError, smtplib.SMTPServerDisconnected, smtplib.SMTPConnectError))
    return Failure(f"{type(error).__name__}: {_said(error)}"[:300], unreachable=unreachable)


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


def _claim(notification_id: int) -> Notification | str:
    """The row, claimed for one send (SENDING, attempts counted, a lease); or why it is not sent now."""
    now = timezone.now()
    with transaction.atomic():
        note = Notification.objects.select_for_update().filter(pk=notification_id).first()
        if note is None:
            return "missing"
        if note.status in (Notification.Status.SENT, Notification.Status.GAVE_UP):
            return note.status
        if note.status == Notification.Status.SENDING and note.next_attempt_at and note.next_attempt_at > now:
            return note.status  # another sender holds it
        if not note.body_text:
            # rendered once, from the context frozen when the row was written; kept for the admin
            notify.finish(note)
            note.context = {}
        refused = None if note.kind in ASKED_FOR else bounces.refusal_of(note.recipient)
        if refused is not None:
            note.status = Notification.Status.GAVE_UP
            note.last_error = f"Not sent: {refused}"[:2000]
            note.next_attempt_at = None
        else:
            note.status = Notification.Status.SENDING
            note.attempts += 1
            note.next_attempt_at = now + timedelta(seconds=lease_seconds())
        note.save(
            update_fields=[
                "body_text",
                "body_html",
                "headers",
                "ics",
                "context",
                "status",
                "attempts",
                "last_error",
                "next_attempt_at",
            ]
        )
        return note if refused is None else note.status


def _message(note: Notification) -> EmailMultiAlternatives:
    headers = {"X-Cafe-Notification": str(note.pk), **note.headers, "Message-ID": message_id(note)}
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
    return msg


def send(notification_id: int) -> str:
    """Send one row if it is still unsent; returns its status. Safe to call twice: a row is sent once
    (or, after a crash between sending and recording, again with the same Message-ID)."""
    return _send(notification_id)[0]


def _send(notification_id: int) -> tuple[str, Failure | None]:
    note = _claim(notification_id)
    if isinstance(note, str):
        return note, None
    msg = _message(note)
    try:
        msg.send()
    except Exception as e:  # noqa: BLE001 - any ESP or SMTP failure is recorded and classified
        failure = classify(e)
        return _failed(note, failure), failure
    status = getattr(msg, "anymail_status", None)
    esp_id = getattr(status, "message_id", None) if status else None
    Notification.objects.filter(pk=note.pk, attempts=note.attempts).update(
        status=Notification.Status.SENT,
        sent_at=timezone.now(),
        last_error="",
        next_attempt_at=None,
        message_id=str(esp_id)[:200] if esp_id else message_id(note),
    )
    return Notification.Status.SENT, None


def _failed(note: Notification, failure: Failure) -> str:
    gave_up = failure.permanent or note.attempts >= MAX_ATTEMPTS
    status = Notification.Status.GAVE_UP if gave_up else Notification.Status.FAILED
    Notification.objects.filter(pk=note.pk, attempts=note.attempts).update(
        status=status,
        last_error=failure.reason[:2000],
        next_attempt_at=None if gave_up else timezone.now() + timedelta(seconds=backoff_seconds(note.attempts)),
    )
    if failure.refused_address:
        bounces.mark_refused(note.recipient, failure.reason)
    return status


def send_many(notification_ids: list[int]) -> int:
    """Send rows in turn; stop at the first that could not reach the mail server at all, so a hung
    or unreachable server costs one timeout per batch, not one per row (the rest wait for the sweep)."""
    sent = 0
    for pk in notification_ids:
        status, failure = _send(pk)
        sent += status == Notification.Status.SENT
        if failure is not None and failure.unreachable:
            break
    return sent
