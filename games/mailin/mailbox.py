"""Replies read from an ordinary IMAP mailbox (REPLY_IMAP_URL), with imap-tools.

The reply addresses are plus-addresses of the mailbox (`turns+<token>@example.org`), so any mailbox
whose provider delivers plus-addresses to it works. Each poll reads at most the URL's `batch` of
messages from its folder, and for each: store (an InboundMail row keyed by the mailbox, its
UIDVALIDITY and the UID, and known again by its Message-ID), handle (games.mailin.store.handle: the
one reply reader), then move it to the processed folder. A worker that dies between any two steps
loses nothing and answers nothing twice: a message stored and not handled is handled at the next
poll; one handled and not moved is recognised by its key (or Message-ID) and only moved. A message
over REPLY_MAIL_MAX_BYTES is kept as its headers only (at most that many bytes), marked too large, and
moved; a poll that keeps meeting failures moves them once they are given up (store.MAX_ATTEMPTS).
"""

from __future__ import annotations

import imaplib
import logging
from dataclasses import asdict, dataclass

from django.conf import settings
from django.db import IntegrityError
from django.utils import timezone
from imap_tools import BaseMailBox, MailBox, MailBoxStartTls, MailBoxUnencrypted, MailMessage
from imap_tools.errors import ImapToolsError

from ..models import InboundMail
from . import store
from .addresses import Mailbox, parse_mailbox_url

log = logging.getLogger(__name__)

TIMEOUT = 30  # seconds for any one IMAP exchange: a hung server holds a poll up no longer
DONE = (InboundMail.Status.HANDLED, InboundMail.Status.DUPLICATE, InboundMail.Status.GAVE_UP)
Status = InboundMail.Status
# what an IMAP server that refuses (a wrong password, a missing folder) raises; OSError covers the network
IMAP_ERRORS = (ImapToolsError, imaplib.IMAP4.error)


class RawMessage(MailMessage):
    """imap-tools' message, keeping the bytes as the server sent them (they are what is stored)."""

    def __init__(self, fetch_data: list) -> None:
        super().__init__(fetch_data)
        self.raw: bytes = self._get_message_data_parts(fetch_data)[0]


@dataclass
class Poll:
    read: int = 0
    stored: int = 0
    handled: int = 0
    moved: int = 0
    too_large: int = 0
    left: int = 0  # kept in the inbox for a later poll (a retry not due yet)


def configured() -> Mailbox | None:
    return parse_mailbox_url(settings.REPLY_IMAP_URL) if settings.REPLY_IMAP_URL else None


def connect(box: Mailbox) -> BaseMailBox:
    if box.scheme == "imaps":
        client: BaseMailBox = MailBox(box.host, box.port, timeout=TIMEOUT)
    elif box.scheme == "imap+starttls":
        client = MailBoxStartTls(box.host, box.port, timeout=TIMEOUT)
    else:
        client = MailBoxUnencrypted(box.host, box.port, timeout=TIMEOUT)
    client.email_message_class = RawMessage
    return client.login(box.user, box.password, initial_folder=box.folder)


def poll(box: Mailbox) -> dict[str, int]:
    """Read one batch of the mailbox: store, handle, move each message. Counts of what was done."""
    done = Poll()
    with connect(box) as client:
        if not client.folder.exists(box.processed):
            client.folder.create(box.processed)
        uidvalidity = client.folder.status(box.folder, ["UIDVALIDITY"])["UIDVALIDITY"]
        for uid in client.uids("ALL")[: box.batch]:
            done.read += 1
            _one(client, box, f"{box.key}:{uidvalidity}:{uid}", uid, done)
    return asdict(done)


def _one(client: BaseMailBox, box: Mailbox, key: str, uid: str, done: Poll) -> None:
    mail = InboundMail.objects.filter(mailbox_key=key).first()
    if mail is None:
        head = _fetch(client, uid, headers_only=True)
        if head is None:  # gone since the search (another poller moved it)
            return
        message_id = store.message_id_of(store.headers_of(head.raw))
        known = InboundMail.objects.exclude(status=Status.DUPLICATE)
        mail = known.filter(message_id=message_id).first() if message_id else None
        if mail is None:
            mail = _store(client, box, key, uid, head, done)
            if mail is None:
                return
    if mail.status not in DONE:
        if store.handle(mail.pk) is not None:
            done.handled += 1
        mail.refresh_from_db()
    if mail.status not in DONE:
        done.left += 1  # a failure waiting for its retry, or another process handling it now
        return
    client.move([uid], box.processed)
    InboundMail.objects.filter(pk=mail.pk, moved_at__isnull=True).update(moved_at=timezone.now())
    done.moved += 1


def _store(client: BaseMailBox, box: Mailbox, key: str, uid: str, head: RawMessage, done: Poll) -> InboundMail | None:
    limit = settings.REPLY_MAIL_MAX_BYTES
    too_large = head.size_rfc822 > limit
    full = head if too_large else _fetch(client, uid, headers_only=False)
    if full is None:
        return None
    too_large = too_large or len(full.raw) > limit  # a server that did not say its size
    raw = full.raw[:limit] if too_large else full.raw
    headers = store.headers_of(raw)
    try:
        mail = store.store(
            raw,
            InboundMail.Source.IMAP,
            _return_path(headers.get_all("Return-Path") or []),
            [str(v) for name in ("Delivered-To", "X-Original-To") for v in headers.get_all(name) or []],
            box.address,
            mailbox_key=key,
        )
    except IntegrityError:  # another poller stored it a moment ago
        return InboundMail.objects.filter(mailbox_key=key).first()
    done.stored += 1
    if too_large:
        log.warning("reply mailbox: message %s over %d bytes kept as its headers only", mail.pk, limit)
        InboundMail.objects.filter(pk=mail.pk).update(
            status=Status.HANDLED, result="too_large", handled_at=timezone.now()
        )
        mail.refresh_from_db()
        done.too_large += 1
    return mail


def _fetch(client: BaseMailBox, uid: str, headers_only: bool) -> RawMessage | None:
    return next(iter(client.fetch(uid_list=[uid], headers_only=headers_only, mark_seen=False)), None)


def _return_path(values: list) -> str:
    """The envelope sender the delivering server wrote: "<>" for a bounce, "" when not said."""
    if not values:
        return ""
    value = " ".join(str(values[-1]).split())
    return "<>" if value in ("<>", "") else value.strip("<>")[:320]


def run() -> dict[str, int]:
    """The beat task's work: what was stored and not handled, then one batch of the mailbox."""
    counts = {"leftovers": store.handle_leftovers(), "purged": store.purge()}
    box = configured()
    if box is not None:
        counts.update(poll(box))
    return counts
