"""Moves made for a person are said as such (games/automatic.py): a deadline's default or bot answer,
a bot standing in for an absent player, an answer left in advance. Played out as the players meet
them: the seat page's log, the history, the next email, and the admin's log."""

from __future__ import annotations

from html import unescape

import pytest
from django.test import Client

from games import links, notify
from games.actions import deadlines, organise, play
from games.automatic import Made, made_steps, marks, tell
from games.log_words import words_by_step
from games.models import Event, Game, Notification, Seat

pytestmark = pytest.mark.django_db


def seat(game: Game, index: int) -> Seat:
    return Seat.objects.select_related("player").get(game=game, index=index)


def page(game: Game, index: int, path: str = "") -> str:
    response = Client().get(f"/play/{links.token_for(seat(game, index))}/{path}")
    assert response.status_code == 200
    return unescape(response.content.decode())


def newest_mail(game: Game, index: int, kind: str = "your_move") -> str:
    note = Notification.objects.filter(game=game, seat=seat(game, index), kind=kind).order_by("-pk").first()
    assert note is not None, f"no {kind} email to seat {index}"
    return notify.render(note)[0]


def test_at_the_deadline_the_default_answer_is_said_on_both_pages_the_history_and_the_admins_log(clocked, travel):
    game = clocked()
    play.submit(game.pk, 0, 2, game.version, via="web")  # ana hides her number herself
    travel(61)
    assert deadlines.sweep()["timed_out"] == 1  # ben's hidden number is the default one
    game.refresh_from_db()
    others = "At the deadline the default answer was played for ben: hid a number."
    assert others in page(game, 0)
    assert "At the deadline the default answer was played for you: hid 0." in page(game, 1)
    assert "ana hid a number." in page(game, 1), "ana's own answer reads as hers"
    assert others in page(game, 0, "history/")
    assert others in " ".join(str(w) for w in words_by_step(game).values())


def test_the_next_email_says_the_bot_played_for_the_player_at_the_deadline(clocked, travel):
    game = clocked(timeout_policy="bot")
    play.submit(game.pk, 0, 2, game.version, via="web")
    travel(61)
    deadlines.sweep()
    game.refresh_from_db()
    asked = min(game.engine.prompts(game.state))
    body = newest_mail(game, asked)
    mine = "you" if asked == 1 else "ben"
    assert f"At the deadline the bot played for {mine}: hid " in body
    assert Event.objects.get(game=game, kind="timeout").payload["made"] == "deadline_bot"


def test_a_bot_standing_in_says_it_played_for_the_player(make_game):
    game = make_game()
    organise.hand_to_bot(seat(game, 1), reason="ben is away")
    game.refresh_from_db()
    play.submit(game.pk, 0, 1, game.version, via="web")
    play.advance(game.pk)  # what the worker does once the answer is committed
    game.refresh_from_db()
    assert game.state["secret"][1] is not None, "the bot answered for ben"
    assert "The bot played for ben: hid a number." in page(game, 0)
    assert "The bot played for you: hid " in page(game, 1)


def test_a_planned_answer_is_said_to_its_player_as_their_plan(make_game):
    game = make_game()
    play.submit(game.pk, 0, 1, game.version, via="web")
    play.submit(game.pk, 1, 1, Game.objects.get(pk=game.pk).version, via="web")
    game.refresh_from_db()
    turn = game.state["turn"]
    other = 1 - turn
    play.set_plan(seat(game, other), ["take2"])
    play.submit(game.pk, turn, "take1", game.version, via="web")
    game.refresh_from_db()
    play.submit(game.pk, turn, "done", game.version, via="web")  # the other's turn: their plan plays
    play.advance(game.pk)
    game.refresh_from_db()
    name = game.state["names"][other]
    assert game.state["taken"][other] == 2
    assert "Your planned answer: took 2." in page(game, other)
    assert f"{name} took 2." in page(game, turn), "to the others it reads as the player's own choice"
    assert "planned answer" not in page(game, turn), "whether a player chose ahead is theirs to tell"
    assert f"{name}'s planned answer: took 2." in " ".join(str(w) for w in words_by_step(game).values())
    assert f"{game.state['names'][turn]} took 1." in page(game, other), "a person's own move is said as before"


def test_a_step_taken_back_leaves_no_words_behind_and_later_steps_keep_theirs(clocked, travel, organiser):
    game = clocked(timeout_policy="bot")
    play.submit(game.pk, 0, 2, game.version, via="web")
    travel(61)
    deadlines.sweep()  # ben's number, by the bot
    game.refresh_from_db()
    organise.rewind(game, 1, organiser, "ben was ill")  # ben's timed-out step is voided
    game.refresh_from_db()
    play.submit(game.pk, 1, 3, game.version, via="web")  # ben hides his own number
    game.refresh_from_db()
    shown = page(game, 0)
    assert "ben hid a number." in shown and "the bot played for ben" not in shown


def test_a_game_begun_before_steps_recorded_their_lines_still_shows_its_log(make_game):
    game = make_game()
    play.submit(game.pk, 0, 1, game.version, via="conditional")
    Event.objects.filter(game=game).update(payload={"answer": 1})  # as steps were stored before
    game.refresh_from_db()
    assert "ana hid a number." in page(game, 1)
    assert made_steps(game.pk, 0, len(game.state["log"])) == []


def test_marks_record_the_lines_written_and_how():
    before, after = {"log": [1, 2]}, {"log": [1, 2, 3]}
    assert marks(before, after, None) == {"lines": [2, 3]}
    assert marks(before, after, "plan") == {"lines": [2, 3], "made": "plan"}
    assert marks(None, after, None) == {}


def test_tell_prefixes_the_line_naming_the_player_or_else_the_first():
    lines = ["The deck ran out.", "ben added Latte for 2 coins.", "ben gained 1 coin."]
    made = [Made(seat=1, how="deadline_bot", start=10, end=13)]
    said = tell(lines, 10, made, None, {1: "Benjamin"}, {1: "ben"})
    assert said == [
        "The deck ran out.",
        "At the deadline the bot played for Benjamin: added Latte for 2 coins.",
        "ben gained 1 coin.",
    ]
    assert tell(["Round 2 begins."], 4, [Made(0, "stand_in", 4, 5)], 0, {0: "ana"}, {0: "ana"}) == [
        "The bot played for you: Round 2 begins."
    ]
    assert tell(["x"], 4, [Made(0, "plan", 1, 3)], None, {}, {}) == ["x"], "a step before the lines shown"
