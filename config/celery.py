"""The Celery app. The broker comes from settings: Redis in production, a SQLite file otherwise."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("cafe_turns")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
