"""The production path for real: PostgreSQL, Redis as the broker, a real Celery worker process.

scripts/test runs this directory on its own, with DATABASE_URL pointing at PostgreSQL and REDIS_URL
at Redis (pytest-django creates the test database on that server). The worker process gets the
name of that *test* database, so it works on the very rows the tests write; tests use
`django_db(transaction=True)` so the worker sees committed rows.

Each run uses its own Celery queue, so two runs on one machine (or a stray worker) never take
each other's tasks.
"""

from __future__ import annotations

import os
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings as django_settings

from config.celery import app as celery_app
from tests.production import service
from tests.production.service import Proc

ROOT = Path(__file__).resolve().parents[2]
QUEUE = f"cafe-test-{uuid.uuid4().hex[:12]}"
# Set before anything is sent, in this process and (by CAFE_TEST_QUEUE) in the worker's.
celery_app.conf.task_default_queue = QUEUE
django_settings.CELERY_MAIL_QUEUE = service.mail_queue(QUEUE)

ON_POSTGRES = django_settings.DATABASES["default"]["ENGINE"] == "config.postgresql"
ON_REDIS = django_settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://"))

# The PostgreSQL and Redis tests need the servers; a bare `pytest` on the embedded default
# leaves them out of collection (scripts/test runs them, and sets CAFE_REQUIRE_PRODUCTION=1
# so that a wrong environment fails loudly instead).
if not (ON_POSTGRES and ON_REDIS):
    if os.environ.get("CAFE_REQUIRE_PRODUCTION"):
        raise pytest.UsageError(
            "tests/production needs DATABASE_URL=postgres://... and REDIS_URL=redis://... "
            f"(got database engine {django_settings.DATABASES['default']['ENGINE']}, "
            f"broker {django_settings.CELERY_BROKER_URL.split('://')[0]})"
        )
    collect_ignore = ["test_postgres_redis_worker.py", "test_postgres_sql.py", "test_cardset_check_worker.py"]


def pytest_report_header(config):
    where = "PostgreSQL + Redis" if ON_POSTGRES and ON_REDIS else "embedded only (no DATABASE_URL/REDIS_URL)"
    return f"production tests: {where}; celery queue {QUEUE}"


@pytest.fixture
def real_celery(settings):
    """Tasks go through the broker to the worker process (tests/conftest.py makes them eager)."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    assert celery_app.conf.task_always_eager is False
    assert celery_app.conf.broker_url.startswith("redis://")
    return celery_app


@pytest.fixture
def own_queue(settings):
    """A queue (and mail queue) of this test's own, so the session's worker takes none of its tasks."""
    queue = f"{QUEUE}-{uuid.uuid4().hex[:6]}"
    celery_app.conf.task_default_queue = queue
    settings.CELERY_MAIL_QUEUE = service.mail_queue(queue)
    yield queue
    celery_app.conf.task_default_queue = QUEUE


Worker = Proc  # a worker process, as service.start_worker starts it


def start_worker(test_db: dict, tmp: Path, queue: str, **kwargs) -> Proc:
    """A real `celery worker --pool solo` on Redis, against the test database, taking the tasks of
    `queue` and its mail queue only; waits until it is ready."""
    return service.start_worker(test_db, tmp, queue, queues=[queue, service.mail_queue(queue)], **kwargs)


def stop_worker(worker: Proc) -> None:
    worker.stop()


def database_settings(django_db_blocker) -> dict:
    """The connection settings of the test database (what a worker process must be pointed at)."""
    from django.db import connection

    with django_db_blocker.unblock():
        connection.ensure_connection()
        test_db = dict(connection.settings_dict)
    assert test_db["NAME"].startswith("test_"), test_db["NAME"]
    return test_db


@pytest.fixture(scope="session")
def celery_worker(django_db_setup, django_db_blocker, tmp_path_factory):
    """The session's worker on the run's own queue (see start_worker)."""
    worker = start_worker(database_settings(django_db_blocker), tmp_path_factory.mktemp("worker"), QUEUE)
    yield worker
    stop_worker(worker)


def wait_for(check, timeout: float, what: str, worker: Worker | None = None):
    """Poll `check` until it returns something truthy; fail with the worker's log if it never does."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            log = worker.output()[-6000:] if worker else ""
            pytest.fail(f"timed out after {timeout:.0f}s waiting for {what}\n--- worker log ---\n{log}")
        if worker and not worker.alive():
            pytest.fail(f"the worker died while waiting for {what}\n--- worker log ---\n{worker.output()[-6000:]}")
        if worker and "raised unexpected" in worker.output():
            pytest.fail(
                f"a task failed in the worker while waiting for {what}\n--- worker log ---\n{worker.output()[-6000:]}"
            )
        time.sleep(0.1)
