"""The Celery app. The broker comes from settings: Redis in production, a SQLite file otherwise."""

import gc
import os

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("cafe_turns")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _freeze_the_loaded_heap(**_) -> None:
    """Keep the collector from walking all of Django at every full collection in a worker process.

    What a forked worker holds when it starts (Django, the titles, their modules) lives as long
    as the process; a sweep's batch makes thousands of short-lived objects, and each full
    collection walked the whole heap again (about a tenth of a batch's time, issue 13's note).
    """
    gc.freeze()


MAIL_TASKS = frozenset({"games.tasks.send_notification", "games.tasks.send_notifications"})


def route_task(name: str, args, kwargs, options, task=None, **kw) -> dict | None:
    """Mail to its own queue (settings.CELERY_MAIL_QUEUE), everything else to the default one."""
    if name in MAIL_TASKS:
        from django.conf import settings

        return {"queue": settings.CELERY_MAIL_QUEUE}
    return None
