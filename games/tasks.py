"""Celery tasks: thin wrappers that call the write path or the mailer.

They also implement games.dispatch (mail and bots after commit), so the write path reaches them
without importing this module.
"""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from . import digest, dispatch, mail
from .actions import deadlines, play
from .models import Game, Notification, Seat


@shared_task(bind=True, max_retries=3)
def send_notification(self, notification_id: int) -> str:
    status = mail.send(notification_id)
    if status == Notification.Status.FAILED and not self.request.is_eager:
        # a few quick retries here; after that (or if this worker dies) the sweep keeps trying
        raise self.retry(countdown=mail.backoff_seconds(self.request.retries + 1))
    return status


@shared_task
def send_notifications(notification_ids: list[int]) -> int:
    """Send many rows in one task (the sweep writes them in batches); failures wait for the sweep."""
    return sum(mail.send(pk) == Notification.Status.SENT for pk in notification_ids)


@shared_task
def advance_bots(game_id: int) -> int:
    return play.advance(game_id)


@shared_task
def sweep() -> dict[str, int]:
    """Every minute: reminders, then timeouts (through the write path), digests, unsent mail, and bots
    a lost task left waiting. Safe to run twice at once."""
    now = timezone.now()
    clock = deadlines.sweep(now)
    digests = digest.send_due(now)
    stale = now - timedelta(minutes=2)
    unsent = Notification.objects.filter(status__in=[Notification.Status.PENDING, Notification.Status.FAILED])
    due = unsent.filter(next_attempt_at__isnull=True, created_at__lt=stale) | unsent.filter(next_attempt_at__lte=now)
    pending = list(due.values_list("pk", flat=True)[:500])
    for pk in pending:
        mail.send(pk)
    # bots a lost task left waiting: one query for the games, one task each
    waiting = Seat.objects.filter(
        is_bot=True, waiting_since__isnull=False, game__status=Game.Status.ACTIVE, game__waiting_since__lt=stale
    )
    games = list(waiting.order_by().values_list("game_id", flat=True).distinct())
    for pk in games:
        advance_bots.delay(pk)
    woken = len(games)
    return {**clock, "digests": digests, "mail": len(pending), "bots": woken}


# each looked up when called, so a test (or a retry policy) that swaps `.delay` is honoured
dispatch.implement(
    send_notification=lambda pk: send_notification.delay(pk),
    send_notifications=lambda pks: send_notifications.delay(pks),
    advance_bots=lambda game_id: advance_bots.delay(game_id),
)
