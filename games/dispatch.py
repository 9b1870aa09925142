"""Side effects after commit: mail to send and bots to move.

The write path asks for them here; games/tasks.py says how (as Celery tasks) when it is loaded
(games/apps.py loads it). So the write path never imports the tasks, the tasks import the write
path, and no import runs in a circle. Nothing is sent for a change that did not commit.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)

_handlers: dict[str, Callable[..., Any]] = {}
_collecting = threading.local()

# A hung broker (connects, never answers) costs each try its socket timeout (settings: broker
# transport options); after a try that failed that slowly, this process leaves the broker alone
# for a few seconds. A refused connection fails in milliseconds and pauses nothing, so queueing
# resumes the moment Redis is back.
SLOW_FAILURE_SECONDS = 0.5
BROKER_PAUSE_SECONDS = 5.0
_broker: dict[str, float | None] = {"skip_until": 0.0, "down_since": None}


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


def _queue(name: str, *args: Any) -> None:
    """Queue a task once the caller committed. With the broker down or hung the change stays
    committed and its work waits for beat's sweep (outbox rows stay pending, waiting bots are
    woken), the request is held up by one bounded try at most, and the log gets one warning an
    outage instead of a traceback a task. Eager (tests, no broker): a task's error is the caller's."""
    handler = _handlers.get(name)
    if handler is None or settings.CELERY_TASK_ALWAYS_EAGER:
        _run(name, *args)
        return
    start = time.monotonic()
    if start < (_broker["skip_until"] or 0.0):
        return
    try:
        handler(*args)
    except Exception as e:  # noqa: BLE001 - broker down or hung: the sweep does it later
        now = time.monotonic()
        if now - start > SLOW_FAILURE_SECONDS:
            _broker["skip_until"] = now + BROKER_PAUSE_SECONDS
        if _broker["down_since"] is None:
            _broker["down_since"] = start
            log.warning("could not queue %s (%s: %s); beat's sweep does it later", name, type(e).__name__, e)
        return
    if _broker["down_since"] is not None:
        log.warning("the broker takes tasks again after %.0f s", start - _broker["down_since"])
        _broker["down_since"] = None


def move_bots(game_id: int) -> None:
    """Bots (and answers left in advance) of this game play once the caller commits."""
    transaction.on_commit(lambda: _queue("advance_bots", game_id), robust=True)


def send_after_commit(pks: list[int]) -> None:
    """Outbox rows go out once the transaction that wrote them commits (inside `collected`, they wait
    for the collector instead)."""
    collecting = getattr(_collecting, "pks", None)
    if collecting is not None:
        collecting.extend(pks)
        return
    for pk in pks:
        transaction.on_commit(lambda pk=pk: _queue("send_notification", pk), robust=True)


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
