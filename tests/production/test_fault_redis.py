"""Redis stops for half a minute under load (issue 22): pages, answers and sign-in keep working.

Twelve people play six games of pebbles through gunicorn (two workers) while someone asks for
sign-in links, and the real Redis server (the cache, the rate limits' counts and the Celery broker)
is shut down without saving, then started again empty. What each of them saw is counted before,
during and after the outage: no 500 or 502 at all; answers are played all along; the sign-in limit
still refuses an address asked for too often (counted in each web process's memory meanwhile).
Mail written while the broker was away waits in the outbox; once Redis is back, the worker sends
what is queued and the sweep (as beat runs it minutes later) the rest: every row exactly once.

Stopping Redis stops it for everyone on this machine: run it under the faults lock, as
scripts/test does (`flock /tmp/cafe-faults.lock ...`).
"""

from __future__ import annotations

import re
import socket
import subprocess
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta

import pytest
import requests
from django.db.models import F
from django.utils import timezone

from accounts import limits
from config.celery import app as celery_app
from games import tasks
from games.actions import organise, replay
from games.models import Event, Game, Notification
from tests.production.conftest import QUEUE, database_settings, start_worker, wait_for
from tests.production.service import REDIS_START, Players, answer_form, seat_paths, start_redis, start_web

pytestmark = [pytest.mark.production, pytest.mark.django_db(transaction=True)]

BEFORE_S = 10.0  # play this long before Redis stops
OUTAGE_S = 30.0  # Redis is away this long
AFTER_S = 10.0  # and play this long after it is back
SETTLE_S = 6.0  # rows written this long after Redis is back are queued again (the breakers' pause is 5 s)
WEB_WORKERS = 2
PER_ADDRESS = int(limits.MAIL_PER_ADDRESS.split("/")[0])
_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@dataclass
class TimedPlayers(Players):
    """Players who also note when they saw each thing and how long it took, to tell phases apart."""

    timeline: list[tuple[float, str, float]] = field(default_factory=list)

    def _seen(self, what: str, took: float, detail: str = "") -> None:
        super()._count(what, detail)
        with self._lock:
            self.timeline.append((time.monotonic(), what, took))

    def _play(self, path: str) -> None:
        session = requests.Session()
        while not self._stop.is_set():
            try:
                t = time.monotonic()
                page = session.get(self.base + path, timeout=30)
                self._seen(f"page {page.status_code}", time.monotonic() - t, _bad(page))
                form = answer_form(page.text) if page.status_code == 200 else None
                if form is not None:
                    t = time.monotonic()
                    sent = session.post(
                        self.base + path, data=form, timeout=30, allow_redirects=False, headers={"Referer": self.base}
                    )
                    self._seen(f"answer {sent.status_code}", time.monotonic() - t, _bad(sent))
            except requests.RequestException as e:
                self._seen("page refused", 0.0, f"{type(e).__name__}: {e}"[:300])
            self._stop.wait(self.pause)

    def sign_ins(self, address: list[str], every: float = 1.0) -> threading.Thread:
        """Someone at the sign-in page asking for a link for `address[0]` (the test changes it), once
        `every` seconds; counts 'sign-in page 200', 'sign-in 200', 'sign-in 429'... and per address."""

        def ask() -> None:
            session = requests.Session()
            while not self._stop.is_set():
                try:
                    t = time.monotonic()
                    page = session.get(f"{self.base}/sign-in/", timeout=30)
                    self._seen(f"sign-in page {page.status_code}", time.monotonic() - t, _bad(page))
                    token = _CSRF.search(page.text) if page.status_code == 200 else None
                    if token:
                        to = address[0]
                        t = time.monotonic()
                        sent = session.post(
                            f"{self.base}/sign-in/",
                            data={"email": to, "csrfmiddlewaretoken": token.group(1)},
                            timeout=30,
                            headers={"Referer": self.base},
                        )
                        self._seen(f"sign-in {sent.status_code}", time.monotonic() - t, _bad(sent))
                        self._seen(f"sign-in {sent.status_code} {to}", 0.0)
                except requests.RequestException as e:
                    self._seen("page refused", 0.0, f"{type(e).__name__}: {e}"[:300])
                self._stop.wait(every)

        thread = threading.Thread(target=ask, daemon=True)
        thread.start()
        self._threads.append(thread)
        return thread

    def between(self, start: float, end: float) -> Counter:
        with self._lock:
            return Counter(what for t, what, _ in self.timeline if start <= t < end)

    def slowest(self, start: float, end: float, prefix: str) -> float:
        with self._lock:
            return max(
                (took for t, what, took in self.timeline if start <= t < end and what.startswith(prefix)), default=0
            )


