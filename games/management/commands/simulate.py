"""Bot games through a pure engine: `manage.py simulate <slug> --games N --players P --seed S`.

The last line is exactly `simulate: <slug> games=N errors=E games_per_s=X` for every title.
"""

import os
import statistics

from django.core.management.base import BaseCommand, CommandError

from games.engine import simulate
from games.titles import get_title, slugs


class Command(BaseCommand):
    help = "Play bot games through a title's pure engine and print figures."

    def add_arguments(self, parser):
        parser.add_argument("slug", choices=slugs())
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--players", type=int, default=3)
        parser.add_argument("--seed", default="1")
        parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
        parser.add_argument("--check", action="store_true", help="check the title's invariants after every step")

    def handle(self, slug, games, players, seed, workers, check, **_):
        title = get_title(slug)
        if not title.min_players <= players <= title.max_players:
            raise CommandError(f"{title.name} takes {title.min_players} to {title.max_players} players.")
        report = simulate.run(slug, games, players, str(seed), workers=workers, check=check)
        for err in report.first_errors:
            self.stderr.write(err)
        if report.lengths:
            lengths = sorted(report.lengths)
            self.stdout.write(
                f"length: median={statistics.median(lengths):g} p90={_pct(lengths, 90)} min={lengths[0]} "
                f"max={lengths[-1]} steps_per_game={report.steps / max(report.games - report.errors, 1):.1f}"
            )
            scores, winning = sorted(report.scores), sorted(report.winning)
            self.stdout.write(
                f"scores: mean={statistics.fmean(scores):.1f} p10={_pct(scores, 10)} median={statistics.median(scores):g} "
                f"p90={_pct(scores, 90)} min={scores[0]} max={scores[-1]} winner_median={statistics.median(winning):g}"
            )
        self.stdout.write(
            f"simulate: {slug} games={report.games} errors={report.errors} games_per_s={report.games_per_s:.1f}"
        )


def _pct(values: list[int], p: int) -> int:
    """The p-th percentile of sorted values (nearest rank)."""
    return values[min(len(values) - 1, int(len(values) * p / 100))]
