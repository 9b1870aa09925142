"""From an answer's commit to each channel's message handed over: p50 and p95, embedded and production.

A player answers; the write path commits the answer with the next seat's outbox rows (an email, and
a row per push device or chat webhook that person turned on) and queues them for the mail worker.
The latency a player feels is from that commit until each channel's far end has the message (the
row's `sent_at`, written once the mail server, push service or webhook took it). Measured twice,
each in a child process of its own (settings load once per process):

- embedded: SQLite, Celery over a SQLite file, the local outbox, workers as `scripts/serve` starts them;
- production: PostgreSQL, Redis, workers as the Procfile starts them.

Baseline, measured in the same run on the same workers: a sign-in email (the lightest row the outbox
sends: no table to draw), from its commit to handed over. The push service and the chat webhook are
servers of this process on 127.0.0.1 (as in the tests), which answer at once.

Prints the load average, then one line per mode and channel:
notify_latency: mode=M channel=C n=N p50_ms=A p95_ms=B baseline_p50_ms=X baseline_p95_ms=Y
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TITLE = "cafe_baras"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


# --- the parent: one child per mode -----------------------------------------------------------


def child_env(mode: str, var: Path, queue: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "CELERY_", "EMAIL_", "REDIS_"))}
    env.update(
        VAR_DIR=str(var),
        PYTHONUNBUFFERED="1",
        SECRET_KEY="bench-notify-latency",
        CELERY_TASK_ALWAYS_EAGER="false",
        CELERY_TASK_DEFAULT_QUEUE=queue,
        CELERY_MAIL_QUEUE=f"{queue}.mail",
        CHANNEL_ALLOWED_HOSTS="127.0.0.1",
        CHAT_LOCAL="0",
        PUSH_LOCAL_HOSTS="127.0.0.1",
    )
    if mode == "production":
        env["DATABASE_URL"] = "postgres://postgres@127.0.0.1:5432/cafe_bench_notify"
        env["REDIS_URL"] = "redis://127.0.0.1:6379/13"
        env["EMAIL_BACKEND"] = "anymail.backends.test.EmailBackend"
    return env


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--answers", type=int, default=60, help="answers per mode")
    parser.add_argument("--modes", default="embedded,production")
    parser.add_argument("--mode", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.mode:
        run_mode(args.mode, args.answers)
        return
    print(f"load: {Path('/proc/loadavg').read_text().strip()}", flush=True)
    for mode in args.modes.split(","):
        with tempfile.TemporaryDirectory(prefix="notify-latency-") as var:
            env = child_env(mode, Path(var), f"bench-notify-{uuid.uuid4().hex[:8]}")
            done = subprocess.run(
                [sys.executable, __file__, "--mode", mode, "--answers", str(args.answers)], env=env, cwd=ROOT
            )
            if done.returncode:
                sys.exit(f"{mode}: the run failed ({done.returncode})")
    print(f"load: {Path('/proc/loadavg').read_text().strip()}", flush=True)


# --- a child: one mode -------------------------------------------------------------------------


def start_workers(queue: str, var: Path) -> list[subprocess.Popen]:
    """The two workers `scripts/serve` and the Procfile start: the default queue and mail's own."""
    procs = []
    for name, q in (("worker", queue), ("mailer", f"{queue}.mail")):
        log = (var / f"{name}.log").open("w")
        cmd = [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", q, "--pool", "solo"]
        cmd += ["-n", f"{name}-{queue}@%h", "--without-mingle", "--without-gossip", "--loglevel", "INFO"]
        procs.append(subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True))
    deadline = time.monotonic() + 90
    for name in ("worker", "mailer"):
        while " ready." not in (var / f"{name}.log").read_text(errors="replace"):
            if time.monotonic() > deadline:
                sys.exit(f"the {name} did not start:\n{(var / f'{name}.log').read_text()[-3000:]}")
            time.sleep(0.2)
    return procs


