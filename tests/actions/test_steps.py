"""A turn of several steps in one send (play.submit_steps) and its preview (play.preview_steps).

The write path plays a seat's queued steps in order in one transaction: every step or none, one
lock and one version check, one Event per step (so the log replays to the stored state), and one
email per wait after the whole run. A refused step is named, with its words and why. The preview
applies the same steps to a copy of the table and writes nothing. Played with Relay (a tiny title
whose turns are runs of steps, with a random draw and a sealed phase: tests/support/relay.py) and
with Café, the title whose page queues its actions.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.actions import play, replay, steps, write
from games.engine import step_rng
from games.engine.prompts import prompt_key
from games.models import Event, Game, Notification, Seat
from games.titles import register, unregister
from tests.support.cafe_turns import ANA_BROWN, BEN_BROWN, bot_rng, keeping, queued_run, scarce_brown, to_play_phase
from tests.support.relay import TITLE as RELAY

pytestmark = pytest.mark.django_db

PEOPLE = ("ana@example.com", "ben@example.com")


def world(game: Game) -> tuple:
    """What a send may change: the log, the projection, the seats' waits, the outbox."""
    game = Game.objects.get(pk=game.pk)
    return (
        list(game.events.values_list("seq", "kind", "seat", "payload")),
        game.version,
        game.state,
        list(Seat.objects.filter(game=game).order_by("index").values_list("waiting_since", "deadline", "misses")),
        Notification.objects.count(),
    )


def asks(game: Game, seat: int) -> int:
    """Your-move emails to one seat so far."""
    return Notification.objects.filter(game=game, seat__index=seat, kind=Notification.Kind.YOUR_MOVE).count()


def refused(game: Game, answers: list, version: int | None = None, seat: int = 0, key: str | None = None) -> str:
    before = world(game)
    with pytest.raises(write.SubmitError) as caught:
        version = game.version if version is None else version
        play.submit_steps(game.pk, seat, answers, version, via="web", prompt_key=key)
    assert world(game) == before, "a refused send changed something"
    return caught.value.message


def test_a_queued_turn_plays_every_step_in_order_with_one_event_each(relay):
    game = relay
    start, state = game.version, game.state
    mailed_ana, mailed_ben = asks(game, 0), asks(game, 1)
    played = play.submit_steps(game.pk, 0, ["add1", "add2", "add2", "end"], game.version, via="web")
    game.refresh_from_db()
    assert len(played) == 4 and game.version == start + 4
    events = list(game.events.filter(seq__gt=start).order_by("seq"))
    assert [(e.seq, e.kind, e.seat, e.payload["answer"], e.via) for e in events] == [
        (start + 1 + i, Event.Kind.ANSWER, 0, a, "web") for i, a in enumerate(["add1", "add2", "add2", "end"])
    ]
    for i, answer in enumerate(["add1", "add2", "add2", "end"]):  # each against the table the one before left
        state = RELAY.apply(state, 0, answer, step_rng(game.seed, start + 1 + i))
    assert game.state == state and game.state["sums"][0] == 5 and game.state["turn"] == 1
    assert replay.replay(game) == (game.state, game.version), "the log replays to the stored table"
    assert asks(game, 1) == mailed_ben + 1, "Ben, asked now, gets one email for his wait"
    assert asks(game, 0) == mailed_ana, "Ana, whose turn it was, gets none"


def test_a_refused_later_step_plays_nothing_and_says_which_and_why(relay):
    game = relay
    play.submit_steps(game.pk, 0, ["add2", "add2", "add2"], game.version, via="web")  # Ana's sum is 6
    game.refresh_from_db()
    said = refused(game, ["add1", "add1", "add2"])
    assert said == "Your 3rd step, Add 2, was refused: Your sum cannot pass 9. Nothing was played."
    said = refused(game, ["add1", "fly"])
    assert said == "Your 2nd step was refused: That is not one of the choices offered. Nothing was played."


def test_a_step_that_hands_the_move_on_ends_the_queue(relay):
    said = refused(relay, ["add1", "end", "add1"])
    assert said == (
        "Your 2nd step, End my turn, ends your turn (it hands the move to another player), "
        "so nothing can be sent after it. Nothing was played."
    )


