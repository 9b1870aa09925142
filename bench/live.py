"""The live seat page's check (games/views/live.py) against a bare view, in one run (PostgreSQL).

An open seat page asks its check every few seconds, so the check is what an idle table costs the
service. Its cost is measured against GET /healthz/ (config/health.py: one trivial query, the
benchmarks' baseline) both ways a deployment sees it:

- in process (Django's test client, one request at a time): the median time of a check answering
  "nothing new" (204) and "changed" (200), of the bare view, and the queries each check makes;
- over HTTP through gunicorn (as bench/submit.py serves the site), checks spread over many games'
  seats from several keep-alive clients, taking turns with the bare view in rounds so that a
  neighbour's burst on a shared machine falls on both alike.

Prints the load average, then:
live: check_ms=A changed_ms=B bare_ms=C ratio=R queries_per_check=Q checks_per_s=S bare_per_s=T http_ratio=H
(ratio and http_ratio: the check's cost over the bare view's; 1.00 would be free).
"""

from __future__ import annotations

import argparse
import http.client
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from _setup import ROOT, django_ready
from load import build_game

PORT = 8766  # not bench/submit.py's, so both may run on one machine


def start_server(workers: int) -> subprocess.Popen:
    env = {**os.environ, "ALLOWED_HOSTS": "127.0.0.1,localhost", "SITE_URL": f"http://127.0.0.1:{PORT}"}
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    command = [gunicorn, "bench._floor:application", "-b", f"127.0.0.1:{PORT}", "-w", str(workers)]
    command += ["--threads", "4", "-k", "gthread", "--log-level", "warning"]
    proc = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)
    for _ in range(100):
        try:
            c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=2)
            c.request("GET", "/healthz/")
            if c.getresponse().status == 200:
                return proc
        except OSError:
            time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGTERM)
    raise SystemExit("gunicorn did not start")


def check_paths(games: int) -> tuple[list[str], list[str]]:
    """For `games` Pebbles games: each seat's check with its page's marker (nothing new), and with an
    older one (changed)."""
    from django.urls import reverse

    from games import links
    from games.views.live import marker

    current, stale = [], []
    for i in range(games):
        game, seats = build_game(10, f"live{i}")
        for seat in seats:
            path = reverse("seat-live", args=[links.token_for(seat)])
            current.append(f"{path}?v={marker(game.version, game.last_message, game.status)}")
            stale.append(f"{path}?v={marker(game.version - 1, game.last_message, game.status)}")
    return current, stale


def in_process(current: list[str], stale: list[str], rounds: int) -> dict[str, float]:
    """Median milliseconds of a check (204 and 200) and of the bare view, one at a time, taking turns."""
    from django.db import connection
    from django.test import Client

    client = Client(HTTP_HOST="127.0.0.1")
    for path, status in ((current[0], 204), (stale[0], 200), ("/healthz/", 200)):
        assert client.get(path).status_code == status, path  # and warm
    queries = []  # every statement the checks send, counted as the database receives them

    def count(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        for path in current[:50] + stale[:50]:
            client.get(path)
    times: dict[str, list[float]] = {"check": [], "changed": [], "bare": []}
    for n in range(rounds):
        for kind, path in (
            ("check", current[n % len(current)]),
            ("changed", stale[n % len(stale)]),
            ("bare", "/healthz/"),
        ):
            t0 = time.perf_counter()
            client.get(path)
            times[kind].append((time.perf_counter() - t0) * 1000)
    result = {kind: statistics.median(t) for kind, t in times.items()}
    result["queries"] = len(queries) / 100
    return result


def hammer(paths: list[str], clients: int, expect: int) -> float:
    """GET every path from `clients` keep-alive connections; returns the seconds it took."""
    local = threading.local()
    wrong: list[int] = []

    def send(path: str) -> None:
        if not hasattr(local, "c"):
            local.c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        local.c.request("GET", path)
        r = local.c.getresponse()
        r.read()
        if r.status != expect:
            wrong.append(r.status)

    t0 = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(send, paths))
    seconds = time.perf_counter() - t0
    if wrong:
        raise SystemExit(f"{len(wrong)} requests answered otherwise than {expect}: {wrong[:5]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200, help="Pebbles games whose seats are checked")
    parser.add_argument("--requests", type=int, default=6000, help="checks (and as many bare views) over HTTP")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=6, help="checks and bare views take turns this many times")
    parser.add_argument("--in-process", type=int, default=600, help="requests of each kind in process")
    args = parser.parse_args()
    django_ready()
    from django.db import connection

    current, stale = check_paths(args.games)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # as autovacuum would have done
    local = in_process(current, stale, args.in_process)
    connection.close()
    server = start_server(args.workers)
    try:
        checks = [current[i % len(current)] for i in range(args.requests)]
        bares = ["/healthz/"] * args.requests
        seconds = {"check": 0.0, "bare": 0.0}
        step = -(-args.requests // args.rounds)
        for start in range(0, args.requests, step):
            seconds["check"] += hammer(checks[start : start + step], args.clients, 204)
            seconds["bare"] += hammer(bares[start : start + step], args.clients, 200)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)
    check_s, bare_s = args.requests / seconds["check"], args.requests / seconds["bare"]
    print(
        f"checked seats: {len(current)} in {args.games} games; over HTTP: {args.workers} gunicorn workers, "
        f"{args.clients} clients, {args.requests} requests of each kind"
    )
    print(f"load: {Path('/proc/loadavg').read_text().strip()}")
    print(
        f"live: check_ms={local['check']:.2f} changed_ms={local['changed']:.2f} bare_ms={local['bare']:.2f} "
        f"ratio={local['check'] / local['bare']:.2f} queries_per_check={local['queries']:.2f} "
        f"checks_per_s={check_s:.0f} bare_per_s={bare_s:.0f} http_ratio={bare_s / check_s:.2f}"
    )


if __name__ == "__main__":
    main()
