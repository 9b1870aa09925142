"""Outbox rows for each kind of email, rendered in the transaction of their cause.

Each row holds the finished text and HTML, so what a player reads is the table as it was when
they were asked, and sending later (or again after an outage) cannot show anything newer or
anything another seat may not see.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.template.loader import render_to_string

from . import links
from .models import Game, Notification, Seat
from .present import score_rows


def _queue(
    game: Game | None, seat: Seat | None, recipient: str, kind: str, subject: str, template: str, ctx
) -> Notification:
    ctx = {"game": game, "seat": seat, **ctx}
    note = Notification.objects.create(
        game=game,
        seat=seat,
        recipient=recipient,
        kind=kind,
        subject=subject[:200],
        body_text=render_to_string(f"emails/{template}.txt", ctx),
        body_html=render_to_string(f"emails/{template}.html", ctx),
    )
    from . import tasks

    transaction.on_commit(lambda: tasks.send_notification.delay(note.pk), robust=True)
    return note


def your_move(game: Game, seat: Seat, view: dict[str, Any], prompt) -> Notification:
    return _queue(
        game,
        seat,
        seat.email,
        Notification.Kind.YOUR_MOVE,
        f"Your move in {game.name}",
        "your_move",
        {"view": view, "prompt": prompt.to_dict(), "url": links.url_for(seat)},
    )


def invite(game: Game, seat: Seat) -> Notification:
    return _queue(
        game,
        seat,
        seat.email,
        Notification.Kind.INVITE,
        f"You are playing {game.title_name}: {game.name}",
        "invite",
        {"url": links.url_for(seat), "players": [s.name for s in game.seats.all()]},
    )


def final(game: Game, seat: Seat, view: dict[str, Any], outcome, names: dict[int, str]) -> Notification:
    rows = score_rows(outcome, names)
    winners = " and ".join(names[i] for i in outcome.winners)
    return _queue(
        game,
        seat,
        seat.email,
        Notification.Kind.FINAL,
        f"Game over in {game.name}: {winners} {'wins' if len(outcome.winners) == 1 else 'share the win'}",
        "final",
        {
            "rows": rows,
            "winners": winners,
            "tiebreak": outcome.tiebreak,
            "url": links.url_for(seat),
            "view": view,
            "shared": len(outcome.winners) > 1,
        },
    )


def fresh_link(seat: Seat) -> Notification:
    return _queue(
        seat.game,
        seat,
        seat.email,
        Notification.Kind.FRESH_LINK,
        f"Your link to {seat.game.name}",
        "fresh_link",
        {"url": links.url_for(seat)},
    )
