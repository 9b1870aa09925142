"""The daily digest: one email a day listing the games waiting on a player who chose it."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django.db import transaction

from . import links, notify
from .models import Game, Notification, Seat


def send_due(now: datetime) -> int:
    """Send each digest reader whose local digest hour has come their digest, at most once a day."""
    from accounts.models import User

    sent = 0
    readers = User.objects.filter(email_mode=User.EmailMode.DIGEST, unsubscribed=False)
    for user in readers.filter(seats__waiting_since__isnull=False, seats__game__status=Game.Status.ACTIVE).distinct():
        try:
            zone = ZoneInfo(user.timezone)
        except (KeyError, ValueError):
            zone = ZoneInfo("UTC")
        local = now.astimezone(zone)
        if local.hour < user.digest_hour:
            continue
        if user.last_digest_at and user.last_digest_at.astimezone(zone).date() == local.date():
            continue
        with transaction.atomic():
            fresh = User.objects.select_for_update().get(pk=user.pk)
            if fresh.last_digest_at and fresh.last_digest_at.astimezone(zone).date() == local.date():
                continue
            seats = list(
                Seat.objects.select_related("game")
                .filter(player=user, waiting_since__isnull=False, game__status=Game.Status.ACTIVE, is_bot=False)
                .order_by("deadline")
            )
            if not seats:
                continue
            games = []
            for s in seats:
                prompt = s.game.engine.prompts(s.game.state).get(s.index)
                games.append(
                    {
                        "name": s.game.name,
                        "title": s.game.title_name,
                        "url": links.url_for(s),
                        "waiting": notify.local_time(s.waiting_since, user.timezone),
                        "deadline": notify.local_time(s.deadline, user.timezone),
                        "question": prompt.text if prompt else "",
                    }
                )
            notify._queue(
                None,
                seats[0],
                Notification.Kind.DIGEST,
                f"{len(games)} game{'s' if len(games) > 1 else ''} waiting on you",
                "digest",
                {"games": games, "game": None},
            )
            User.objects.filter(pk=user.pk).update(last_digest_at=now)
            sent += 1
    return sent
