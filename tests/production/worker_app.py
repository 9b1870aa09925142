"""Celery entry point for the worker process the production tests start.

The worker is a separate process, so it must know the test title "pebbles" too: register it, then
hand Celery the project's own app. Run as `celery -A tests.production.worker_app worker -Q <queue>`.
"""

import os

from games.titles import register
from tests.support.pebbles import TITLE as PEBBLES

register(PEBBLES)

from config.celery import app  # noqa: E402  (after the title is registered)

if os.environ.get("CAFE_TEST_QUEUE"):
    app.conf.task_default_queue = os.environ["CAFE_TEST_QUEUE"]

__all__ = ["app"]
