"""The one write path: answers, refusals that write nothing, one email per wait, replay == projection."""

from __future__ import annotations

import pytest
from django.core import mail

from games.actions import organise, play, replay, write
from games.engine.prompts import prompt_key
from games.models import Event, Game, Notification

pytestmark = pytest.mark.django_db(transaction=True)


def _hide_all(game, value=1):
    for seat in sorted(game.engine.prompts(game.state)):
        game.refresh_from_db()
        play.submit(
            game.pk,
            seat,
            value,
            game.version,
            via="web",
            prompt_key=prompt_key(game.engine.prompts(game.state)[seat]),
        )
    game.refresh_from_db()
    return game


def test_start_records_seed_and_players_in_the_first_event(make_game):
    game = make_game()
    first = game.events.get(seq=0)
    assert first.kind == "created"
    assert first.payload["seed"] == game.seed and len(game.seed) == 32
    assert first.payload["players"] == ["ana", "ben"]
    assert game.status == Game.Status.ACTIVE and game.version == 0


def test_start_emails_every_person_an_invitation_and_their_first_decision(make_game):
    make_game()
    kinds = sorted(Notification.objects.values_list("recipient", "kind"))
    assert kinds == [
        ("ana@example.com", "invite"),
        ("ana@example.com", "your_move"),
        ("ben@example.com", "invite"),
        ("ben@example.com", "your_move"),
    ]
    assert all(n.status == "sent" for n in Notification.objects.all())
    assert len(mail.outbox) == 4


def test_an_answer_appends_one_event_and_moves_the_version(make_game):
    game = make_game()
    applied = play.submit(game.pk, 0, 2, 0, via="web")
    game.refresh_from_db()
    assert applied.event.seq == 1 and game.version == 1
    assert game.events.filter(kind="answer").count() == 1
    assert game.state["secret"][0] == 2


def test_an_illegal_answer_writes_nothing_and_says_why(make_game):
    game = make_game()
    with pytest.raises(write.SubmitError) as e:
        play.submit(game.pk, 0, 7, 0, via="web")
    assert "from 0 to 3" in e.value.message
    game.refresh_from_db()
    assert game.version == 0 and game.events.count() == 1


def test_a_double_click_is_refused_as_already_answered(make_game):
    game = make_game()
    key = prompt_key(game.engine.prompts(game.state)[0])
    play.submit(game.pk, 0, 1, 0, via="web", prompt_key=key)
    with pytest.raises(write.SubmitError) as e:
        play.submit(game.pk, 0, 1, 0, via="web", prompt_key=key)
    assert e.value.code == "already_answered"
    assert Event.objects.filter(game=game, kind="answer").count() == 1


def test_another_seat_answering_a_simultaneous_decision_does_not_void_mine(make_game):
    game = make_game()
    key_b = prompt_key(game.engine.prompts(game.state)[1])
    play.submit(game.pk, 0, 1, 0, via="web")
    play.submit(game.pk, 1, 3, 0, via="web", prompt_key=key_b)  # B's page was loaded at version 0
    game.refresh_from_db()
    assert game.state["secret"] == [1, 3]


def test_a_stale_form_for_a_changed_question_is_refused(make_game):
    game = _hide_all(make_game())
    turn = game.state["turn"]
    key = prompt_key(game.engine.prompts(game.state)[turn])
    v = game.version
    play.submit(game.pk, turn, "take1", v, via="web", prompt_key=key)
    play.submit(game.pk, turn, "done", v + 1, via="web")
    other = (turn + 1) % 2
    with pytest.raises(write.SubmitError) as e:
        play.submit(game.pk, other, "take1", v, via="web", prompt_key="not-the-same")
    assert e.value.code == "stale"


def test_a_seat_that_is_not_asked_is_told_so(make_game):
    game = _hide_all(make_game())
    idle = 1 - game.state["turn"]
    with pytest.raises(write.SubmitError) as e:
        play.submit(game.pk, idle, "take1", game.version, via="web")
    assert e.value.code == "not_your_turn"


def test_one_email_per_wait_not_per_step(make_game):
    game = _hide_all(make_game())
    turn = game.state["turn"]
    before = Notification.objects.filter(seat__index=turn, kind="your_move").count()
    play.submit(game.pk, turn, "take1", game.version, via="web")  # the same turn goes on: "done" next
    assert Notification.objects.filter(seat__index=turn, kind="your_move").count() == before
    game.refresh_from_db()
    play.submit(game.pk, turn, "done", game.version, via="web")
    other = 1 - turn
    assert Notification.objects.filter(seat__index=other, kind="your_move").count() == 2  # hide, then this turn


def test_bots_play_by_themselves_to_the_end_and_everyone_gets_the_final_scores(make_game):
    game = make_game(seats=("ana@example.com", None, None))
    while True:
        game.refresh_from_db()
        if game.status == Game.Status.ENDED:
            break
        prompts = game.engine.prompts(game.state)
        assert list(prompts) == [0], "bots must have answered before a person is asked again"
        answer = game.engine.bot_answer(game.state, 0, __import__("random").Random(game.version))
        play.submit(game.pk, 0, answer, game.version, via="web")
    final = Notification.objects.get(kind="final")
    assert final.recipient == "ana@example.com"
    assert "Final scores" in final.body_text and "pebbles" in final.body_text
    assert game.events.last().kind == "ended"


def test_replay_of_the_log_equals_the_projection(make_game):
    game = make_game(seats=("ana@example.com", None))
    play.submit(game.pk, 0, 2, game.version, via="web")
    game.refresh_from_db()
    assert game.version >= 2
    assert not replay.rebuild_differs(game)
    state, last = replay.replay(game)
    assert state == game.state and last == game.version


def test_answers_to_a_finished_game_are_refused(make_game):
    game = make_game(seats=("ana@example.com", None))
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ENDED)
    with pytest.raises(write.SubmitError) as e:
        play.submit(game.pk, 0, 1, game.version, via="web")
    assert e.value.code == "ended"


def test_a_game_cannot_be_started_twice(make_game):
    game = make_game()
    with pytest.raises(write.SubmitError):
        organise.start_game(game)
    assert game.events.filter(kind="created").count() == 1
