"""Opening a seat's page: a game with 10 events against one with 5,000 (PostgreSQL).

The page reads the projection, never the log, so the ratio should stay near 1.
Prints: load: events_10_ms=A events_5000_ms=B ratio=R
"""

from __future__ import annotations

import random
import statistics
import time

from _setup import django_ready


def build_game(events: int, name: str):
    """A Pebbles game played by bots through the pure engine to `events` steps, stored as its log."""
    from django.utils import timezone

    from accounts.models import User
    from games.engine import step_rng
    from games.models import Event, Game, Seat
    from games.titles import get_title

    title = get_title("pebbles")
    org, _ = User.objects.get_or_create(email="bench-org@example.com", defaults={"is_staff": True})
    players = [User.objects.get_or_create(email=f"{name}-p{i}@example.com")[0] for i in range(2)]
    seed = f"load-{name}"
    options = {"pile": events * 2}
    state = title.setup(["p0", "p1"], options, step_rng(seed, 0))
    log = [Event(seq=0, kind="created", payload={"seed": seed, "players": ["p0", "p1"], "options": options})]
    rng = random.Random(1)
    for seq in range(1, events):
        seat = min(title.prompts(state))
        answer = title.bot_answer(state, seat, rng)
        state = title.apply(state, seat, answer, step_rng(seed, seq))
        log.append(Event(seq=seq, kind="answer", seat=seat, payload={"answer": answer}, via="web"))
    game = Game.objects.create(
        title="pebbles",
        name=name,
        organiser=org,
        status="active",
        state=state,
        version=events - 1,
        seed=seed,
        options=options,
        to_move="p0",
        waiting_since=timezone.now(),
    )
    for e in log:
        e.game = game
    Event.objects.bulk_create(log, batch_size=1000)
    seats = [Seat.objects.create(game=game, index=i, player=p) for i, p in enumerate(players)]
    return game, seats


def medians_ms(client, urls: list[str], rounds: int = 200) -> list[float]:
    """The median time to open each page, taking them in turn so that the machine's drift (other
    jobs, CPU frequency) falls on all of them alike."""
    for url in urls:
        client.get(url)  # warm
    times: list[list[float]] = [[] for _ in urls]
    for _ in range(rounds):
        for i, url in enumerate(urls):
            t0 = time.perf_counter()
            r = client.get(url)
            times[i].append((time.perf_counter() - t0) * 1000)
            assert r.status_code == 200, r.status_code
    return [statistics.median(t) for t in times]


def main() -> None:
    django_ready()
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from games import links

    urls, results = [], {}
    for events in (10, 5000):
        game, seats = build_game(events, f"g{events}")
        urls.append(reverse("seat", args=[links.token_for(seats[0])]))
        print(f"{events} events: log lines in the state={len(game.state['log'])}")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # as autovacuum would have done for tables this size
    results[10], results[5000] = medians_ms(Client(), urls)
    print(
        f"load: events_10_ms={results[10]:.2f} events_5000_ms={results[5000]:.2f} "
        f"ratio={results[5000] / results[10]:.2f}"
    )


if __name__ == "__main__":
    main()
