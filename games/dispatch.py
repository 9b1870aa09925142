"""Side effects after commit: mail to send and bots to move.

The write path asks for them here; games/tasks.py says how (as Celery tasks) when it is loaded
(games/apps.py loads it). So the write path never imports the tasks, the tasks import the write
path, and no import runs in a circle. Nothing is sent for a change that did not commit.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from django.db import transaction

log = logging.getLogger(__name__)

_handlers: dict[str, Callable[..., Any]] = {}
_collecting = threading.local()


def implement(**handlers: Callable[..., Any]) -> None:
    """Called once by games.tasks: send_notification(pk), send_notifications(pks), advance_bots(game_id),
    remind_batch(pks, now_iso), time_out_batch(rows, now_iso)."""
    _handlers.update(handlers)


def _run(name: str, *args: Any) -> None:
    try:
        handler = _handlers[name]
    except KeyError:
        raise RuntimeError(f"no handler for {name!r}: games.tasks was not loaded") from None
    handler(*args)


def move_bots(game_id: int) -> None:
    """Bots (and answers left in advance) of this game play once the caller commits."""
    transaction.on_commit(lambda: _run("advance_bots", game_id), robust=True)


def send_after_commit(pks: list[int]) -> None:
    """Outbox rows go out once the transaction that wrote them commits (inside `collected`, they wait
    for the collector instead)."""
    collecting = getattr(_collecting, "pks", None)
    if collecting is not None:
        collecting.extend(pks)
        return
    for pk in pks:
        transaction.on_commit(lambda pk=pk: _run("send_notification", pk), robust=True)


def send_now(pks: list[int]) -> None:
    """Many committed rows in one task; with the broker down they stay pending for the next sweep."""
    try:
        _run("send_notifications", pks)
    except Exception:  # noqa: BLE001 - broker down: the rows stay pending and the next sweep sends them
        log.warning("could not queue %d emails; the next sweep sends them", len(pks))


def queue_reminders(pks: list[int], now: datetime) -> None:
    """One batch of the sweep's reminders, for any worker (now, not after a commit: the sweep that
    finds them writes nothing)."""
    _run("remind_batch", pks, now.isoformat())


def queue_timeouts(rows: list[list[int]], now: datetime) -> None:
    """One batch of the sweep's timeouts, rows of [seat pk, game pk, seat index], for any worker."""
    _run("time_out_batch", rows, now.isoformat())


@contextmanager
def collected() -> Iterator[list[int]]:
    """Collect the outbox rows written inside, to be sent by one task after the caller commits.

    The sweep writes hundreds of rows per transaction: one broker message for all of them instead
    of one per row.
    """
    _collecting.pks = []
    try:
        yield _collecting.pks
    finally:
        _collecting.pks = None
