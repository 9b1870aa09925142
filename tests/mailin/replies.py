"""Replies as mail programs send them: raw MIME messages, and ways to send them to the service."""

from __future__ import annotations

import smtplib
import uuid
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.policy import SMTP
from email.utils import formatdate

ANA, BEN = "ana@example.com", "ben@example.com"


def reply_mime(
    to: str,
    sender: str,
    text: str = "",
    html: str = "",
    headers: tuple[tuple[str, str], ...] = (),
    message_id: str | None = None,
) -> bytes:
    """A reply as a mail program sends it: the text part, the HTML part, or both (alternatives),
    each in UTF-8 exactly as written (its own line endings kept)."""
    parts = [MIMEText(body, subtype, "utf-8") for body, subtype in ((text, "plain"), (html, "html")) if body]
    if not parts:
        parts = [MIMEText("", "plain", "utf-8")]
    if len(parts) == 1:
        message = parts[0]
    else:
        message = MIMEMultipart("alternative")
        for part in parts:
            message.attach(part)
    message["From"] = sender
    message["To"] = to
    message["Subject"] = "Re: Your move in Test table"
    message["Date"] = formatdate(1778000000)
    message["Message-ID"] = message_id or f"<{uuid.uuid4()}@mail.example.com>"
    for name, value in headers:
        message[name] = value
    return message.as_bytes(policy=SMTP)  # CRLF line endings, as mail servers send and deliver it


def send_smtp(port: int, raw: bytes, to: str | list[str], mail_from: str = ANA) -> dict:
    """Hand a message to the listener as a sending mail server would; refusals raise smtplib's errors."""
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
        return client.sendmail(mail_from, [to] if isinstance(to, str) else to, raw)
