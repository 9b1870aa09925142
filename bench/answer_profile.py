"""Where an answer's time goes: cProfile of N answer POSTs to seat pages, in process (PostgreSQL).

Each POST is what a browser sends (version, question key, the first option), through Django's
whole request cycle and the write path, for N fresh two-player games of one title (--title, Café
Baras by default: any title whose first question is a single pick). Prints the top lines by own
time and by cumulative time, then: answer_profile: answers=N ms_per_answer=X.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import time

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/cafe_bench_profile")

from _setup import REFERENCE, django_ready  # noqa: E402


def prepare(n: int, title: str) -> list[tuple[str, dict]]:
    from accounts.models import User
    from games import links
    from games.actions import organise
    from games.engine.prompts import prompt_key

    org = User.objects.create_user("bench-org@example.com", "x", is_staff=True)
    posts = []
    for i in range(n):
        game = organise.create_game(org, title, f"Profile {i}", {}, [f"a{i}@example.com", f"b{i}@example.com"])
        organise.start_game(game)
        game.refresh_from_db()
        prompts = game.engine.prompts(game.state)
        first = min(prompts)
        prompt = prompts[first]
        seat = game.seats.get(index=first)
        form = {"version": str(game.version), "prompt_key": prompt_key(prompt), "answer": prompt.options[0].id}
        posts.append((f"/play/{links.token_for(seat)}/", form))
    return posts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--answers", type=int, default=300)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--title", default=REFERENCE, help=f"a title's slug (default {REFERENCE})")
    args = parser.parse_args()
    django_ready()
    from django.test import Client

    from games.models import Event

    posts = prepare(args.answers + 1, args.title)
    client = Client(HTTP_HOST="127.0.0.1")
    client.post(*posts.pop())  # warm: imports, first queries
    profiler = cProfile.Profile()
    t0 = time.perf_counter()
    profiler.enable()
    for path, form in posts:
        client.post(path, form)
        # a browser follows the redirect, whose page shows (and so drops) the "Played." message;
        # without this the messages cookie grew by one message per answer and was re-encoded each time
        client.cookies.pop("messages", None)
    profiler.disable()
    seconds = time.perf_counter() - t0
    played = Event.objects.filter(kind="answer", via="web").count()
    for order in ("tottime", "cumulative"):
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(args.top)
        print(out.getvalue().split("\n", 6)[-1])
    print(f"answer_profile: answers={len(posts)} played={played} ms_per_answer={seconds / len(posts) * 1000:.2f}")


if __name__ == "__main__":
    main()