def prepare_database(mode: str) -> None:
    if mode == "production":
        import psycopg

        url = os.environ["DATABASE_URL"]
        name = url.rsplit("/", 1)[1]
        with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
            conn.execute(f'drop database if exists "{name}" with (force)')
            conn.execute(f'create database "{name}"')
    import django

    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def wait_sent(pks: list[int], timeout: float = 60) -> dict[int, tuple[str, float]]:
    """Each row's channel and the moment it was handed over (epoch seconds)."""
    from games.models import Notification

    deadline = time.monotonic() + timeout
    while True:
        rows = list(Notification.objects.filter(pk__in=pks).values_list("pk", "status", "sent_at", *_channel_field()))
        if all(r[1] in ("sent", "gave_up") for r in rows) or time.monotonic() > deadline:
            return {
                r[0]: ((r[3] if len(r) > 3 else "email"), r[2].timestamp())
                for r in rows
                if r[1] == "sent" and r[2] is not None
            }
        time.sleep(0.01)


def _channel_field() -> tuple[str, ...]:
    from games.models import Notification

    return ("channel",) if any(f.name == "channel" for f in Notification._meta.fields) else ()


def run_mode(mode: str, answers: int) -> None:
    prepare_database(mode)
    from django.db import transaction

    from accounts import mailing
    from accounts.models import User
    from config.celery import app
    from games.actions import organise, play
    from games.models import Notification
    from games.titles import get_title

    queue = os.environ["CELERY_TASK_DEFAULT_QUEUE"]
    app.conf.task_default_queue = queue
    var = Path(os.environ["VAR_DIR"])
    extras = channel_extras()
    procs = start_workers(queue, var)
    try:
        organiser, _ = User.objects.get_or_create(email="bench-host@example.com", defaults={"is_staff": True})
        title = get_title(TITLE)
        rng = random.Random(7)
        games = [
            organise.start_game(
                organise.create_game(
                    organiser, TITLE, f"Latency {i}", {}, [f"g{i}p0@example.com", f"g{i}p1@example.com"]
                )
            )
            for i in range(max(1, answers // 10))
        ]
        for user in User.objects.filter(email__startswith="g"):
            extras.add_targets(user)
        wait_sent(list(Notification.objects.values_list("pk", flat=True)), timeout=120)  # invitations, first moves

        baseline: list[float] = []
        for i in range(max(10, answers // 3)):
            user = User.objects.get(email=f"g{i % len(games)}p0@example.com")
            with transaction.atomic():
                mailing.mail_sign_in(user)
            committed = time.time()
            pk = Notification.objects.filter(kind="sign_in").latest("pk").pk
            for _channel, at in wait_sent([pk]).values():
                baseline.append(at - committed)

        by_channel: dict[str, list[float]] = {}
        played = 0
        while played < answers:
            for game in games:
                game.refresh_from_db()
                if game.status != "active" or played >= answers:
                    continue
                seat = min(title.prompts(game.state))
                answer = title.bot_answer(game.state, seat, rng)
                before = Notification.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
                play.submit(game.id, seat, answer, game.version, via="web")
                committed = time.time()
                played += 1
                pks = list(Notification.objects.filter(pk__gt=before, game=game).values_list("pk", flat=True))
                for channel, at in wait_sent(pks).values():
                    by_channel.setdefault(channel, []).append(at - committed)
        failed = Notification.objects.exclude(status="sent").exclude(kind="sign_in")
        for channel, error in failed.values_list(*_channel_field(), "last_error").distinct()[:5]:
            print(f"notify_latency: mode={mode} not sent on {channel}: {error[:200]}", flush=True)
        for channel, values in sorted(by_channel.items()):
            print(
                f"notify_latency: mode={mode} channel={channel} n={len(values)} "
                f"p50_ms={statistics.median(values) * 1000:.0f} p95_ms={percentile(values, 0.95) * 1000:.0f} "
                f"baseline_p50_ms={statistics.median(baseline) * 1000:.0f} "
                f"baseline_p95_ms={percentile(baseline, 0.95) * 1000:.0f}",
                flush=True,
            )
    finally:
        extras.stop()
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()


class NoExtras:
    """No channel beside email (before channels exist, or when they cannot be set up)."""

    def add_targets(self, user) -> None:
        pass

    def stop(self) -> None:
        pass


def channel_extras():
    """Each person a push device and a Discord-format webhook on local servers, when those channels exist."""
    try:
        sys.path.insert(0, str(ROOT))
        from tests.support.channel_servers import LocalChannels
    except ImportError:
        return NoExtras()
    return LocalChannels()


if __name__ == "__main__":
    main()
