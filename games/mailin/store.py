"""Stored replies: each raw message is kept (an InboundMail row) before it is acknowledged, then
handed once to the one reply reader the provider webhook uses (games.inbound.read).

Handling is claimed with a lease, as mail.py claims a send: one short UPDATE marks the row
HANDLING until the lease ends; the reader's writes and the row's HANDLED commit in one transaction,
so a process that dies while handling leaves nothing half done, and the row is handled again once
its lease ends (`handle_leftovers`: the listener on start and each minute, and the mailbox's beat
task). A bug in the reader rolls its writes back, keeps the row and retries it with backoff, then
gives up after MAX_ATTEMPTS; a reply the reader refuses is handled like any other (its result says
why), so nothing is ever answered twice.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from email.parser import BytesHeaderParser
from email.policy import compat32

from anymail.inbound import AnymailInboundMessage
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from .. import inbound
from ..models import InboundMail

log = logging.getLogger(__name__)

LEASE = timedelta(minutes=5)
MAX_ATTEMPTS = 5
LEFTOVERS_AT_ONCE = 100
# headers holding addresses: the standard library's address parser slows down as the square of its
# input, so a message with one longer than inbound.MAX_ADDRESS_FIELD is refused unread
ADDRESS_HEADERS = frozenset(
    {"from", "to", "cc", "bcc", "reply-to", "sender", "return-path", "delivered-to", "x-original-to"}
    | {"resent-from", "resent-to", "resent-cc", "resent-sender"}
)
Status = InboundMail.Status


class LeaseLost(Exception):
    """Handling took longer than the lease and another process claimed the row: roll back ours."""


def headers_of(raw: bytes):
    """The message's headers only, read leniently (compat32: nothing is parsed until asked)."""
    return BytesHeaderParser(policy=compat32).parsebytes(raw[: settings.REPLY_MAIL_MAX_BYTES])


def message_id_of(headers) -> str:
    value = headers.get("Message-ID") or ""
    return " ".join(str(value).split())[:250]


def store(
    raw: bytes,
    source: str,
    envelope_from: str = "",
    envelope_to: list[str] | None = None,
    peer: str = "",
    mailbox_key: str | None = None,
) -> InboundMail:
    """Keep the message as received, before anyone is told it arrived; a copy of one already kept
    (the same Message-ID: a sender that did not hear our 250 sends again) is kept as a DUPLICATE and
    never handled."""
    message_id = message_id_of(headers_of(raw))
    kept = InboundMail.objects.filter(message_id=message_id).exclude(status=Status.DUPLICATE)
    status = Status.DUPLICATE if message_id and kept.exists() else Status.RECEIVED
    return InboundMail.objects.create(
        source=source,
        raw=raw,
        envelope_from=envelope_from[:512],
        envelope_to=[a[:320] for a in (envelope_to or [])][:20],
        peer=peer[:100],
        message_id=message_id,
        mailbox_key=mailbox_key,
        status=status,
        result="duplicate" if status == Status.DUPLICATE else "",
    )


def _claimable(now: datetime) -> Q:
    lease_over = Q(status__in=[Status.HANDLING, Status.FAILED], claimed_until__lt=now)
    return (Q(status=Status.RECEIVED) | lease_over) & Q(attempts__lt=MAX_ATTEMPTS)


def handle(pk: int, now: datetime | None = None) -> str | None:
    """Hand the stored message to the reply reader once; its outcome, or None if it is not ours to
    handle now (handled already, or another process holds its lease)."""
    now = now or timezone.now()
    claimed = (
        InboundMail.objects.filter(pk=pk)
        .filter(_claimable(now))
        .update(status=Status.HANDLING, claimed_until=now + LEASE, attempts=F("attempts") + 1)
    )
    if not claimed:
        return None
    mail = InboundMail.objects.get(pk=pk)
    try:
        with transaction.atomic():
            outcome = read_stored(mail)
            ours = InboundMail.objects.filter(pk=pk, status=Status.HANDLING, claimed_until=now + LEASE)
            if not ours.update(
                status=Status.HANDLED, result=outcome[:40], handled_at=timezone.now(), claimed_until=None, last_error=""
            ):
                raise LeaseLost  # our lease ran out and another process took the row: its handling counts
    except LeaseLost:
        log.warning("inbound mail %s: lease lost while handling; left to the process that took it", pk)
        return None
    except Exception as e:  # noqa: BLE001 - a bug of ours: nothing of it was kept; the row is tried again later
        gave_up = mail.attempts >= MAX_ATTEMPTS
        log.exception("inbound mail %s: the reader failed (%s)%s", pk, type(e).__name__, "; gave up" if gave_up else "")
        InboundMail.objects.filter(pk=pk).update(
            status=Status.GAVE_UP if gave_up else Status.FAILED,
            last_error=f"{type(e).__name__}: {e}"[:200],
            claimed_until=timezone.now() + timedelta(minutes=2**mail.attempts),
        )
        return "failed"
    log.info("inbound mail %s (%s) handled: %s", pk, mail.source, outcome)
    return outcome


def read_stored(mail: InboundMail) -> str:
    """The stored message, parsed as the webhook's is, with its envelope, through inbound.read."""
    message = message_of(mail)
    if message is None:
        return "malformed"
    try:
        with transaction.atomic():
            return inbound.read(message)
    except RecursionError:  # MIME parts nested deeper than Python walks: no mail program writes that
        log.info("inbound mail %s ignored: parts nested too deep", mail.pk)
        return "malformed"


def message_of(mail: InboundMail) -> AnymailInboundMessage | None:
    """The stored message as anymail's inbound message, its envelope set; None if it cannot be read."""
    raw = bytes(mail.raw)
    try:
        headers = headers_of(raw).items()
        if any(name.lower() in ADDRESS_HEADERS and len(value) > inbound.MAX_ADDRESS_FIELD for name, value in headers):
            log.info(
                "inbound mail %s ignored: an address header over %d characters", mail.pk, inbound.MAX_ADDRESS_FIELD
            )
            return None
        message = AnymailInboundMessage.parse_raw_mime_bytes(raw)
    except (*inbound.MALFORMED, RecursionError) as e:
        log.info("inbound mail %s ignored: unreadable (%s)", mail.pk, type(e).__name__)
        return None
    # "<>" is the null sender of bounces (never answered); "" means the sender is not known
    message.envelope_sender = mail.envelope_from if mail.envelope_from else None
    message.envelope_recipient = ", ".join(mail.envelope_to) or None
    return message


def handle_leftovers(now: datetime | None = None) -> int:
    """Handle what was stored and not handled (a process died after storing, or a retry is due)."""
    now = now or timezone.now()
    pks = list(
        InboundMail.objects.filter(_claimable(now)).order_by("pk").values_list("pk", flat=True)[:LEFTOVERS_AT_ONCE]
    )
    return sum(handle(pk, now) is not None for pk in pks)


def purge(now: datetime | None = None) -> int:
    """Forget handled messages after REPLY_MAIL_KEEP_DAYS (they hold people's mail); never one still in the inbox."""
    now = now or timezone.now()
    done = InboundMail.objects.filter(
        status__in=[Status.HANDLED, Status.DUPLICATE, Status.GAVE_UP],
        received_at__lt=now - timedelta(days=settings.REPLY_MAIL_KEEP_DAYS),
    ).filter(Q(source=InboundMail.Source.SMTP) | Q(moved_at__isnull=False))
    return done.delete()[0]
