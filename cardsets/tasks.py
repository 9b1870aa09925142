"""The bot check as a Celery task: plays the set's bot games, saving progress every few games, then
the results; only a passing check makes the set usable."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from games.titles import get_title

from .checking import bot_check
from .models import CardSet


# a worker lost mid-check hands the task back (it starts again from 0), so no set stays "running" for ever
@shared_task(acks_late=True, reject_on_worker_lost=True)
def check_cardset(cardset_id: int, games: int | None = None) -> str:
    cs = CardSet.objects.filter(pk=cardset_id).first()
    if cs is None:
        return "gone"
    total = games if games is not None else settings.CARDSET_CHECK_GAMES
    rows = CardSet.objects.filter(pk=cs.pk, content_hash=cs.content_hash)  # an edit meanwhile voids the run
    # the view marks the set running when it queues the check; a task started otherwise marks it here
    rows.exclude(check_status=CardSet.Check.RUNNING).update(
        check_status=CardSet.Check.RUNNING, check_done=0, check_total=total, check_results={}
    )
    results = bot_check(get_title(cs.title), cs.data, total, progress=lambda done: rows.update(check_done=done))
    status = CardSet.Check.PASSED if results["passed"] else CardSet.Check.FAILED
    rows.update(check_status=status, check_done=total, check_results=results)
    return status
