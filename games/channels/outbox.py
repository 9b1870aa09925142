"""The outbox every channel shares: claim a row, hand it to its channel, record what happened.

A send is at least once: a row is claimed (SENDING, with a lease) in one short transaction, sent
with no transaction open (a slow mail server or webhook holds no lock, on SQLite no write lock for
everyone), and marked sent right after. A worker that dies between the two leaves the row SENDING;
once its lease ends the sweep sends it again, with the same idempotency key (the row's
Message-ID), so a far end that has the first copy can drop the second.

Failures are temporary (retried with backoff, about 30 hours in all) or permanent (a ChannelError
that says so: a refused mailbox, a deleted webhook, a gone push subscription): a permanent one is
not retried, and the channel turns its target off (an address marked as refusing mail, a webhook
switched off with the reason its owner reads). A row held for the person's quiet hours
(`not_before`) waits until they end.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import notify
from games.models import Notification

from . import CHANNELS
from .base import Channel, ChannelError

# 30 s doubling to a cap of 32 min: about 30 hours of tries before a row is given up.
MAX_ATTEMPTS = 60
HELD = "held"


def backoff_seconds(attempts: int) -> int:
    """30 s, 1 min, 2 min ... 32 min between tries: an outage of hours still loses nothing."""
    return 30 * 2 ** min(max(attempts - 1, 0), 6)


def lease_seconds() -> int:
    """How long a claimed row is left to its sender before the sweep sends it again: a send that
    times out on every step of the SMTP dialogue still ends well within it."""
    return int(settings.MAIL_TIMEOUT * 8) + 60


def channel_of(note: Notification) -> Channel | None:
    return CHANNELS.get(note.channel)


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
        if note.not_before is not None and note.not_before > now:
            return HELD  # the person's quiet hours: the sweep sends it once they end
        if not note.body_text:
            # rendered once, from the context frozen when the row was written; kept for the admin
            # (rows of a channel without templates keep their context: it is what they say)
            notify.finish(note)
            if note.template:
                note.context = {}
        channel = channel_of(note)
        refused = "Not sent: no such channel." if channel is None else channel.prepare(note)
        if refused is not None:
            note.status = Notification.Status.GAVE_UP
            note.last_error = refused[:2000]
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


def send(notification_id: int) -> str:
    """Send one row if it is still unsent; returns its status. Safe to call twice: a row is sent once
    (or, after a crash between sending and recording, again with the same idempotency key)."""
    return _send(notification_id)[0]


def _send(notification_id: int) -> tuple[str, ChannelError | None]:
    note = _claim(notification_id)
    if isinstance(note, str):
        return note, None
    channel = CHANNELS[note.channel]
    target = None
    if note.target_id is not None:
        target = channel.target(note.target_id)
        if target is None:
            gone = ChannelError("Not sent: its target is gone or turned off.", permanent=True)
            return _failed(note, channel, None, gone), gone
    try:
        far_id = channel.deliver(note, target)
    except ChannelError as e:
        return _failed(note, channel, target, e), e
    except Exception as e:  # noqa: BLE001 - a channel's own bug: kept as a temporary failure, in words
        error = ChannelError(f"{type(e).__name__} in the {channel.kind} channel")
        return _failed(note, channel, target, error), error
    Notification.objects.filter(pk=note.pk, attempts=note.attempts).update(
        status=Notification.Status.SENT,
        sent_at=timezone.now(),
        last_error="",
        next_attempt_at=None,
        message_id=far_id or idempotency_of(note),
    )
    return Notification.Status.SENT, None


def idempotency_of(note: Notification) -> str:
    from .ping import idempotency_key

    return idempotency_key(note)


def _failed(note: Notification, channel: Channel, target, error: ChannelError) -> str:
    gave_up = error.permanent or note.attempts >= MAX_ATTEMPTS
    status = Notification.Status.GAVE_UP if gave_up else Notification.Status.FAILED
    Notification.objects.filter(pk=note.pk, attempts=note.attempts).update(
        status=status,
        last_error=error.reason[:2000],
        next_attempt_at=None if gave_up else timezone.now() + timedelta(seconds=backoff_seconds(note.attempts)),
    )
    if error.permanent:
        channel.gave_up(note, target, error)
    elif target is not None:
        channel.failed(target, error.reason)
    return status


def send_many(notification_ids: list[int]) -> int:
    """Send rows in turn; once a far end could not be reached at all, skip its other rows (they wait
    for the sweep), so a hung or unreachable server costs one timeout per batch, not one per row."""
    sent = 0
    unreachable: set[tuple[str, int | None]] = set()
    rows = dict(Notification.objects.filter(pk__in=notification_ids).values_list("pk", "channel"))
    targets = dict(Notification.objects.filter(pk__in=notification_ids).values_list("pk", "target_id"))
    for pk in notification_ids:
        where = (rows.get(pk, ""), targets.get(pk))
        if where in unreachable:
            continue
        status, failure = _send(pk)
        sent += status == Notification.Status.SENT
        if failure is not None and failure.unreachable:
            unreachable.add(where)
    return sent
