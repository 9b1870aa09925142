"""A card set's bot check on the production path: the worker that runs it is killed mid-check
(SIGKILL, no warm shutdown). The set's page says the run stalled and lets the organiser start it
again; the new run goes through Redis to the other worker and passes."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from cardsets import store, tasks
from cardsets.models import CardSet
from tests.cardsets.helpers import baras_files, card
from tests.production.conftest import QUEUE, database_settings, start_worker, stop_worker, wait_for

pytestmark = [pytest.mark.production, pytest.mark.django_db(transaction=True)]


def test_a_check_whose_worker_is_killed_stalls_and_is_run_again_on_another_worker(
    client, organiser, real_celery, celery_worker, django_db_blocker, tmp_path, settings
):
    settings.CARDSET_CHECK_GAMES = 6
    files = baras_files()
    card(files, "latte")["cost"] = 3
    cs = store.add_set(organiser, "cafe_baras", "Killed mid-check", "", files)

    doomed_queue = f"{QUEUE}-doomed-{uuid.uuid4().hex[:6]}"
    doomed = start_worker(database_settings(django_db_blocker), tmp_path, doomed_queue)
    try:
        lost = store.start_check(cs, 5000)
        tasks.check_cardset.apply_async((cs.pk, 5000, lost), queue=doomed_queue)
        wait_for(lambda: CardSet.objects.get(pk=cs.pk).check_done >= 10, 120, "the check's first progress", doomed)
        doomed.proc.kill()  # SIGKILL: the run never reports again
        doomed.proc.wait(10)
    finally:
        if doomed.alive():
            stop_worker(doomed)
    cs.refresh_from_db()
    assert cs.check_status == "running" and cs.check_run == lost and 10 <= cs.check_done < 5000

    client.force_login(organiser)
    page = client.get(cs.get_absolute_url()).content.decode()
    assert "<progress" in page and "Run the bot check" not in page, "within the stall time it is still running"
    client.post(reverse("cardsets:check", args=[cs.pk]))
    assert CardSet.objects.get(pk=cs.pk).check_run == lost, "no second run while the first may be alive"

    # the stall time passes with no progress (moved back instead of waited for)
    CardSet.objects.filter(pk=cs.pk).update(check_beat=timezone.now() - timedelta(minutes=11))
    page = client.get(cs.get_absolute_url()).content.decode()
    assert "the worker running it was lost" in page and "Run the bot check again (6 games)" in page
    client.post(reverse("cardsets:check", args=[cs.pk]))
    done = wait_for(
        lambda: CardSet.objects.filter(pk=cs.pk, check_status__in=("passed", "failed")).first(),
        120,
        "the new run on the session's worker",
        celery_worker,
    )
    assert done.check_status == "passed" and done.check_run != lost and done.check_done == 6
    assert done.usable and "Game length (turns)" in client.get(cs.get_absolute_url()).content.decode()
