"""Celery tasks: thin wrappers that call the write path or the outbox (every channel's sends).

They also implement games.dispatch (mail and bots after commit), so the write path reaches them
without importing this module.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

import redis
from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import timezone
from redis.backoff import NoBackoff
from redis.retry import Retry

from . import digest, dispatch
from .actions import deadlines, play
from .channels import outbox
from .mailin import mailbox as reply_mailbox
from .models import Game, Notification, Seat

log = logging.getLogger(__name__)


# A task that meets the database going away (a restart, a failover) tries again in seconds, not at
# the next sweep: every task here is idempotent, so a retry after a half-done run is safe.
DATABASE_AWAY = {"autoretry_for": (OperationalError, InterfaceError), "retry_backoff": 2, "max_retries": 6}


@shared_task(bind=True, max_retries=3, autoretry_for=DATABASE_AWAY["autoretry_for"], retry_backoff=2)
def send_notification(self, notification_id: int) -> str:
    status = outbox.send(notification_id)
    if status == Notification.Status.FAILED and not self.request.is_eager:
        # a few quick retries here; after that (or if this worker dies) the sweep keeps trying
        raise self.retry(countdown=outbox.backoff_seconds(self.request.retries + 1))
    return status


@shared_task(**DATABASE_AWAY)
def send_notifications(notification_ids: list[int]) -> int:
    """Send many rows in one task (the sweep writes them in batches); failures wait for the sweep."""
    return outbox.send_many(notification_ids)


@shared_task(**DATABASE_AWAY)
def advance_bots(game_id: int) -> int:
    return play.advance(game_id)


_NOT_DISPATCHED = {"dispatched": 0, "reminders": 0, "reminder_batches": 0, "overdue": 0, "timeout_batches": 0}


# A batch is idempotent, so one a killed worker never acknowledged is simply done again.
@shared_task(acks_late=True, reject_on_worker_lost=True, **DATABASE_AWAY)
def remind_batch(pks: list[int], now_iso: str) -> int:
    return deadlines.remind_batch(pks, datetime.fromisoformat(now_iso))


@shared_task(acks_late=True, reject_on_worker_lost=True, **DATABASE_AWAY)
def time_out_batch(rows: list[list[int]], now_iso: str) -> int:
    return deadlines.time_out_batch(rows, datetime.fromisoformat(now_iso))


@shared_task
def sweep() -> dict[str, int]:
    """Every minute: queue reminders and timeouts in batches for the workers to share, then digests,
    unsent mail, and bots a lost task left waiting. Safe to run twice at once."""
    now = timezone.now()
    clock = {"dispatched": 1, **deadlines.fan_out(now)} if _first_this_minute(now) else _NOT_DISPATCHED
    digests = digest.send_due(now)
    stale = now - timedelta(minutes=2)
    pending = _queue_unsent_mail(now, stale)
    # bots a lost task left waiting: one query for the games, one task each
    waiting = Seat.objects.filter(
        is_bot=True, waiting_since__isnull=False, game__status=Game.Status.ACTIVE, game__waiting_since__lt=stale
    )
    games = list(waiting.order_by().values_list("game_id", flat=True).distinct())
    for pk in games:
        advance_bots.delay(pk)
    woken = len(games)
    return {**clock, "digests": digests, "mail": len(pending), "bots": woken}


# Rows the sweep queued are left alone this long, so a slow mail queue is not filled again each minute.
MAIL_QUEUED_FOR = timedelta(minutes=10)


def _queue_unsent_mail(now: datetime, stale: datetime) -> list[int]:
    """Unsent rows (never tried and older than `stale`, due for a retry, or claimed by a sender that
    was lost) go to the mail queue in batches; the sweep itself never waits on a mail server."""
    unsent = Notification.objects.filter(
        status__in=[Notification.Status.PENDING, Notification.Status.FAILED, Notification.Status.SENDING]
    )
    due = unsent.filter(next_attempt_at__isnull=True, created_at__lt=stale) | unsent.filter(next_attempt_at__lte=now)
    pending = list(due.order_by("pk").values_list("pk", flat=True)[:500])
    chosen = Notification.objects.filter(pk__in=pending)
    chosen.filter(status=Notification.Status.SENDING).update(
        status=Notification.Status.FAILED, last_error="Its sender was lost while sending; sent again."
    )
    chosen.update(next_attempt_at=now + MAIL_QUEUED_FOR)
    for start in range(0, len(pending), 50):
        try:
            send_notifications.delay(pending[start : start + 50])
        except Exception:  # noqa: BLE001 - broker down: the rows are picked up again once their wait ends
            log.warning("sweep: could not queue %d emails; they wait for a later sweep", len(pending) - start)
            break
    return pending


def _first_this_minute(now: datetime) -> bool:
    """False if another sweep already queued this minute's deadlines (a second beat, by mistake).

    A Redis key set if absent, per database and minute. Only a saving: a second dispatch is
    harmless (every batch re-checks under its games' locks), so with no Redis broker, with eager
    tasks (tests), or with Redis unreachable, the sweep goes ahead.
    """
    url = settings.CELERY_BROKER_URL
    if settings.CELERY_TASK_ALWAYS_EAGER or not url.startswith(("redis://", "rediss://")):
        return True
    key = f"cafe-turns:sweep:{settings.DATABASES['default']['NAME']}:{now:%Y%m%dT%H%M}"
    try:
        # one quick try: with Redis away, beat's sweep must not wait out redis-py's retries
        once = Retry(NoBackoff(), 0)
        with redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=1, retry=once) as client:
            return bool(client.set(key, now.isoformat(), nx=True, ex=180))
    except redis.RedisError as e:
        log.warning("sweep: could not check for a concurrent sweep (%s); dispatching anyway", e)
        return True


@shared_task(**DATABASE_AWAY)
def read_reply_mailbox() -> dict[str, int]:
    """Every minute when REPLY_IMAP_URL is set: replies stored and not handled (by this task or the SMTP
    listener), then one batch of the IMAP mailbox (games.mailin.mailbox). A mailbox that cannot be
    reached is logged and tried again at the next minute; nothing of it is lost meanwhile."""
    try:
        return reply_mailbox.run()
    except (OSError, *reply_mailbox.IMAP_ERRORS) as e:
        log.warning("reply mailbox: could not be read (%s); tried again next minute", type(e).__name__)
        return {"error": 1}


# each looked up when called, so a test (or a retry policy) that swaps `.delay` is honoured
dispatch.implement(
    send_notification=lambda pk: send_notification.delay(pk),
    send_notifications=lambda pks: send_notifications.delay(pks),
    advance_bots=lambda game_id: advance_bots.delay(game_id),
    remind_batch=lambda pks, now_iso: remind_batch.delay(pks, now_iso),
    time_out_batch=lambda rows, now_iso: time_out_batch.delay(rows, now_iso),
)
