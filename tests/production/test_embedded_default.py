"""The embedded default works with no server: SQLite, Celery over a SQLite file, mail to the outbox.

Everything runs in subprocesses with DATABASE_URL, REDIS_URL and the mail settings removed from
the environment and VAR_DIR pointing at a fresh directory, as on a machine with nothing installed.
Last, `scripts/serve` itself: it starts web, worker, mailer and beat, serves pages, and Ctrl-C stops all.
"""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.production.conftest import ROOT

pytestmark = pytest.mark.production


def embedded_env(var_dir: Path, **extra) -> dict[str, str]:
    drop = ("DATABASE_", "REDIS_", "CELERY_", "EMAIL_", "ANYMAIL_", "PYTEST_", "SECRET_KEY", "DJANGO_SETTINGS")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    env.update(VAR_DIR=str(var_dir), DJANGO_SETTINGS_MODULE="config.settings", PYTHONUNBUFFERED="1", **extra)
    return env


def run(args: list[str], env: dict, timeout: float = 60) -> subprocess.CompletedProcess:
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done


QUEUE_A_MAIL = """
import django
django.setup()
from django.conf import settings
from games.models import Notification
from games.tasks import send_notification
assert settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"), settings.DATABASES
assert settings.CELERY_BROKER_URL.startswith("sqla+sqlite:///"), settings.CELERY_BROKER_URL
note = Notification.objects.create(recipient="ana@example.com", kind="invite", subject="Hello from the queue",
                                   body_text="You are invited.")
send_notification.delay(note.pk)
print(note.pk)
"""


def delivered(var_dir: Path, pk: str) -> list:
    """(the row's status, how many copies reached the local outbox), read straight from the SQLite file."""
    with sqlite3.connect(var_dir / "db.sqlite3", timeout=10) as db:
        status = db.execute("select status from games_notification where id = ?", (int(pk),)).fetchone()[0]
        copies = db.execute(
            "select count(*) from games_deliveredmail where subject = 'Hello from the queue'"
        ).fetchone()[0]
    return [status, str(copies)]


def test_migrate_check_and_a_task_through_the_sqlite_broker_with_no_server(tmp_path):
    env = embedded_env(tmp_path)
    py = sys.executable
    run([py, "manage.py", "migrate", "--noinput", "-v", "0"], env)
    out = run([py, "manage.py", "check"], env).stdout
    assert "no issues" in out
    assert (tmp_path / "db.sqlite3").exists() and (tmp_path / "secret_key").exists()

    # queue one email on the SQLite transport before any worker runs: it waits in var/celery.sqlite
    pk = run([py, "-c", QUEUE_A_MAIL], env).stdout.strip().splitlines()[-1]
    assert (tmp_path / "celery.sqlite").exists()
    with sqlite3.connect(tmp_path / "celery.sqlite") as db:
        assert db.execute("select count(*) from kombu_message").fetchone()[0] == 1

    log = tmp_path / "worker.log"
    with log.open("w") as out_file:
        worker = subprocess.Popen(
            [
                py,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "-Q",
                "celery,mail",
                "--pool",
                "solo",
                "--without-mingle",
                "--without-gossip",
                "--loglevel",
                "INFO",
                "-n",
                f"embedded-{os.getpid()}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=out_file,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 40
        status = ""
        while time.monotonic() < deadline and worker.poll() is None:
            status = delivered(tmp_path, pk)
            if status == ["sent", "1"]:
                break
            time.sleep(0.2)
        assert status == ["sent", "1"], f"the worker did not deliver the email to the outbox:\n{log.read_text()}"
        assert "Connected to sqla+sqlite:///" in log.read_text()
        assert "games.tasks.send_notification" in log.read_text()
    finally:
        worker.terminate()
        worker.wait(20)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def session_processes(sid: int) -> list[str]:
    ps = subprocess.run(["ps", "-eww", "-o", "sid=,pid=,args="], capture_output=True, text=True).stdout
    return [line.split(None, 2)[2] for line in ps.splitlines() if line.split(None, 2)[0] == str(sid)]


def test_scripts_serve_starts_web_worker_and_beat_and_ctrl_c_stops_them_all(tmp_path):
    port = free_port()
    env = embedded_env(tmp_path, PORT=str(port))
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        serve = subprocess.Popen(
            [str(ROOT / "scripts" / "serve")],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            # as in a terminal: Ctrl-C must reach the script (a background job would ignore it)
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
    try:
        deadline = time.monotonic() + 90
        while "Ctrl-C stops everything" not in log.read_text():
            assert serve.poll() is None and time.monotonic() < deadline, f"serve did not come up:\n{log.read_text()}"
            time.sleep(0.3)
        text = log.read_text()
        assert f"http://127.0.0.1:{port}/" in text and "/outbox/" in text
        assert "Password:" in text, "the first run prints the organiser's login"
        for path, marker in [("/", "<html"), ("/admin/login/", "csrfmiddlewaretoken")]:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as page:
                assert page.status == 200 and marker in page.read().decode()
        running = "\n".join(session_processes(serve.pid))
        assert "gunicorn" in running and "worker" in running and "beat" in running, running
        wait = time.monotonic() + 30  # the worker and beat each say they are up, in either order
        while not ("ready." in log.read_text() and "beat: Starting" in log.read_text()) and time.monotonic() < wait:
            time.sleep(0.3)
        assert "[worker]" in log.read_text() and "ready." in log.read_text(), log.read_text()
        assert "mailer" in running and "[mailer]" in log.read_text(), "mail has its own worker process"
        assert "beat: Starting" in log.read_text(), log.read_text()
    finally:
        serve.send_signal(signal.SIGINT)
        code = serve.wait(40)
    time.sleep(0.5)
    assert code == 130, log.read_text()
    assert session_processes(serve.pid) == [], "Ctrl-C left processes running"
    assert "serve: stopped." in log.read_text()

    # a second start does not create another organiser, and says so
    again = subprocess.run(
        [sys.executable, "manage.py", "ensure_organiser"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert "already exists" in again.stdout