def test_a_step_that_draws_at_random_ends_the_queue(relay):
    said = refused(relay, ["draw", "add1"])
    assert said.startswith("Your 1st step, Draw a card, ends your turn (it draws at random)"), said
    played = play.submit_steps(relay.pk, 0, ["add1", "draw"], relay.version, via="web")  # last: it may draw
    assert len(played) == 2


def test_a_sealed_question_is_sent_alone(make_game):
    register(RELAY)
    try:
        game = make_game(title="relay", seats=PEOPLE)
        said = refused(game, [1, 2])
        assert (
            said == "These answers cannot be sent together: this question is answered on its own. Nothing was played."
        )
        play.submit_steps(game.pk, 0, [2], game.version, via="web")  # one step: as submit
        game.refresh_from_db()
        assert game.state["secret"][0] == 2
    finally:
        unregister("relay")


def test_a_double_send_and_a_stale_page_are_refused(relay):
    game = relay
    seen = game.version
    play.submit_steps(game.pk, 0, ["add1", "add1"], seen, via="web")
    game.refresh_from_db()
    assert refused(game, ["add1", "add1"], version=seen) == "You have already answered this. Nothing more was played."
    play.submit_steps(game.pk, 0, ["end"], game.version, via="web")
    game.refresh_from_db()
    assert refused(game, ["add1"], version=seen, seat=1).startswith("The table changed since you were asked")
    assert refused(game, ["add1"], version=game.version + 5).startswith("This form does not come from")
    assert refused(game, ["add1"]).startswith("It is not your move right now")


def test_a_queued_turn_checks_the_version_once_and_writes_in_one_go(relay):
    """One guarded UPDATE of the game row (the version read under the lock) and one INSERT of all
    the events: a step never sees a table another write moved in between."""
    with CaptureQueriesContext(connection) as queries:
        play.submit_steps(relay.pk, 0, ["add1", "add1", "add2", "add1"], relay.version, via="web")
    sql = [q["sql"] for q in queries.captured_queries]
    game_updates = [s for s in sql if 'UPDATE "games_game"' in s]
    event_inserts = [s for s in sql if 'INSERT INTO "games_event"' in s]
    assert len(game_updates) == 1 and re.search(r"version\W*=", game_updates[0].split("WHERE")[1])
    assert len(event_inserts) == 1


def test_steps_are_ordinals_in_words():
    assert [steps.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th",
    ]  # fmt: skip


def test_too_many_steps_are_refused_in_words(relay):
    said = refused(relay, ["add1"] * (steps.MAX_STEPS + 1))
    assert f"a turn takes at most {steps.MAX_STEPS} steps" in said


# --- the preview ---------------------------------------------------------------------------------


def test_the_preview_draws_the_table_after_the_steps_and_writes_nothing(relay):
    game = relay
    ana = Seat.objects.get(game=game, index=0)
    before = world(game)
    seen = play.preview_steps(game, ana, ["add1", "add2"], game.version, None)
    assert world(game) == before
    assert [(s.answer, s.label) for s in seen.steps] == [("add1", "Add 1"), ("add2", "Add 2")]
    assert seen.state["sums"] == [3, 0] and seen.prompt.text == "Your sum is 3"
    assert not seen.note


def test_the_preview_never_shows_a_random_draw_nor_what_ends_the_turn(relay):
    game = relay
    ana = Seat.objects.get(game=game, index=0)
    seen = play.preview_steps(game, ana, ["add1", "draw"], game.version, None)
    assert seen.state is None and seen.prompt is None
    assert seen.note == "Draw a card ends what can be queued (it draws at random): send to see what follows."
    seen = play.preview_steps(game, ana, ["add1", "end"], game.version, None)
    assert seen.state is None and "it hands the move to another player" in seen.note
    with pytest.raises(write.SubmitError) as caught:
        play.preview_steps(game, ana, ["draw", "add1"], game.version, None)
    assert caught.value.message.endswith("It was not queued.")


def test_the_preview_of_a_sealed_question_is_refused(make_game):
    """A preview of the last sealed answer would show the others' answers as the rules reveal them:
    only a title that vouches for its questions (TITLE.queue_steps) is previewed."""
    register(RELAY)
    try:
        game = make_game(title="relay", seats=PEOPLE)
        play.submit(game.pk, 1, 3, None, via="web")
        game.refresh_from_db()
        ana = Seat.objects.get(game=game, index=0)
        with pytest.raises(write.SubmitError) as caught:
            play.preview_steps(game, ana, [1], game.version, None)
        assert caught.value.message == "This question is answered on its own: send it as it is."
    finally:
        unregister("relay")


