"""One deadline sweep over 10,000 games with an overdue seat (PostgreSQL).

Prints: sweep: title=T games=N overdue=N timed_out=N seconds=S per_s=R
(`--title cafe_baras` for a real title's states, engine and emails instead of the tiny test title)
"""

from __future__ import annotations

import argparse
import time
from datetime import timedelta

from _setup import django_ready


def build(n: int, slug: str = "pebbles") -> None:
    """N started games, each with every seat asked at the start overdue by an hour.

    Pebbles (the tests' tiny title): one seat already answered, the other overdue. A real title
    (e.g. cafe_baras): its own setup, with its card set as the service stores it.
    """
    from django.utils import timezone

    from accounts.models import User
    from games.engine import step_rng
    from games.engine.cards import content_hash
    from games.models import Event, Game, Seat
    from games.titles import get_title

    title = get_title(slug)
    org = User.objects.create_user("bench-org@example.com", "x", is_staff=True)
    players = User.objects.bulk_create([User(email=f"p{i}@example.com") for i in range(2)])
    past = timezone.now() - timedelta(hours=1)
    options: dict = {}
    load = getattr(title, "load_cardset", None)
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
            decision_hours=24,
            to_move=", ".join(f"p{k}" for k in sorted(asked)),
            waiting_since=past,
        )
        games.append(g)
    Game.objects.bulk_create(games, batch_size=500)
    for g in games:
        asked = set(title.prompts(g.state))
        for k in range(2):
            due = past if k in asked else None
            seats.append(Seat(game=g, index=k, player=players[k], waiting_since=due, deadline=due))
        events.append(Event(game=g, seq=0, kind="created", payload={"seed": g.seed, "players": ["p0", "p1"]}))
        if g.version == 1:
            events.append(Event(game=g, seq=1, kind="answer", seat=1, payload={"answer": 2}, via="web"))
    Seat.objects.bulk_create(seats, batch_size=2000)
    Event.objects.bulk_create(events, batch_size=2000)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--title", default="pebbles", help="pebbles (tiny, the default) or a real title's slug")
    args = parser.parse_args()
    django_ready()
    from django.utils import timezone

    from games.actions import deadlines
    from games.models import Seat

    build(args.games, args.title)
    overdue = Seat.objects.filter(deadline__lte=timezone.now()).count()
    t0 = time.perf_counter()
    result = deadlines.sweep()
    seconds = time.perf_counter() - t0
    again = deadlines.sweep()["timed_out"]
    print(f"second sweep timed out {again} (must be 0)")
    print(
        f"sweep: title={args.title} games={args.games} overdue={overdue} timed_out={result['timed_out']} "
        f"seconds={seconds:.2f} per_s={result['timed_out'] / seconds:.0f}"
    )


if __name__ == "__main__":
    main()