def _bad(response: requests.Response) -> str:
    return "" if response.status_code < 500 else f"{response.status_code} {response.url}: {response.text[:300]}"


def _listening() -> bool:
    """Whether anything listens on Redis's port (at once: service.redis_up() retries for seconds
    while Redis is down, as redis-py 8's client does by default)."""
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.5):
            return True
    except OSError:
        return False


def _start_redis() -> None:
    """Start Redis with the command scripts/test and service.start_redis() use; waits until it answers."""
    subprocess.run(REDIS_START, check=True, capture_output=True, timeout=30)
    start_redis()


def _stop_redis() -> None:
    """Shut the real Redis down without saving: it comes back empty, as after a crash."""
    subprocess.run(
        ["redis-cli", "-h", "127.0.0.1", "-p", "6379", "shutdown", "nosave"], capture_output=True, timeout=10
    )
    deadline = time.monotonic() + 10
    while _listening():
        assert time.monotonic() < deadline, "Redis did not stop"
        time.sleep(0.1)


def _events() -> int:
    return Event.objects.count()


def _phases(players: TimedPlayers, marks: dict[str, float]) -> dict[str, Counter]:
    return {
        "before": players.between(marks["started"], marks["went"]),
        "outage": players.between(marks["went"], marks["back"]),
        "after": players.between(marks["back"], marks["ended"] + 1),
    }


def _report(phases: dict[str, Counter], players: TimedPlayers, marks: dict[str, float], web_log: str) -> None:
    lines = ["", f"Redis stopped under load: away {marks['back'] - marks['went']:.1f} s"]
    for name, seen in phases.items():
        pages = sum(n for what, n in seen.items() if what.startswith(("page ", "sign-in page ")))
        answers = sum(n for what, n in seen.items() if what.startswith("answer "))
        sign_ins = sum(n for what, n in seen.items() if re.fullmatch(r"sign-in \d+", what))
        errors = Players.server_errors(Counter({w: n for w, n in seen.items() if not w.endswith(".org")}))
        start, end = {"before": ("started", "went"), "outage": ("went", "back"), "after": ("back", "ended")}[name]
        slow = players.slowest(marks[start], marks[end], "answer ")
        lines.append(
            f"  {name}: pages {pages}, answers {answers}, sign-in requests {sign_ins}, server errors {errors}, "
            f"slowest answer {slow:.2f} s"
        )
        lines.append(f"    {dict(sorted((w, n) for w, n in seen.items() if not w.endswith('.org')))}")
    lines.append(
        f"  web log: {web_log.count('Traceback')} tracebacks; {web_log.count('Redis cache unreachable')} 'cache "
        f"unreachable' and {web_log.count('could not queue')} 'could not queue' warnings (one an outage a process)"
    )
    print("\n".join(lines))
    if players.errors:
        print("  first errors seen:", *players.errors[:3], sep="\n    ")


def test_pages_answers_and_sign_in_keep_working_while_redis_is_down(organiser, django_db_blocker, tmp_path, settings):
    test_db = database_settings(django_db_blocker)
    games = [
        organise.start_game(
            organise.create_game(
                organiser, "pebbles", f"Redis table {i}", {"pile": 100000}, [f"r{i}a@example.com", f"r{i}b@example.com"]
            )
        )
        for i in range(6)
    ]
    (tmp_path / "worker").mkdir()
    workers = [start_worker(test_db, tmp_path / "worker", QUEUE)]
    try:
        _play_through_an_outage(games, test_db, tmp_path, workers, settings)
    finally:
        for worker in workers:
            worker.stop()


