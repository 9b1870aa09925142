"""The service as real processes, for the fault tests: gunicorn, Celery workers, players over HTTP.

Every process is pointed at the run's *test* database and the run's own Celery queues (as
conftest.start_worker does), and only ever talks to 127.0.0.1. A fault test starts what it needs,
lets `Players` play through HTTP while it breaks something for real (stops Redis, restarts
PostgreSQL, hangs the mail server), and reads what the players saw from `Players.seen`.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests
from django.conf import settings as django_settings

ROOT = Path(__file__).resolve().parents[2]
REDIS_START = [
    "redis-server",
    "--daemonize",
    "yes",
    "--bind",
    "127.0.0.1",
    "--port",
    "6379",
    "--save",
    "",
    "--appendonly",
    "no",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url(settings_dict: dict) -> str:
    """A DATABASE_URL for the database this process is connected to (the test database)."""
    from urllib.parse import quote

    user = quote(settings_dict.get("USER") or "")
    password = settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{quote(password)}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{settings_dict['NAME']}"


def mail_queue(queue: str) -> str:
    """The queue a run's mail tasks take (settings.CELERY_MAIL_QUEUE; "mail" in production)."""
    return f"{queue}.mail"


def service_env(test_db: dict, tmp: Path, queue: str, **extra: str) -> dict[str, str]:
    """The environment of a web or worker process: the test database, this run's queues and secret,
    anymail's test backend unless `extra` names another mailer."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DATABASE_", "CELERY_", "EMAIL_", "ANYMAIL_", "PYTEST_"))
    }
    env.update(
        DATABASE_URL=database_url(test_db),
        REDIS_URL=django_settings.REDIS_URL or django_settings.CELERY_BROKER_URL,
        EMAIL_BACKEND="anymail.backends.test.EmailBackend",
        CELERY_TASK_ALWAYS_EAGER="false",
        CAFE_TEST_QUEUE=queue,
        CELERY_MAIL_QUEUE=mail_queue(queue),
        SECRET_KEY=django_settings.SECRET_KEY,
        SITE_URL="http://testserver",
        VAR_DIR=str(tmp),
        PYTHONUNBUFFERED="1",
        CONN_MAX_AGE="0",
    )
    env.update(extra)
    return env


@dataclass
class Proc:
    """A process of the service, its output in a log file."""

    name: str
    proc: subprocess.Popen
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        if not self.alive():
            return
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


def _spawn(name: str, cmd: list[str], env: dict[str, str], tmp: Path) -> Proc:
    log = tmp / f"{name}.log"
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    return Proc(name, proc, log)


def start_worker(
    test_db: dict, tmp: Path, queue: str, queues: list[str] | None = None, concurrency: int = 1, **extra: str
) -> Proc:
    """A real `celery worker` on Redis against the test database, taking `queues` (the run's default
    queue alone if not given); --pool solo for one slot, prefork for more. Waits until it is ready."""
    queues = queues or [queue]
    pool = ["--pool", "solo"] if concurrency == 1 else ["--pool", "prefork", "--concurrency", str(concurrency)]
    name = f"worker-{'-'.join(q.rsplit('.', 1)[-1] for q in queues)}-{time.monotonic_ns()}"
    cmd = [sys.executable, "-m", "celery", "-A", "tests.production.worker_app", "worker", *pool]
    cmd += ["-Q", ",".join(queues), "-n", f"{name}@%h", "--without-mingle", "--without-gossip", "--loglevel", "INFO"]
    worker = _spawn(name, cmd, service_env(test_db, tmp, queue, **extra), tmp)
    deadline = time.monotonic() + 60
    while " ready." not in worker.output():
        if not worker.alive() or time.monotonic() > deadline:
            worker.proc.kill()
            pytest.fail(f"the Celery worker did not start:\n{worker.output()[-4000:]}")
        time.sleep(0.2)
    return worker


@dataclass
class Web:
    proc: Proc
    url: str

    def stop(self) -> None:
        self.proc.stop()


def start_web(test_db: dict, tmp: Path, queue: str, workers: int = 2, **extra: str) -> Web:
    """gunicorn (gthread, as in production) on a free port of 127.0.0.1; waits for /healthz/."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = service_env(test_db, tmp, queue, ALLOWED_HOSTS="127.0.0.1,testserver", **extra)
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    cmd = [gunicorn, "tests.production.web_app:application", "-b", f"127.0.0.1:{port}", "-w", str(workers)]
    cmd += ["-k", "gthread", "--threads", "4", "--timeout", "60", "--log-level", "warning"]
    proc = _spawn(f"web-{port}", cmd, env, tmp)
    deadline = time.monotonic() + 60
    while True:
        try:
            if requests.get(f"{url}/healthz/", timeout=2).status_code == 200:
                return Web(proc, url)
        except requests.RequestException:
            pass
        if not proc.alive() or time.monotonic() > deadline:
            proc.stop()
            pytest.fail(f"gunicorn did not start:\n{proc.output()[-4000:]}")
        time.sleep(0.2)


