"""The few statements written for PostgreSQL by hand, run on PostgreSQL.

(a) a sweep batch: one UPDATE ... FROM (VALUES ...) per table, version-guarded for games; drawn
    vacation hours inserted, then extended by the next sweep's hours;
(b) a long game's seat page, whose state comes from the database with only its newest log lines;
(c) card catalogues stored once (games/state_parts.py) under a real jsonb column.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import links, state_parts
from games.actions import deadlines, replay
from games.clock.calendar import HOUR
from games.models import Event, Game, Seat, SharedPart, Vacation
from tests.support.play import take_pebbles

pytestmark = [pytest.mark.production, pytest.mark.django_db(transaction=True)]


def test_a_sweep_batch_times_out_every_overdue_seat_once_on_postgres(clocked, travel):
    games = [clocked() for _ in range(5)]
    travel(61)
    assert deadlines.sweep(threads=2, batch=2) == {"reminded": 10, "timed_out": 10}
    assert deadlines.sweep(threads=2, batch=2)["timed_out"] == 0
    for game in games:
        game.refresh_from_db()
        assert game.version == 2 and Event.objects.filter(game=game, kind="timeout").count() == 2
        assert not replay.rebuild_differs(game), "the stored state is the replayed one"
        assert all(s.misses == 1 for s in Seat.objects.filter(game=game))


def test_a_sweep_batch_draws_vacation_hours_and_extends_them_on_postgres(clocked, travel):
    games = [clocked(auto_vacation=True, vacation_days=1, bot_after_misses=None) for _ in range(3)]
    due = {s.pk: s.deadline for s in Seat.objects.filter(game__in=games)}
    travel(61)
    assert deadlines.sweep(threads=2, batch=2)["timed_out"] == 0
    travel(125)
    assert deadlines.sweep(threads=2, batch=2)["timed_out"] == 0
    drawn = {v.seat_id: (v.starts, v.ends) for v in Vacation.objects.filter(automatic=True)}
    assert Vacation.objects.count() == len(drawn) == 6, "one row per seat: the second hour extended the first"
    assert all(drawn[pk] == (at, at + 2 * HOUR) for pk, at in due.items())
    assert all(s.deadline == due[s.pk] + 2 * HOUR for s in Seat.objects.filter(game__in=games))


def test_a_long_games_page_reads_only_the_newest_log_lines_on_postgres(client, make_game):
    game = make_game(options={"pile": 200})
    take_pebbles(game, 70)
    token = links.token_for(Seat.objects.get(game=game, index=0))

    page_seat = links.seat_from_token(token, log_lines=60)
    assert page_seat.log_total == len(game.state["log"]) > 60
    assert page_seat.game.state["log"] == game.state["log"][-60:]
    assert {k: v for k, v in page_seat.game.state.items() if k != "log"} == {
        k: v for k, v in game.state.items() if k != "log"
    }

    html = client.get(reverse("seat", args=[token])).content.decode()
    shown = re.findall(
        r"<li value=\"(\d+)\"(?: class=\"new\")?>(?:<span class=\"badge\">new</span> )?([^<]*)</li>", html
    )
    total = len(game.state["log"])
    assert [text for _, text in shown] == game.engine.view(game.state, 0)["log"][-60:][::-1]
    assert [int(n) for n, _ in shown] == list(range(total, total - 60, -1)), "numbered by place in the game"
    assert f"{len(game.state['log']) - 60} earlier entries" in html


def test_catalogues_are_stored_once_in_jsonb_on_postgres(make_game):
    from django.db import connection

    first, second = make_game("cafe_baras"), make_game("cafe_baras")
    part = SharedPart.objects.get()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT state ? 'cardset', state -> '$parts' ->> 'cardset' FROM games_game WHERE id = %s", [first.pk]
        )
        assert cursor.fetchone() == (False, part.digest)
    state_parts.forget()
    for game in (first, second):
        assert Game.objects.get(pk=game.pk).state["cardset"] == part.data
