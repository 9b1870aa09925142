"""The beat's sweep task: it wakes bots whose move a lost task never played."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import tasks
from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_sweep_wakes_a_bot_a_lost_task_left_waiting(make_game, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(tasks.advance_bots, "delay", lambda pk: None)  # the worker lost the task
        game = make_game(seats=("ana@example.com", None))
    game.refresh_from_db()
    assert 1 in game.engine.prompts(game.state), "the bot is asked to hide its number"
    assert tasks.sweep()["bots"] == 0, "a fresh wait is left to its own task"
    Game.objects.filter(pk=game.pk).update(waiting_since=timezone.now() - timedelta(minutes=3))
    assert tasks.sweep()["bots"] == 1
    game.refresh_from_db()
    assert 1 not in game.engine.prompts(game.state), "the bot has played"
