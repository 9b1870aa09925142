"""Email's own part of sending (games.channels.email is the channel; games.channels.outbox the
send loop every channel shares): a row as Django's email message, with a stable Message-ID, and
how its failures read, and the embedded local mailbox backend.

Failures are temporary (retried with backoff, about 30 hours in all) or permanent (a 5xx refusal
of the recipient, an ESP's rejection): a permanent one is not retried, and a refused recipient's
address is marked as refusing mail (accounts.bounces), which holds their game mail until they say
it works again.
"""

from __future__ import annotations

import smtplib
from dataclasses import dataclass

from anymail.exceptions import AnymailAPIError, AnymailRecipientsRefused
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.core.mail.backends.base import BaseEmailBackend

from .channels.ping import idempotency_key
from .models import DeliveredMail, Notification

# the row's idempotency key, the same on every try of every channel
message_id = idempotency_key


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


def message(note: Notification) -> EmailMultiAlternatives:
    """The row, rendered already, as the email Django's mail API sends."""
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