def _play_through_an_outage(games: list[Game], test_db: dict, tmp_path, workers: list, settings) -> None:
    web = start_web(test_db, tmp_path, QUEUE, workers=WEB_WORKERS)
    players = TimedPlayers(web.url, seat_paths(games))
    assert len(players.paths) == 12
    address = ["before@example.org"]
    marks: dict[str, float] = {}
    stayed_down = True
    try:
        marks["started"] = time.monotonic()
        players.start()
        players.sign_ins(address)
        time.sleep(BEFORE_S)

        address[0] = "outage@example.org"
        events_went = _events()
        marks["went"] = time.monotonic()
        _stop_redis()
        deadline = marks["went"] + OUTAGE_S
        while time.monotonic() < deadline:
            stayed_down = stayed_down and not _listening()
            time.sleep(0.5)
        events_back = _events()
        address[0] = "after@example.org"
        _start_redis()
        marks["back"] = time.monotonic()
        back_wall = timezone.now()

        time.sleep(AFTER_S)
        players.stop()
        marks["ended"] = time.monotonic()
    finally:
        players.stop()
        web.stop()
        start_redis()  # whatever happened: other tests need it

    phases = _phases(players, marks)
    _report(phases, players, marks, web.proc.output())
    assert stayed_down, "someone started Redis again during the outage: the counts above do not show one"
    seen, outage = players.seen, phases["outage"]
    assert Players.server_errors(seen) == 0, f"people saw server errors: {players.errors[:3]}"
    assert seen["page refused"] == 0, f"connections refused or timed out: {players.errors[:3]}"
    assert outage["answer 302"] > 0 and events_back > events_went, "answers were not played while Redis was down"
    assert phases["after"]["answer 302"] > 0, "answers were not played after Redis was back"
    # sign-in works while Redis is down, and its limit still holds, counted in each web process
    accepted, refused = seen["sign-in 200 outage@example.org"], seen["sign-in 429 outage@example.org"]
    assert 1 <= accepted <= PER_ADDRESS * WEB_WORKERS, f"{accepted} links for one address while Redis was down"
    assert refused >= 1, "the per-address limit refused nothing while Redis was down"
    assert seen["sign-in 200 after@example.org"] >= 1, "no sign-in after Redis was back"
    warned = web.proc.output().count("Redis cache unreachable")
    assert 1 <= warned <= WEB_WORKERS, f"{warned} warnings of the outage: one a web process, not one a request"

    # A worker that died in the outage is started again, as systemd's Restart=on-failure does (deploy/):
    # Celery 5.7 can die of the connection loss itself (an AttributeError closing the lost connection).
    if not workers[-1].alive():
        crash = [line for line in workers[-1].output().splitlines() if "Unrecoverable error" in line]
        print(f"  the worker died in the outage ({crash[-1] if crash else 'no error logged'}): started again")
        workers.append(start_worker(test_db, tmp_path / "worker", QUEUE))
    worker = workers[-1]
    # the worker takes new mail through Redis again once it is back ...
    settled = back_wall + timedelta(seconds=SETTLE_S)
    after_back = Notification.objects.filter(created_at__gt=settled)
    wait_for(
        lambda: after_back.exists() and not after_back.exclude(status=Notification.Status.SENT).exists(),
        60,
        "the worker to send the mail written after Redis was back",
        worker,
    )
    # ... and beat's sweep, which takes rows two minutes old, queues what waited for it: here the
    # rows never queued are made three minutes older instead of waiting, and the sweep queues them
    # to the worker through Redis. Every row is sent exactly once.
    waited = Notification.objects.filter(status=Notification.Status.PENDING, next_attempt_at__isnull=True)
    left = waited.update(created_at=F("created_at") - timedelta(minutes=3))
    settings.CELERY_TASK_ALWAYS_EAGER = False
    assert celery_app.conf.task_always_eager is False
    swept = 0
    for _ in range(50):
        n = tasks.sweep()["mail"]
        swept += n
        if n == 0:
            break
    wait_for(
        lambda: not Notification.objects.exclude(status=Notification.Status.SENT).exists(),
        60,
        "the worker to send every row the sweep queued",
        worker,
    )
    rows = Notification.objects.all()
    print(f"  mail: {rows.count()} rows; {left} waited for the sweep, which queued {swept}")
    assert left > 0 and swept >= left, "the outage left no mail for the sweep, or the sweep did not queue it"
    tries = Counter(rows.values_list("attempts", flat=True))
    assert set(tries) == {1}, f"rows by number of tries: {dict(tries)} (each must be sent once)"
    for game in games:
        game = Game.objects.get(pk=game.pk)
        assert not replay.rebuild_differs(game), f"{game.name}: the log does not replay to the stored state"
