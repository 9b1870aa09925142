"""The daily digest: one email a day listing the games waiting on a player who chose it, in their
language (its times in their locale, each question said when the mail is sent: games.notify)."""

from __future__ import annotations

from datetime import datetime, time, timedelta

from django.db import transaction
from django.utils.translation import ngettext

from games.clock.calendar import zone_for
from games.clock.shown import due_in

from . import links, notify
from .messages import Reading, reading_for, say
from .models import Game, Notification, Seat
from .reader_time import local_time


def next_digest_at(user, now: datetime) -> datetime:
    """When this digest reader's next digest goes (now, if today's is due and not sent yet)."""
    zone = zone_for(user.timezone)
    local = now.astimezone(zone)
    sent_today = user.last_digest_at is not None and user.last_digest_at.astimezone(zone).date() == local.date()
    if not sent_today and local.hour >= user.digest_hour:
        return now
    day = local.date() + timedelta(days=1 if sent_today or local.hour >= user.digest_hour else 0)
    return datetime.combine(day, time(user.digest_hour), tzinfo=zone)


def comes_first(user, deadline: datetime | None, now: datetime) -> bool:
    """A reminder folds into the digest: the player reads digests and the next one goes before the deadline."""
    if user is None or deadline is None or user.email_mode != user.EmailMode.DIGEST:
        return False
    return next_digest_at(user, now) <= deadline


def send_due(now: datetime) -> int:
    """Send each digest reader whose local digest hour has come their digest, at most once a day."""
    from accounts.models import User

    sent = 0
    readers = User.objects.filter(email_mode=User.EmailMode.DIGEST, unsubscribed=False)
    for user in readers.filter(seats__waiting_since__isnull=False, seats__game__status=Game.Status.ACTIVE).distinct():
        if next_digest_at(user, now) > now:
            continue
        with transaction.atomic():
            fresh = User.objects.select_for_update().get(pk=user.pk)
            if next_digest_at(fresh, now) > now:  # another sweep sent it meanwhile
                continue
            seats = list(
                Seat.objects.select_related("game")
                .filter(player=user, waiting_since__isnull=False, game__status=Game.Status.ACTIVE, is_bot=False)
                .order_by("deadline")
            )
            if not seats:
                continue
            with notify.speaking(user):
                _queue_digest(user, seats, now)
            User.objects.filter(pk=user.pk).update(last_digest_at=now)
            sent += 1
    return sent


def _reading(game: Game) -> Reading:
    return reading_for(game, {seat.index: seat.name for seat in game.seats.select_related("player")})


def _queue_digest(user, seats: list[Seat], now: datetime) -> None:
    """The digest's row, written in the reader's language (active around it)."""
    games = []
    for s in seats:
        prompt = s.game.engine.prompts(s.game.state).get(s.index)
        games.append(
            {
                "name": s.game.name,
                "title": s.game.title_name,
                "url": links.url_for(s),
                "waiting": local_time(s.waiting_since, user.timezone),
                "deadline": local_time(s.deadline, user.timezone),
                "due_in": due_in(s.deadline, now),
                # said now, in the reader's language, naming the players of its own game
                "question": say(prompt.text, _reading(s.game)) if prompt else "",
            }
        )
    subject = ngettext("%(count)s game waiting on you", "%(count)s games waiting on you", len(games)) % {
        "count": len(games)
    }
    notify._queue(None, seats[0], Notification.Kind.DIGEST, subject, "digest", {"games": games, "game": None})
