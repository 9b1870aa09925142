"""Bot games through a pure engine: for fuzzing and for the `simulate` figure.

Each game uses its own seed (f"{seed}-{i}") and the same per-step generator rule as the service,
so a failing game can be replayed exactly from its number.
"""

from __future__ import annotations

import gc
import time
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from .protocol import Title
from .rng import step_rng

MAX_STEPS = 20_000


@dataclass
class Report:
    games: int = 0
    errors: int = 0
    steps: int = 0
    seconds: float = 0.0
    first_errors: list[str] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)  # title-defined "turns" (or steps) per game
    scores: list[int] = field(default_factory=list)  # every seat's final score
    winning: list[int] = field(default_factory=list)  # the winning score of each game
    contested: int = 0  # games of two or more players that ended
    wins: dict[int, int] = field(default_factory=dict)  # per seat: contested games it won (ties count for each)

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def play_one(
    title: Title, players: int, seed: str, check: bool = False, options: dict | None = None
) -> tuple[int, int, dict[int, int]]:
    """Play one bot game to the end; returns (steps, turns, scores). Raises on any engine error.

    `options` are the game's options (e.g. {"cardset": data} to try a card set before it is used).
    """
    names = [f"Bot {i + 1}" for i in range(players)]
    state = title.setup(names, dict(options or {}), step_rng(seed, 0))
    check_fn = title.check_invariants if check else None
    seq = 0
    while title.outcome(state) is None:
        prompts = title.prompts(state)
        if not prompts:
            raise RuntimeError(f"game {seed}: no prompts but no outcome at step {seq}")
        seat = min(prompts)
        seq += 1
        answer = title.bot_answer(state, seat, step_rng(seed, seq))
        state = title.apply(state, seat, answer, step_rng(seed, seq))
        if check_fn:
            check_fn(state)
        if seq > MAX_STEPS:
            raise RuntimeError(f"game {seed}: no end after {MAX_STEPS} steps")
    turns_fn = title.turns_played
    return seq, (turns_fn(state) if turns_fn else seq), title.outcome(state).scores


def _batch(slug: str, players: int, seed: str, start: int, stop: int, check: bool) -> Report:
    from games.titles import get_title  # the registry (a worker forked after a title was registered knows it too)

    title = get_title(slug)
    # What is alive before the first game (all of Django, in a worker forked from manage.py) stays
    # alive: keep the garbage collector from walking it again at every full collection.
    gc.freeze()
    try:
        return play_batch(title, players, seed, start, stop, check)
    finally:
        gc.unfreeze()


def play_batch(
    title: Title,
    players: int | Sequence[int],
    seed: str,
    start: int,
    stop: int,
    check: bool = False,
    options: dict | None = None,
    progress: Callable[[int], None] | None = None,
    trace_limit: int | None = None,
) -> Report:
    """Games start..stop-1 (game i seeded f"{seed}-{i}"). `players` is one count, or counts taken in
    turn (game i plays players[i % len(players)]); `progress(done)` is told every 5 games and at the end."""
    report = Report()
    for i in range(start, stop):
        n = players if isinstance(players, int) else players[i % len(players)]
        report.games += 1
        try:
            steps, turns, scores = play_one(title, n, f"{seed}-{i}", check, options)
            report.steps += steps
            report.lengths.append(turns)
            report.scores += scores.values()
            top = max(scores.values())
            report.winning.append(top)
            if n > 1:
                report.contested += 1
                for seat, score in scores.items():
                    if score == top:
                        report.wins[seat] = report.wins.get(seat, 0) + 1
        except Exception:  # noqa: BLE001 - every failure is counted and the first few shown
            report.errors += 1
            if len(report.first_errors) < 3:
                shown = f"game {seed}-{i}" if isinstance(players, int) else f"game {seed}-{i} ({n} players)"
                report.first_errors.append(f"{shown}:\n{traceback.format_exc(limit=trace_limit)}")
        done = i + 1 - start
        if progress is not None and (done % 5 == 0 or i + 1 == stop):
            progress(done)
    return report


def run(slug: str, games: int, players: int, seed: str, workers: int = 1, check: bool = False) -> Report:
    """Play `games` bot games, split over `workers` processes."""
    t0 = time.perf_counter()
    if workers <= 1 or games < 50:
        total = _batch(slug, players, seed, 0, games, check)
    else:
        bounds = [games * w // workers for w in range(workers + 1)]
        with ProcessPoolExecutor(workers) as pool:
            jobs = [pool.submit(_batch, slug, players, seed, bounds[w], bounds[w + 1], check) for w in range(workers)]
            parts = [j.result() for j in jobs]
        total = Report()
        for p in parts:
            total.games += p.games
            total.errors += p.errors
            total.steps += p.steps
            total.lengths += p.lengths
            total.scores += p.scores
            total.winning += p.winning
            total.contested += p.contested
            for seat, n in p.wins.items():
                total.wins[seat] = total.wins.get(seat, 0) + n
            total.first_errors += p.first_errors[: 3 - len(total.first_errors)]
    total.seconds = time.perf_counter() - t0
    return total
