"""States a player must see on the seat page and in the mail: a paused game, the end of a game."""

from __future__ import annotations

import re
from datetime import timedelta

from django.urls import reverse

from games import links, notify
from games.actions import organise
from games.clock.shown import local_time
from games.models import Game, Notification, Seat
from tests.support.play import finish


def seat_page(client, game, index: int) -> str:
    r = client.get(reverse("seat", args=[links.token_for(Seat.objects.get(game=game, index=index))]))
    assert r.status_code == 200
    return r.content.decode()


def status_line(html: str) -> str:
    return re.search(r'<p class="status[^"]*" role="status">([^<]*)</p>', html).group(1)


def test_a_paused_game_says_since_when_by_whom_and_why_instead_of_who_is_to_act(client, clocked, organiser, travel):
    game = clocked()
    travel(5)
    organise.pause(game, actor=organiser, reason="a holiday week")
    html = seat_page(client, game, 0)
    line = status_line(html)
    assert line.startswith("Paused since ") and "by Olga (a holiday week)" in line, line
    assert game.engine.view(game.state, 0)["status"] not in line, "the status says paused, not whose move it is"
    assert "to decide" not in html, "nobody is shown as deciding while every clock has stopped"
    assert "<title>Paused · " in html


def test_every_seat_is_mailed_when_a_game_pauses_and_when_it_resumes_with_the_new_deadline(clocked, organiser, travel):
    game = clocked()
    due_before = dict(Seat.objects.filter(game=game).values_list("pk", "deadline"))
    assert any(due_before.values()), "someone is asked"
    before = Notification.objects.count()
    travel(5)
    organise.pause(game, actor=organiser, reason="a holiday week")
    paused = list(Notification.objects.order_by("pk")[before:])
    assert sorted(n.recipient for n in paused) == ["ana@example.com", "ben@example.com"]
    assert all(n.subject == "Clocked is paused" and "a holiday week" in n.context["text"] for n in paused)
    travel(65)  # an hour paused: every deadline moves by an hour
    organise.resume(game, actor=organiser)
    resumed = list(Notification.objects.order_by("pk")[before + len(paused) :])
    assert sorted(n.recipient for n in resumed) == ["ana@example.com", "ben@example.com"]
    for note in resumed:
        seat = Seat.objects.get(pk=note.seat_id)
        assert note.subject == "Clocked goes on" and note.context["text"].startswith("Olga resumed Clocked.")
        if due_before[seat.pk] is None:
            assert "Nothing is waiting on you right now" in note.context["text"]
        else:
            assert seat.deadline == due_before[seat.pk] + timedelta(minutes=60)
            assert f"Your move is now due {local_time(seat.deadline, 'UTC')}." in note.context["text"]


def test_a_finished_game_has_no_empty_decision_box_and_draws_the_winners_cup(client, make_game):
    game = make_game()
    finish(game)
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED
    html = seat_page(client, game, 0)
    assert 'id="decision"' not in html, "nothing to decide: no empty bordered box"
    assert "🏆" not in html and '<svg class="trophy"' in html, "the cup is drawn, not an emoji that needs a font"


def test_the_final_email_links_to_the_games_history_step_by_step(client, make_game):
    game = make_game()
    finish(game)
    note = Notification.objects.filter(kind=Notification.Kind.FINAL, recipient="ana@example.com").get()
    text, html = notify.render(note)
    for body in (text, html):
        found = re.search(r"http://testserver/play/([^/\s\"]+)/history/\?step=0", body)
        assert found, "the email links to the history, from its first step"
        assert links.seat_from_token(found.group(1)).index == 0, "as ana's seat"
    assert not re.search(r"step by step[^\n]*\nhttp://testserver/play/[^/]+/\n", text), "not the seat page"
    history = client.get(found.group(0).removeprefix("http://testserver")).content.decode()
    assert "Step 0 of" in history and "Final scores" in history and '<svg class="trophy"' in history
