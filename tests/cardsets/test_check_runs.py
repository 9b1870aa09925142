"""The bot check's runs (cardsets/store.start_check and cardsets/tasks): one run at a time, a run
whose worker was lost can be started again, and a run that is no longer the set's writes nothing."""

from __future__ import annotations

import copy
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from cardsets import store, tasks
from cardsets.models import CardSet
from cardsets.shipped import store_shipped
from tests.cardsets.helpers import baras_files, card

pytestmark = pytest.mark.django_db


@pytest.fixture
def cs(settings, organiser):
    settings.CARDSET_CHECK_GAMES = 4
    settings.CARDSET_CHECK_STALL_MINUTES = 10
    store_shipped(CardSet)
    files = baras_files()
    card(files, "latte")["cost"] = 3
    return store.add_set(organiser, "cafe_baras", "Runs", "", files)


def page_of(client, cs: CardSet) -> str:
    return client.get(cs.get_absolute_url()).content.decode()


def test_two_clicks_at_once_start_one_run(cs):
    first = store.start_check(cs, 4)
    assert first and store.start_check(cs, 4) is None
    cs.refresh_from_db()
    assert cs.check_status == "running" and cs.check_run == first and cs.check_beat is not None


def test_a_run_whose_worker_was_lost_can_be_started_again_and_the_lost_run_then_writes_nothing(client, organiser, cs):
    client.force_login(organiser)
    lost = store.start_check(cs, 4)  # queued, then its worker died: no task ever reports
    page = page_of(client, cs)
    assert '<progress id="check-progress"' in page and "Run the bot check" not in page
    client.post(reverse("cardsets:check", args=[cs.pk]))
    cs.refresh_from_db()
    assert cs.check_run == lost, "a run that is saving progress is not started twice"

    CardSet.objects.filter(pk=cs.pk).update(check_beat=timezone.now() - timedelta(minutes=11))
    page = page_of(client, cs)
    assert "the worker running it was lost" in page and "Run the bot check again (4 games)" in page
    assert 'http-equiv="refresh"' not in page, "a stalled run's page stops refreshing itself"
    assert "stalled (its worker was lost)" in client.get(reverse("cardsets:list")).content.decode()

    client.post(reverse("cardsets:check", args=[cs.pk]))  # eager Celery: the new run plays here
    cs.refresh_from_db()
    assert cs.check_status == "passed" and cs.check_run != lost and cs.check_done == 4
    after = copy.deepcopy(cs.check_results)

    # the lost run's message comes back at last (the broker redelivers it): nothing changes
    assert tasks.check_cardset(cs.pk, 4, lost) == "superseded"
    assert tasks.check_cardset(cs.pk) == "superseded", "a message from before runs had ids"
    cs.refresh_from_db()
    assert cs.check_status == "passed" and cs.check_results == after


def test_an_edit_during_a_run_stops_it_and_the_set_waits_for_a_new_check(organiser, cs, monkeypatch):
    from games.engine import simulate

    real = simulate.play_one
    played = []

    def edit_after_five(*args, **kwargs):
        played.append(1)
        if len(played) == 6:  # after the first progress save: the organiser edits a card
            files = CardSet.objects.get(pk=cs.pk).files
            index = next(i for i, c in enumerate(files["cafe_cards.yaml"]["cards"]) if c["id"] == "latte")
            entry = dict(files["cafe_cards.yaml"]["cards"][index], cost=4)
            store.change_card(organiser, cs, "cafe_cards.yaml", index, entry)
        return real(*args, **kwargs)

    monkeypatch.setattr(simulate, "play_one", edit_after_five)
    run = store.start_check(cs, 20)
    assert tasks.check_cardset(cs.pk, 20, run) == "superseded"
    cs.refresh_from_db()
    assert len(played) == 10, "the run stops at its next progress save"
    assert cs.check_status == "pending" and cs.check_run == "" and not cs.check_results and not cs.usable


def test_a_passed_or_shipped_set_is_not_checked_again(cs):
    shipped = CardSet.objects.get(title="cafe_baras", check_status="shipped")
    assert store.start_check(shipped, 4) is None
    CardSet.objects.filter(pk=cs.pk).update(check_status="passed")
    cs.refresh_from_db()
    assert store.start_check(cs, 4) is None and cs.check_status == "passed"
