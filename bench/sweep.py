"""One deadline sweep over 10,000 games with an overdue seat (PostgreSQL, Redis).

Without --workers, the sweep runs here, in one process. Prints:
  sweep: title=T games=N overdue=N timed_out=N seconds=S per_s=R
With --workers 1,2 (or --workers 1 --workers 2), for each N: the games are built afresh, one real
`celery worker --pool prefork --concurrency N` starts on a queue of its own, and the clock starts
as beat's dispatching sweep queues the batches; it stops when the database shows no overdue seat
left. Prints, after the load average at that moment:
  sweep: title=T workers=N games=N overdue=N timed_out=N seconds=S per_s=R
(`--title cafe_baras` for a real title's states, engine and emails instead of the tiny test title)
`--clocks off,on` runs the same sweep twice in one process, on games built afresh each time: first
with the plain 24-hour clock, then with issue 16's clocks on (a time bank with an increment and a
cap, quiet weekdays, players' quiet hours and reminder points, automatic vacation: half the games
have vacation days left, so their overdue seat draws vacation hours; the other half time out).
The figure counts the overdue seats handled, a drawn vacation hour as much as a timeout.
`--clocks spent` is "on" with every allowance used up: every overdue seat times out through the bank.
With --workers too, each clock mode runs with each worker count (games built afresh every time).
The email tasks the batches queue are left out of the time (they queue behind the batches) and
thrown away, as the in-process sweep leaves them queued.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

from _setup import ROOT, django_ready

# issue 16's clocks, all on (see the docstring); quiet days that are not today, so no deadline moves far
CLOCKS_ON = {"bank_hours": 72, "bank_increment_hours": 24, "bank_cap_hours": 120, "auto_vacation": True}
PLAYER_CLOCK = {"quiet_hours": "23:00-07:00", "reminder_points": "24h,4h,1h"}


def build(n: int, slug: str = "pebbles", clocks: str = "off") -> None:
    """N started games, each with every seat asked at the start overdue by an hour.

    Pebbles (the tests' tiny title): one seat already answered, the other overdue. A real title
    (e.g. cafe_baras): its own setup, with its card set as the service stores it.
    """
    from django.utils import timezone

    from accounts.models import User
    from games.clock.terms import WEEKDAYS
    from games.engine import step_rng
    from games.engine.cards import content_hash
    from games.models import Event, Game, Seat
    from games.titles import get_title

    title = get_title(slug)
    org = User.objects.create_user("bench-org@example.com", "x", is_staff=True)
    on = clocks in ("on", "spent")
    people = PLAYER_CLOCK if on else {}
    players = User.objects.bulk_create([User(email=f"p{i}@example.com", **people) for i in range(2)])
    past = timezone.now() - timedelta(hours=1)
    tomorrow = (timezone.now() + timedelta(days=1)).weekday()
    clock = {"decision_hours": 24}
    if on:
        clock = {
            **CLOCKS_ON,
            "quiet_days": ",".join(d for i, d in enumerate(WEEKDAYS) if i in {tomorrow, (tomorrow + 1) % 7}),
        }
    options: dict = {}
    load = title.load_cardset
    if load is not None:
        options["cardset"] = load()
    games, seats, events = [], [], []
    for i in range(n):
        seed = f"bench{i}"
        state = title.setup(["p0", "p1"], options, step_rng(seed, 0))
        version = 0
        if slug == "pebbles":
            state, version = title.apply(state, 1, 2, step_rng(seed, 1)), 1  # p1 hid already; p0 is overdue
        asked = set(title.prompts(state))
        g = Game(
            title=slug,
            name=f"Bench {i}",
            organiser=org,
            status="active",
            state=state,
            version=version,
            seed=seed,
            cardset_hash=content_hash(options["cardset"]) if options else "",
            **clock,
            vacation_days=0 if clocks == "spent" or (on and i % 2 == 0) else 14,
            to_move=", ".join(f"p{k}" for k in sorted(asked)),
            waiting_since=past,
        )
        games.append(g)
    Game.objects.bulk_create(games, batch_size=500)
    for g in games:
        asked = set(title.prompts(g.state))
        for k in range(2):
            due = past if k in asked else None
            banked = {"bank_seconds": 0, "clock_since": past - timedelta(hours=72)} if on and due else {}
            seats.append(Seat(game=g, index=k, player=players[k], waiting_since=due, deadline=due, **banked))
        events.append(Event(game=g, seq=0, kind="created", payload={"seed": g.seed, "players": ["p0", "p1"]}))
        if g.version == 1:
            events.append(Event(game=g, seq=1, kind="answer", seat=1, payload={"answer": 2}, via="web"))
    Seat.objects.bulk_create(seats, batch_size=2000)
    Event.objects.bulk_create(events, batch_size=2000)


def reset() -> None:
    """Empty the tables build() fills (stored card catalogues stay: this process remembers them)."""
    from django.apps import apps
    from django.db import connection

    from accounts.models import User
    from games.models import SharedPart

    tables = [m._meta.db_table for m in apps.get_app_config("games").get_models() if m is not SharedPart]
    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {', '.join([*tables, User._meta.db_table])} RESTART IDENTITY CASCADE")


def overdue_count(now) -> int:
    from games.models import Seat

    return Seat.objects.filter(game__status="active", deadline__lte=now).count()


def in_process(title: str, games: int, clocks: str = "off") -> None:
    """The sweep in this one process, as tests and a direct `deadlines.sweep()` run it."""
    from django.utils import timezone

    from games.actions import deadlines
    from games.models import Vacation

    now = timezone.now()
    overdue = overdue_count(now)
    t0 = time.perf_counter()
    result = deadlines.sweep(now)
    seconds = time.perf_counter() - t0
    again = deadlines.sweep(now)["timed_out"]
    drawn = Vacation.objects.filter(automatic=True).values("seat").distinct().count()
    handled = overdue - overdue_count(now)
    print(
        f"second sweep timed out {again} (must be 0); seats on drawn vacation {drawn}; overdue left {overdue - handled}"
    )
    print(
        f"sweep: title={title} clocks={clocks} games={games} overdue={overdue} timed_out={result['timed_out']} "
        f"drawn={drawn} seconds={seconds:.2f} per_s={handled / seconds:.0f}",
        flush=True,
    )


class Workers:
    """One `celery worker --pool prefork --concurrency N` on a queue of its own, against this database."""

    def __init__(self, n: int, log: Path):
        from django.conf import settings

        self.queue = f"cafe-bench-{uuid.uuid4().hex[:12]}"
        self.log = log
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "PYTEST_"))}
        env.update(
            CAFE_TEST_QUEUE=self.queue,  # read by tests/production/worker_app.py (which knows pebbles)
            CELERY_TASK_ALWAYS_EAGER="false",
            REDIS_URL=settings.CELERY_BROKER_URL,
            PYTHONUNBUFFERED="1",
        )
        cmd = [sys.executable, "-m", "celery", "-A", "tests.production.worker_app", "worker"]
        cmd += ["--pool", "prefork", "--concurrency", str(n), "-Q", self.queue, "-n", f"{self.queue}@%h"]
        cmd += ["--without-mingle", "--without-gossip", "--without-heartbeat", "--loglevel", "INFO"]
        with log.open("w") as out:
            self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)

    def wait_ready(self, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while " ready." not in self.log.read_text(errors="replace"):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                sys.exit(f"the Celery worker did not start:\n{self.log.read_text(errors='replace')[-4000:]}")
            time.sleep(0.2)

    def purge(self) -> None:
        from config.celery import app

        with app.connection_for_write() as conn:
            conn.default_channel.queue_purge(self.queue)

    def stop(self) -> None:
        """Drop what is still queued (the emails), let the running tasks finish, and stop."""
        self.purge()
        self.proc.terminate()
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        self.purge()  # anything a stopping worker handed back


def with_workers(title: str, games: int, n: int, logs: Path, clocks: str = "off") -> None:
    """Beat's dispatching sweep, with N worker processes sharing its batches; timed until none is overdue."""
    from django.utils import timezone

    from config.celery import app
    from games.actions import deadlines
    from games.models import Event, Vacation

    workers = Workers(n, logs / f"worker-{title}-{n}.log")
    app.conf.task_default_queue = workers.queue  # this process queues the batches there
    try:
        workers.wait_ready()
        now = timezone.now()
        overdue = overdue_count(now)
        t0 = time.perf_counter()
        deadlines.fan_out(now)
        while overdue_count(now):
            if workers.proc.poll() is not None:
                sys.exit(f"the worker died:\n{workers.log.read_text(errors='replace')[-4000:]}")
            time.sleep(0.05)
        seconds = time.perf_counter() - t0
    finally:
        workers.stop()
    timed_out = Event.objects.filter(kind="timeout").count()
    drawn = Vacation.objects.filter(automatic=True).values("seat").distinct().count()
    again = deadlines.sweep(now)["timed_out"]
    print(
        f"second sweep timed out {again} (must be 0); timeout events {timed_out} + seats on drawn vacation "
        f"{drawn} (must be {overdue})"
    )
    print(f"load: {Path('/proc/loadavg').read_text().strip()}")
    print(
        f"sweep: title={title} clocks={clocks} workers={n} games={games} overdue={overdue} timed_out={timed_out} "
        f"drawn={drawn} seconds={seconds:.2f} per_s={overdue / seconds:.0f}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--title", default="pebbles", help="pebbles (tiny, the default) or a real title's slug")
    parser.add_argument("--workers", action="append", default=[], help="worker processes: 2, or 1,2 (repeatable)")
    parser.add_argument("--clocks", default="off", help="off, on, spent, or a list (off,on): issue 16's clocks")
    args = parser.parse_args()
    counts = [int(n) for arg in args.workers for n in arg.split(",") if n.strip()]
    modes = [m.strip() for m in args.clocks.split(",") if m.strip() in ("off", "on", "spent")] or ["off"]
    django_ready()
    if not counts:
        for i, mode in enumerate(modes):
            if i:
                reset()
            build(args.games, args.title, clocks=mode)
            in_process(args.title, args.games, mode)
        return
    logs = Path(os.environ.get("VAR_DIR", "/tmp")) / "bench-sweep"
    logs.mkdir(parents=True, exist_ok=True)
    for i, (mode, n) in enumerate((mode, n) for mode in modes for n in counts):
        if i:
            reset()
        build(args.games, args.title, clocks=mode)
        with_workers(args.title, args.games, n, logs, mode)


if __name__ == "__main__":
    main()
