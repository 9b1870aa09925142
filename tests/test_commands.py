"""Management commands: simulate's contract line, rebuild_state's report."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from games.actions import play, replay
from games.models import Game


def test_simulate_ends_with_the_contract_line():
    out = io.StringIO()
    call_command("simulate", "cafe_baras", games=20, players=3, seed="5", workers=1, stdout=out)
    last = out.getvalue().strip().splitlines()[-1]
    assert last.startswith("simulate: cafe_baras games=20 errors=0 games_per_s=")
    assert float(last.rsplit("=", 1)[1]) > 0


@pytest.mark.django_db(transaction=True)
def test_rebuild_state_finds_a_projection_that_differs_from_its_log(make_game):
    game = make_game()
    play.submit(game.pk, 0, 2, 0, via="web")
    out = io.StringIO()
    call_command("rebuild_state", stdout=out)
    assert "checked=1 differ=0" in out.getvalue()
    Game.objects.filter(pk=game.pk).update(state={**game.state, "pile": 1})
    with pytest.raises(SystemExit):
        call_command("rebuild_state", stdout=(out := io.StringIO()))
    assert f"game {game.pk}" in out.getvalue() and "differ=1" in out.getvalue()
    call_command("rebuild_state", fix=True, stdout=io.StringIO())
    game.refresh_from_db()
    assert not replay.rebuild_differs(game)


@pytest.mark.django_db
def test_ensure_organiser_prints_the_password_only_once():
    first, second = io.StringIO(), io.StringIO()
    call_command("ensure_organiser", stdout=first)
    call_command("ensure_organiser", stdout=second)
    assert "Password:" in first.getvalue() and "Password:" not in second.getvalue()
