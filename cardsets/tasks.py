"""The bot check as a Celery task: plays the set's bot games, saving progress every few games, then
the results; only a passing check makes the set usable."""

from __future__ import annotations

from celery import shared_task

from games.titles import get_title

from . import store
from .checking import bot_check
from .models import CardSet


class Superseded(Exception):
    """This run is no longer the set's: its cards were edited, or the check was started again."""


# A worker lost mid-check hands the task back (acks_late), and it starts again from 0. If the
# message never comes back, the set's page offers to run it again once the run has stalled
# (CARDSET_CHECK_STALL_MINUTES); the run id keeps an old message from writing over a newer run.
@shared_task(acks_late=True, reject_on_worker_lost=True)
def check_cardset(cardset_id: int, games: int = 0, run: str = "") -> str:
    # a message queued before runs had ids carries none: it matches nothing, and the set's page
    # shows that run as stalled, to be started again
    cs = CardSet.objects.filter(pk=cardset_id, check_run=run).exclude(check_run="").first()
    if cs is None:
        return "superseded"

    def progress(done: int) -> None:
        if not store.check_progress(cs.pk, run, done):
            raise Superseded

    try:
        results = bot_check(get_title(cs.title), cs.data, games, progress=progress)
    except Superseded:
        return "superseded"
    return store.check_finished(cs.pk, run, results) or "superseded"
