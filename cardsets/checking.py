"""The bot check of a card set: bot games played with it before anyone may start a game with it.

A set passes when every game ends without an engine error and no seat position wins far more than
its share (a lopsided set). The figures (errors, game length, score spread, wins per seat) are kept
for the set's page. Pure: no Django import, so the check runs anywhere the engine does.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.engine.protocol import Title
from games.engine.simulate import play_batch


@dataclass(frozen=True)
class Bar:
    """What a passing check needs."""

    max_seat_share: float = 0.75  # no seat position may win more than this share of games...
    share_after: int = 40  # ...once this many games with two or more players were played


def player_counts(title: Title) -> list[int]:
    return list(range(title.min_players, title.max_players + 1))


def bot_check(
    title: Title,
    cardset: dict[str, Any],
    games: int,
    progress: Callable[[int], None] = lambda done: None,
    bar: Bar = Bar(),
    seed: str = "cardset-check",
) -> dict[str, Any]:
    """Play `games` bot games with the set (every player count in turn); the results as JSON data."""
    report = play_batch(
        title,
        player_counts(title),
        f"{seed}-{cardset.get('hash', '')[:12]}",
        0,
        games,
        check=True,
        options={"cardset": cardset},
        progress=progress,
        trace_limit=3,
    )
    n_errors, wins, multi = report.errors, report.wins, report.contested
    reasons = []
    if n_errors:
        reasons.append(f"{n_errors} of {games} bot games stopped with an error.")
    share = {str(seat): round(n / multi, 3) for seat, n in sorted(wins.items())} if multi else {}
    if multi >= bar.share_after:
        for seat, s in share.items():
            if s > bar.max_seat_share:
                reasons.append(f"Seat {int(seat) + 1} won {s:.0%} of the games: the set is lopsided.")
    if not games:
        reasons.append("No bot games were played.")
    return {
        "games": games,
        "errors": n_errors,
        "first_errors": [_short(e) for e in report.first_errors],
        "length": _figures(report.lengths),
        "score": _figures(report.scores),
        "win_share": share,
        "passed": not reasons,
        "reasons": reasons,
    }


def _short(error: str) -> str:
    """Which game, then the end of its traceback (where the reason is)."""
    game, _, trace = error.partition("\n")
    return f"{game} {trace[-1500:]}"


def _figures(values: list[int]) -> dict[str, float]:
    if not values:
        return {}
    return {
        "min": min(values),
        "mean": round(statistics.fmean(values), 1),
        "max": max(values),
        "spread": round(statistics.pstdev(values), 1),
    }