def test_the_preview_refuses_a_stale_page_and_a_seat_not_asked(relay):
    game = relay
    seen = game.version
    ben = Seat.objects.get(game=game, index=1)
    with pytest.raises(write.SubmitError) as caught:
        play.preview_steps(game, ben, ["add1"], game.version, None)
    assert caught.value.code == "not_your_turn"
    play.submit_steps(game.pk, 0, ["add1"], seen, via="web")
    game.refresh_from_db()
    ana = Seat.objects.get(game=game, index=0)
    with pytest.raises(write.SubmitError) as caught:
        play.preview_steps(game, ana, ["add1"], seen, None)
    assert caught.value.message.startswith("You have answered since this page was shown")


# --- Café, whose page queues a seat's placement and actions ----------------------------------------


def _cafe(make_game, monkeypatch, seed: str) -> Game:
    from games.actions import organise

    monkeypatch.setattr(organise, "new_seed", lambda: seed)
    return make_game(title="cafe", seats=PEOPLE, options={"first_master": "first"})


def test_cafe_played_in_queued_turns_is_the_game_played_one_step_at_a_time(make_game, monkeypatch):
    """Two games from one seed: one sends each seat's whole placement and actions at once, the
    other replays the same answers one by one. The same log, the same table, the same emails (one
    per wait), and the log replays to the stored table."""
    queued = to_play_phase(_cafe(make_game, monkeypatch, "same-seed"))
    sends: list[tuple[int, list]] = []
    while queued.status == Game.Status.ACTIVE and queued.state["round"] <= 3:
        engine = queued.engine
        asked = sorted(engine.prompts(queued.state))
        seat = asked[0]
        if queued.state["phase"] == "play":
            run = queued_run(queued, seat)
            play.submit_steps(queued.pk, seat, run, queued.version, via="web")
        else:
            run = [engine.bot_answer(queued.state, seat, bot_rng(queued.state, seat))]
            play.submit(queued.pk, seat, run[0], queued.version, via="web")
        sends.append((seat, run))
        queued.refresh_from_db()
    assert any(len(run) >= 3 for _, run in sends), "no turn of several steps was queued"

    single = _cafe(make_game, monkeypatch, "same-seed")
    to_play_phase(single)
    for seat, run in sends:
        for answer in run:
            single.refresh_from_db()
            play.submit(single.pk, seat, answer, single.version, via="web")
    single.refresh_from_db()

    def log(game: Game) -> list:
        return list(game.events.order_by("seq").values_list("seq", "kind", "seat", "payload"))

    def mailed(game: Game) -> list:
        return list(
            Notification.objects.filter(game=game, kind=Notification.Kind.YOUR_MOVE)
            .order_by("pk")
            .values_list("seat__index", "subject")
        )

    assert log(queued) == log(single) and queued.state == single.state
    assert mailed(queued) == mailed(single)
    assert replay.replay(queued) == (queued.state, queued.version)


def test_a_step_another_seat_made_impossible_is_named_in_the_words_the_page_showed(make_game, monkeypatch):
    """Ana queues her placement and a brown produce on the last brown cube; Ben's produce takes it
    first. Her send plays nothing, and says which step and why."""
    game = scarce_brown(to_play_phase(_cafe(make_game, monkeypatch, "race")))
    seen = game.version
    ana_run = [keeping(game, 0, ANA_BROWN), f"produce@{ANA_BROWN}"]
    ana = Seat.objects.get(game=game, index=0)
    label = play.preview_steps(game, ana, ana_run, seen, None).steps[1].label
    assert label == "Produce 1 brown on row 1, col 2", label
    key = prompt_key(game.engine.prompts(game.state)[0])
    play.submit_steps(game.pk, 1, [keeping(game, 1, BEN_BROWN), f"produce@{BEN_BROWN}"], game.version, via="web")
    game.refresh_from_db()
    assert game.state["supply"]["brown"] == 0
    assert prompt_key(game.engine.prompts(game.state)[0]) == key, "Ana's page still shows her question"
    said = refused(game, ana_run, version=seen, key=key)
    assert said == (
        f"Your 2nd step, {label}, was refused: the table changed since you chose it (another player moved), "
        "and it is no longer possible. Nothing was played."
    )
