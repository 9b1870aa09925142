"""One deadline sweep over 10,000 games with an overdue seat (PostgreSQL).

Prints: sweep: games=N overdue=N timed_out=N seconds=S per_s=R
"""

from __future__ import annotations

import argparse
import time
from datetime import timedelta

from _setup import django_ready


def build(n: int) -> None:
    """N started Pebbles games, each with one person whose deadline passed an hour ago."""
    from django.utils import timezone

    from accounts.models import User
    from games.engine import step_rng
    from games.models import Event, Game, Seat
    from games.titles import get_title

    title = get_title("pebbles")
    org = User.objects.create_user("bench-org@example.com", "x", is_staff=True)
    players = User.objects.bulk_create([User(email=f"p{i}@example.com") for i in range(2)])
    past = timezone.now() - timedelta(hours=1)
    games, seats, events = [], [], []
    for i in range(n):
        seed = f"bench{i}"
        state = title.setup(["p0", "p1"], {}, step_rng(seed, 0))
        state = title.apply(state, 1, 2, step_rng(seed, 1))  # p1 hid already; p0 is overdue
        games.append(
            Game(
                title="pebbles",
                name=f"Bench {i}",
                organiser=org,
                status="active",
                state=state,
                version=1,
                seed=seed,
                decision_hours=24,
                to_move="p0",
                waiting_since=past,
            )
        )
    Game.objects.bulk_create(games, batch_size=1000)
    for g in games:
        seats += [
            Seat(game=g, index=0, player=players[0], waiting_since=past, deadline=past),
            Seat(game=g, index=1, player=players[1]),
        ]
        events += [
            Event(game=g, seq=0, kind="created", payload={"seed": g.seed, "players": ["p0", "p1"], "options": {}}),
            Event(game=g, seq=1, kind="answer", seat=1, payload={"answer": 2}, via="web"),
        ]
    Seat.objects.bulk_create(seats, batch_size=2000)
    Event.objects.bulk_create(events, batch_size=2000)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    args = parser.parse_args()
    django_ready()
    from django.utils import timezone

    from games import services
    from games.models import Seat

    build(args.games)
    overdue = Seat.objects.filter(deadline__lte=timezone.now()).count()
    t0 = time.perf_counter()
    result = services.sweep()
    seconds = time.perf_counter() - t0
    again = services.sweep()["timed_out"]
    print(f"second sweep timed out {again} (must be 0)")
    print(
        f"sweep: games={args.games} overdue={overdue} timed_out={result['timed_out']} "
        f"seconds={seconds:.2f} per_s={result['timed_out'] / seconds:.0f}"
    )


if __name__ == "__main__":
    main()
