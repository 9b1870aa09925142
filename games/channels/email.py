"""Email as a channel: a row rendered by games.notify and sent through Django's email API
(games.mail builds the message and classifies its failures)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy

from accounts import bounces
from games import mail
from games.models import Notification

from .base import Channel, ChannelError

# Mail a person asks for by typing their address is sent even to an address marked as refusing:
# they say it works, and signing in by the link proves it.
ASKED_FOR = frozenset({Notification.Kind.SIGN_IN, Notification.Kind.JOIN})


class MailFailed(ChannelError):
    """An email that failed; `refused_address`: the recipient's server said the mailbox takes no mail."""

    def __init__(self, failure: mail.Failure) -> None:
        super().__init__(failure.reason, permanent=failure.permanent, unreachable=failure.unreachable)
        self.reason = failure.reason[:2000]
        self.refused_address = failure.refused_address


class EmailChannel(Channel):
    kind = "email"
    label = gettext_lazy("Email")

    def prepare(self, note: Notification) -> str | None:
        refused = None if note.kind in ASKED_FOR else bounces.refusal_of(note.recipient)
        return f"Not sent: {refused}" if refused is not None else None

    def deliver(self, note: Notification, target: Any) -> str:
        msg = mail.message(note)
        try:
            msg.send()
        except Exception as e:  # noqa: BLE001 - any ESP or SMTP failure is recorded and classified
            raise MailFailed(mail.classify(e)) from e
        status = getattr(msg, "anymail_status", None)
        esp_id = getattr(status, "message_id", None) if status else None
        return str(esp_id)[:200] if esp_id else ""

    def gave_up(self, note: Notification, target: Any, error: ChannelError) -> None:
        if getattr(error, "refused_address", False):
            bounces.mark_refused(note.recipient, error.reason)
