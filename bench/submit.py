"""Answers submitted over HTTP (gunicorn, PostgreSQL, Redis) against a bare Django view, same run.

Each answer is a real form POST to a seat page (CSRF token, version and question key read from
the page first, as a browser does); the baseline is GET /healthz/ (one trivial query).
The answers, the smallest durable write (lock a row, update it, commit; bench/_floor.py serves
it behind the same middleware) and the bare view take turns in --rounds rounds. Prints that floor
in process and over HTTP (no answer path that commits its answer can beat it), the load average,
then: submit: answers_per_s=A bare_per_s=B ratio=R of_floor=F (F: answers against the floor).
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from _setup import REFERENCE, ROOT, django_ready

PORT = 8765


def start_server(workers: int) -> subprocess.Popen:
    env = {**os.environ, "ALLOWED_HOSTS": "127.0.0.1,localhost", "SITE_URL": f"http://127.0.0.1:{PORT}"}
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    proc = subprocess.Popen(
        [
            gunicorn,
            "bench._floor:application",
            "-b",
            f"127.0.0.1:{PORT}",
            "-w",
            str(workers),
            "--threads",
            "4",
            "-k",
            "gthread",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    for _ in range(100):
        try:
            c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=2)
            c.request("GET", "/healthz/")
            if c.getresponse().status == 200:
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("gunicorn did not start")


def prepare(n: int, title: str) -> list[tuple[str, str, str]]:
    """N two-player games of `title`; for each, the first player's path, its cookie and the form body to post."""
    from django.db import connection

    from accounts.models import User
    from games import links
    from games.actions import organise

    org = User.objects.create_user("bench-org@example.com", "x", is_staff=True)
    forms = []
    local = threading.local()

    def conn():
        if not hasattr(local, "c"):
            local.c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        return local.c

    seats = []
    for i in range(n):
        game = organise.create_game(org, title, f"Submit {i}", {}, [f"a{i}@example.com", f"b{i}@example.com"])
        organise.start_game(game)
        game.refresh_from_db()
        first = min(game.engine.prompts(game.state))
        seats.append(game.seats.get(index=first))
    connection.close()

    def page(seat) -> tuple[str, str, str]:
        path = f"/play/{links.token_for(seat)}/"
        c = conn()
        c.request("GET", path)
        r = c.getresponse()
        html = r.read().decode()
        if r.status != 200 or not r.getheader("Set-Cookie"):
            raise SystemExit(f"seat page: {r.status} {html[:300]}")
        cookie = r.getheader("Set-Cookie").split(";")[0]
        token = cookie.split("=", 1)[1]
        version = re.search(r'name="version" value="(\d+)"', html).group(1)
        key = re.search(r'name="prompt_key" value="([^"]+)"', html).group(1)
        answer = re.search(r'name="answer" value="([^"]+)"', html).group(1)
        body = f"csrfmiddlewaretoken={token}&version={version}&prompt_key={key}&answer={answer}"
        return path, cookie, body

    with ThreadPoolExecutor(8) as pool:
        forms = list(pool.map(page, seats))
    return forms


def hammer(requests: list[tuple[str, str, str | None, str]], clients: int) -> float:
    """Send every request from `clients` keep-alive connections; returns the seconds it took."""
    local = threading.local()
    errors = []

    def send(req):
        method, path, cookie, body = req
        if not hasattr(local, "c"):
            local.c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        headers = {"Content-Type": "application/x-www-form-urlencoded"} if body else {}
        if cookie:
            headers["Cookie"] = cookie
        local.c.request(method, path, body=body, headers=headers)
        r = local.c.getresponse()
        r.read()
        if r.status not in (200, 302):
            errors.append(r.status)

    t0 = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(send, requests))
    seconds = time.perf_counter() - t0
    if errors:
        raise SystemExit(f"{len(errors)} requests failed: {errors[:5]}")
    return seconds


def floor(n: int = 300) -> str:
    """In process, one at a time: the bare view, and the least an answer must do to be durable (lock
    the game's row, update it, commit, which waits for the WAL flush). Their ratio bounds what
    any answer path can reach against the bare view on this machine."""
    from django.db import transaction
    from django.test import Client
    from django.utils import timezone

    from games.models import Game

    client = Client(HTTP_HOST="127.0.0.1")
    game_id = Game.objects.filter(name__startswith="Submit ").values_list("pk", flat=True).first()

    def durable_write() -> None:
        with transaction.atomic():
            game = Game.objects.select_for_update().only("pk", "version").get(pk=game_id)
            Game.objects.filter(pk=game_id, version=game.version).update(updated_at=timezone.now())

    def ms(step) -> float:
        step()
        t0 = time.perf_counter()
        for _ in range(n):
            step()
        return (time.perf_counter() - t0) / n * 1000

    bare, write = ms(lambda: client.get("/healthz/")), ms(durable_write)
    return f"in process: bare_view_ms={bare:.2f} durable_write_ms={write:.2f} ceiling_ratio={bare / write:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--answers", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=5, help="answers, floor and bare view take turns this many times")
    parser.add_argument(
        "--title", default=REFERENCE, help=f"a title whose first question is a single pick ({REFERENCE})"
    )
    args = parser.parse_args()
    django_ready()
    server = start_server(args.workers)
    try:
        forms = prepare(args.answers, args.title)
        from games.models import Event, Game

        ids = list(Game.objects.filter(name__startswith="Submit ").values_list("pk", flat=True))
        answers = [("POST", p, c, b) for p, c, b in forms]
        floors = [("GET", f"/bench/floor/{ids[i % len(ids)]}/", None, "") for i in range(args.answers)]
        bares = [("GET", "/healthz/", None, "")] * args.answers
        # The three take turns in rounds, so that a neighbour's burst on this shared machine falls
        # on all three alike rather than on whichever ran at that moment.
        seconds = {"answer": 0.0, "floor": 0.0, "bare": 0.0}
        step = -(-args.answers // args.rounds)
        for start in range(0, args.answers, step):
            for kind, reqs in (("answer", answers), ("floor", floors), ("bare", bares)):
                seconds[kind] += hammer(reqs[start : start + step], args.clients)
        answer_s, floor_http, bare = (args.answers / seconds[k] for k in ("answer", "floor", "bare"))

        applied = Event.objects.filter(kind="answer", game__name__startswith="Submit ").count()
        print(f"answers applied: {applied} of {args.answers}")
        print(floor())
        print(f"load: {Path('/proc/loadavg').read_text().strip()}")
        print(
            f"over HTTP: durable_write_per_s={floor_http:.0f}, so no answer that commits can pass "
            f"ratio={floor_http / bare:.2f} here"
        )
        print(
            f"submit: answers_per_s={answer_s:.0f} bare_per_s={bare:.0f} ratio={answer_s / bare:.2f} "
            f"of_floor={answer_s / floor_http:.2f}"
        )
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
