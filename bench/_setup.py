"""Shared set-up for the benchmarks: a PostgreSQL database of their own, migrated, with Django ready.

Run a bench as `.venv/bin/python bench/<name>.py`; it uses DATABASE_URL if set, else
postgres://postgres@127.0.0.1:5432/cafe_bench (created if missing), and Redis as the Celery
broker (REDIS_URL, database 14 by default), as in production.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the title the answer benchmarks play unless told another (--title): their figures over time are of it
REFERENCE = "cafe_baras"
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/cafe_bench")
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "false")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/14")  # the production broker, as deployed
os.environ.setdefault("EMAIL_BACKEND", "django.core.mail.backends.locmem.EmailBackend")


def django_ready(fresh: bool = True) -> None:
    import psycopg

    url = os.environ["DATABASE_URL"]
    name = url.rsplit("/", 1)[1]
    admin_url = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("select 1 from pg_database where datname = %s", (name,)).fetchone()
        if exists and fresh:
            conn.execute(f'drop database "{name}" with (force)')
            exists = None
        if not exists:
            conn.execute(f'create database "{name}"')
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    sys.path.insert(0, str(ROOT / "tests"))
    from games.titles import register
    from tests.support.pebbles import TITLE

    register(TITLE)
