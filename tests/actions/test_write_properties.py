"""Random runs of everything that writes (answers, stale and double posts, undo, rewind, pause,
timeouts): the log always replays to the projection, and a refused request changes nothing."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.actions import deadlines, organise, play, replay, write
from games.engine.prompts import prompt_key
from games.models import Event, Game, Seat

pytestmark = pytest.mark.django_db(transaction=True)

OPS = ("answer", "answer", "answer", "stale", "undo", "rewind", "pause", "timeout", "illegal")


def snapshot(game: Game):
    game.refresh_from_db()
    return game.version, game.state, game.status, Event.objects.filter(game=game).count()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(st.tuples(st.sampled_from(OPS), st.integers(0, 10_000)), min_size=5, max_size=40))
def test_any_run_of_writes_keeps_the_log_and_the_projection_equal(ops, organiser):
    game = organise.create_game(
        organiser, "pebbles", "Property", {}, ["ana@example.com", "ben@example.com"], decision_minutes=60
    )
    organise.start_game(game)
    for op, n in ops:
        game.refresh_from_db()
        rng = random.Random(n)
        before = snapshot(game)
        prompts = game.engine.prompts(game.state) if game.state else {}
        try:
            if op == "answer" and prompts and game.status == Game.Status.ACTIVE:
                seat = rng.choice(sorted(prompts))
                key = prompt_key(prompts[seat])
                play.submit(game.pk, seat, prompts[seat].random_answer(rng), game.version, "web", prompt_key=key)
            elif op == "stale":
                play.submit(game.pk, n % 2, 1, max(game.version - 1 - n % 3, 0), "web", prompt_key="0000")
            elif op == "illegal" and prompts:
                play.submit(game.pk, min(prompts), "no-such-option", game.version, "web")
            elif op == "undo":
                play.undo(Seat.objects.get(game=game, index=n % 2))
            elif op == "rewind" and game.version > 2:
                organise.rewind(game, rng.randrange(1, game.version), reason="property")
            elif op == "pause":
                (organise.resume if game.status == Game.Status.PAUSED else organise.pause)(game, reason="property")
            elif op == "timeout":
                seat = Seat.objects.filter(game=game).exclude(deadline=None).first()
                if seat:
                    Seat.objects.filter(pk=seat.pk).update(deadline=seat.waiting_since)
                    deadlines.time_out(seat.pk)
        except write.SubmitError:
            assert snapshot(game) == before, f"a refused {op} changed the game"
        game.refresh_from_db()
        assert not replay.rebuild_differs(game), f"after {op}"
        seqs = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(len(seqs))), "the log has no gaps"
