"""Replay every game's log and report any game whose stored projection differs.

With --fix the projection is rewritten from the log (the log is the truth).
"""

from django.core.management.base import BaseCommand

from games.actions import replay
from games.models import Game


class Command(BaseCommand):
    help = "Replay every game's event log and compare it with the stored state."

    def add_arguments(self, parser):
        parser.add_argument("--fix", action="store_true", help="rewrite differing projections from the log")

    def handle(self, fix, **_):
        checked = differ = 0
        for game in Game.objects.exclude(status=Game.Status.DRAFT).iterator():
            checked += 1
            state, last = replay.replay(game)
            if state != game.state or last != game.version:
                differ += 1
                self.stdout.write(f"game {game.pk} ({game.name}): projection differs from its log")
                if fix:
                    Game.objects.filter(pk=game.pk).update(state=state, version=last)
        self.stdout.write(f"rebuild_state: checked={checked} differ={differ}{' fixed' if fix and differ else ''}")
        if differ and not fix:
            raise SystemExit(1)