# --- players ----------------------------------------------------------------------------------

_FIELD = re.compile(r'<input type="hidden" name="(version|prompt_key|csrfmiddlewaretoken)" value="([^"]*)"')
_CHOICE = re.compile(r'<input type="(?:radio|checkbox)" name="answer" value="([^"]+)"')
_NUMBER = re.compile(r'<input type="number"[^>]*? name="answer" min="(-?\d+)"')


def answer_form(html: str) -> dict[str, str] | None:
    """The decision form of a seat page filled in with its first option (radio) or lowest number;
    None when the page asks nothing. Enough for the titles the fault tests play (pebbles)."""
    if 'class="prompt"' not in html:
        return None
    fields = dict(_FIELD.findall(html.split('class="prompt"', 1)[1]))
    choice, number = _CHOICE.search(html), _NUMBER.search(html)
    if choice:
        fields["answer"] = choice.group(1)
    elif number:
        fields["answer"] = number.group(1)
    else:
        return None
    return fields


@dataclass
class Players:
    """People at their seat pages over HTTP: each opens their page, answers when asked, and waits a
    moment. `seen` counts what they saw: 'page 200', 'answer 302', 'page 503', 'page 500',
    'page refused' (no connection at all)..."""

    base: str
    paths: list[str]
    pause: float = 0.2
    seen: Counter = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _threads: list[threading.Thread] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def _count(self, what: str, detail: str = "") -> None:
        with self._lock:
            self.seen[what] += 1
            if detail and len(self.errors) < 50:
                self.errors.append(detail)

    def _play(self, path: str) -> None:
        session = requests.Session()
        while not self._stop.is_set():
            try:
                page = session.get(self.base + path, timeout=30)
                self._count(f"page {page.status_code}", "" if page.status_code < 500 else page.text[:300])
                form = answer_form(page.text) if page.status_code == 200 else None
                if form is not None:
                    sent = session.post(
                        self.base + path, data=form, timeout=30, allow_redirects=False, headers={"Referer": self.base}
                    )
                    self._count(f"answer {sent.status_code}", "" if sent.status_code < 500 else sent.text[:300])
            except requests.RequestException as e:
                self._count("page refused", f"{type(e).__name__}: {e}"[:300])
            self._stop.wait(self.pause)

    def start(self) -> Players:
        for path in self.paths:
            t = threading.Thread(target=self._play, args=(path,), daemon=True)
            t.start()
            self._threads.append(t)
        return self

    def stop(self) -> Counter:
        self._stop.set()
        for t in self._threads:
            t.join(40)
        return self.seen

    def snapshot(self) -> Counter:
        with self._lock:
            return Counter(self.seen)

    @staticmethod
    def server_errors(seen: Counter) -> int:
        """Answers the person saw as a server error (a trace), not as 'try again in a moment'."""
        return sum(n for what, n in seen.items() if what.endswith(" 500") or what.endswith(" 502"))


def seat_paths(games) -> list[str]:
    """The seat page path of every person's seat of these games."""
    from games import links

    return [f"/play/{links.token_for(seat)}/" for game in games for seat in game.seats.all() if not seat.is_bot]


def redis_up() -> bool:
    """One quick ping (redis-py would otherwise retry with backoff for seconds while it is down)."""
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    try:
        with redis.Redis(host="127.0.0.1", port=6379, socket_timeout=1, retry=Retry(NoBackoff(), 0)) as client:
            return bool(client.ping())
    except redis.RedisError:
        return False


def start_redis() -> None:
    """Start Redis as scripts/test does, if it is down; waits until it answers."""
    if redis_up():
        return
    subprocess.run(REDIS_START, check=True, capture_output=True)
    for _ in range(80):
        if redis_up():
            return
        time.sleep(0.25)
    raise RuntimeError("Redis did not come back on 127.0.0.1:6379")
