"""Each step of the log in the title's words, for organisers: lines as logged, rewinds as they happened."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.actions import organise, play
from games.log_words import UNREPLAYABLE_WORDS, words_by_step
from games.models import Event
from tests.support.play import finish

pytestmark = pytest.mark.django_db


def answer(game, seat, value):
    game.refresh_from_db()
    play.submit(game.pk, seat, value, game.version, via="web")
    game.refresh_from_db()


def said(game) -> dict[str, str]:
    """{"#seq kind": words} for the game as it is now."""
    game.refresh_from_db()
    kinds = dict(game.events.values_list("seq", "kind"))
    return {f"#{seq} {kinds[seq]}": str(words) for seq, words in words_by_step(game).items()}


def test_each_step_says_the_lines_it_logged_as_a_spectator_reads_them(make_game):
    game = make_game()
    answer(game, 0, 2)
    answer(game, 1, 1)
    turn = game.state["turn"]
    answer(game, turn, "take2")
    answer(game, turn, "done")
    name = game.state["names"][turn]
    assert said(game) == {
        "#0 created": "The pile has 9 pebbles.",
        "#1 answer": "ana hid a number.",  # the seat's own "You hid 2." stays private
        "#2 answer": "ben hid a number.",
        "#3 answer": f"{name} took 2.",
        "#4 answer": f"{name} answered: Done.",  # logged nothing: told by the option it picked
    }


def test_a_rewind_is_told_and_the_voided_steps_keep_their_words(make_game, organiser):
    game = make_game()
    answer(game, 0, 2)
    answer(game, 1, 1)
    organise.rewind(game, 1, organiser, "ben misclicked")
    answer(game, 1, 3)
    words = said(game)
    assert words["#2 answer"] == "ben hid a number."
    assert words["#3 admin"] == "Olga rewound the game to step 1, voiding #2: ben misclicked"
    assert words["#4 answer"] == "ben hid a number.", "folded after the rewind, as the table went on"


def test_admin_steps_are_told_from_their_payload(make_game, organiser):
    game = make_game()
    organise.pause(game, organiser, "a holiday")
    organise.resume(game, organiser, "back")
    organise.end_game(game, organiser, "enough")
    assert said(game) == {
        "#0 created": "The pile has 9 pebbles.",
        "#1 admin": "Olga paused the game: a holiday",
        "#2 admin": "Olga resumed the game: back",
        "#3 admin": "Olga ended the game: enough",
    }


def test_the_end_is_told_with_the_scores_and_winners(make_game):
    game = make_game()
    finish(game)
    ended = game.events.get(kind=Event.Kind.ENDED)
    outcome = game.engine.outcome(game.state)
    words = said(game)[f"#{ended.seq} ended"]
    names = game.state["names"]
    assert words.startswith("The game ended. Scores: " + ", ".join(f"{names[i]} {outcome.scores[i]}" for i in (0, 1)))
    assert words.endswith(" Won by " + " and ".join(names[w] for w in outcome.winners) + ".")


def test_a_step_the_rules_no_longer_replay_is_told_by_its_payload_and_the_page_still_shows(make_game, client):
    game = make_game()
    answer(game, 0, 2)
    answer(game, 1, 1)
    Event.objects.filter(game=game, seq=1).update(payload={"answer": "not-a-number"})
    words = said(game)
    assert words["#0 created"] == "The pile has 9 pebbles."
    assert words["#1 answer"] == words["#2 answer"] == UNREPLAYABLE_WORDS
    game.organiser.is_superuser = True
    game.organiser.save()
    client.force_login(game.organiser)
    assert client.get(reverse("admin:games_game_change", args=[game.pk])).status_code == 200
