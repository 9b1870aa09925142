"""Deadlines, reminders, timeouts, pauses, vacations, undo, rewind, seats changing hands, plans, talk."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games import links, tasks
from games.actions import deadlines, organise, play, replay, talk, write
from games.models import Event, Game, Notification, Seat

pytestmark = pytest.mark.django_db(transaction=True)


def later(minutes: float):
    return timezone.now() + timedelta(minutes=minutes)


def seat(game, i) -> Seat:
    return Seat.objects.get(game=game, index=i)


def test_asked_seats_get_a_deadline_and_the_email_states_it(clocked):
    game = clocked()
    ana = seat(game, 0)
    assert ana.deadline and timedelta(minutes=59) < ana.deadline - ana.waiting_since <= timedelta(minutes=60)
    move = Notification.objects.get(seat=ana, kind="your_move")
    assert "Answer by" in move.body_text and "(UTC)" in move.body_text
    assert move.ics.startswith("BEGIN:VCALENDAR") and "DTSTART:" in move.ics


def test_a_reminder_is_sent_once_per_deadline(clocked, travel):
    clocked()
    travel(45)
    assert deadlines.sweep() == {"reminded": 0, "timed_out": 0}
    travel(52)
    assert deadlines.sweep()["reminded"] == 2
    travel(53)
    assert deadlines.sweep()["reminded"] == 0
    assert Notification.objects.filter(kind="reminder").count() == 2


def test_a_moved_deadline_is_reminded_again(clocked, travel):
    game = clocked()
    travel(52)
    deadlines.sweep()
    organise.extend_deadline(game, 1, reason="travel")
    travel(53)
    assert deadlines.sweep()["reminded"] == 0
    travel(112)
    assert deadlines.sweep()["reminded"] == 2
    assert Notification.objects.filter(kind="reminder").count() == 4


def test_a_seat_that_answered_is_never_reminded(clocked, travel):
    game = clocked()
    play.submit(game.pk, 0, 1, game.version, via="web")
    travel(52)
    deadlines.sweep()
    assert list(Notification.objects.filter(kind="reminder").values_list("recipient", flat=True)) == ["ben@example.com"]


def test_an_overdue_seat_times_out_once_with_the_default_answer(clocked, travel):
    game = clocked()
    travel(61)
    first = deadlines.sweep()
    second = deadlines.sweep()
    assert first["timed_out"] == 2 and second["timed_out"] == 0
    game.refresh_from_db()
    assert game.state["secret"] == [0, 0]  # Pebbles' default answer
    events = game.events.filter(kind="timeout")
    assert events.count() == 2 and {e.via for e in events} == {"deadline"}


def test_two_sweeps_at_once_time_each_seat_out_once(clocked, travel):
    import threading

    game = clocked()
    now = travel(61)
    from django.db import OperationalError, connection

    results = []

    def run():
        for _ in range(50):  # SQLite refuses a second writer at once: the next minute's sweep tries again
            try:
                results.append(deadlines.sweep(now))
                return
            except OperationalError:
                continue
            finally:
                connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(r["timed_out"] for r in results) == 2
    assert game.events.filter(kind="timeout").count() == 2


def test_after_n_misses_a_bot_takes_the_seat_and_everyone_is_told(clocked, travel):
    game = clocked(seats=("ana@example.com", "ben@example.com"))
    play.submit(game.pk, 1, 1, game.version, via="web")
    minutes = 0
    while seat(game, 0).misses < 2 and game.status == Game.Status.ACTIVE:
        game.refresh_from_db()
        for i in game.engine.prompts(game.state):
            if i == 1:
                play.submit(game.pk, 1, game.engine.default_answer(game.state, 1), game.version, via="web")
        minutes += 61
        travel(minutes)
        deadlines.sweep()  # ana never answers
        game.refresh_from_db()
    ana = seat(game, 0)
    assert ana.is_bot and ana.stand_in
    notices = Notification.objects.filter(kind="notice")
    assert {n.recipient for n in notices} == {"ana@example.com", "ben@example.com"}
    assert "take your seat back" in notices.get(recipient="ana@example.com").body_text
    assert game.events.filter(kind="admin", payload__action="hand_to_bot").exists()


def test_the_absent_player_takes_the_seat_back(clocked):
    game = clocked()
    organise.hand_to_bot(seat(game, 0), reason="away")
    with pytest.raises(write.SubmitError) as e:
        play.submit(game.pk, 0, 1, None, via="web")
    play.take_back_seat(seat(game, 0))
    ana = seat(game, 0)
    assert not ana.is_bot and not ana.stand_in
    assert e.value.code in ("stand_in", "not_your_turn")


def test_pause_stops_the_clock_and_resume_moves_deadlines(clocked, travel):
    game = clocked()
    before = seat(game, 0).deadline
    organise.pause(game, reason="holidays")
    with pytest.raises(write.SubmitError, match="paused"):
        play.submit(game.pk, 0, 1, None, via="web")
    travel(180)
    assert deadlines.sweep()["timed_out"] == 0
    organise.resume(game)
    assert seat(game, 0).deadline - before >= timedelta(minutes=180) - timedelta(seconds=5)
    travel(200)
    assert deadlines.sweep()["timed_out"] == 0, "the clock stood still while paused"


def test_every_player_agreeing_pauses_the_game(clocked):
    game = clocked()
    assert organise.vote_pause(seat(game, 0)) is False
    assert organise.vote_pause(seat(game, 1)) is True
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED


def test_a_vacation_moves_the_current_deadline_within_the_allowance(clocked):
    game = clocked(vacation_days=3)
    ana = seat(game, 0)
    before = ana.deadline
    deadlines.declare_vacation(ana, timezone.now(), timezone.now() + timedelta(days=2))
    assert seat(game, 0).deadline - before >= timedelta(days=2) - timedelta(seconds=5)
    with pytest.raises(write.SubmitError, match="1 day left"):
        deadlines.declare_vacation(ana, later(60 * 24 * 5), later(60 * 24 * 7))


def test_undo_takes_back_a_misclick_until_another_seat_acts(clocked):
    game = clocked()
    play.submit(game.pk, 0, 3, game.version, via="web")
    play.undo(seat(game, 0))
    game.refresh_from_db()
    assert game.state["secret"][0] is None and not replay.rebuild_differs(game)
    play.submit(game.pk, 0, 1, game.version, via="web")
    game.refresh_from_db()
    play.submit(game.pk, 1, 2, game.version, via="web")
    assert "someone else has acted" in play.undo_refusal(game, seat(game, 0))
    with pytest.raises(write.SubmitError):
        play.undo(seat(game, 0))


def test_rewind_voids_later_steps_and_keeps_them_in_the_log(clocked, organiser):
    game = clocked()
    play.submit(game.pk, 0, 3, game.version, via="web")
    game.refresh_from_db()
    play.submit(game.pk, 1, 2, game.version, via="web")
    game.refresh_from_db()
    organise.rewind(game, 1, actor=organiser, reason="misread")
    game.refresh_from_db()
    assert game.state["secret"] == [3, None]
    assert game.events.filter(kind="answer").count() == 2, "nothing is deleted"
    rw = game.events.get(kind="admin", payload__action="rewind")
    assert rw.payload["voids"] == [2] and rw.actor == organiser and rw.payload["reason"] == "misread"
    play.submit(game.pk, 1, 1, game.version, via="web")
    game.refresh_from_db()
    assert game.state["secret"] == [3, 1] and not replay.rebuild_differs(game)


def test_replacing_a_player_revokes_the_old_link(clocked):
    game = clocked()
    old = links.token_for(seat(game, 0))
    organise.replace_player(seat(game, 0), "cleo@example.com", reason="Ana left")
    with pytest.raises(links.LinkError):
        links.seat_from_token(old)
    new = seat(game, 0)
    assert new.player.email == "cleo@example.com"
    assert Notification.objects.filter(recipient="cleo@example.com", kind="your_move").exists()


def test_answers_left_in_advance_are_played_in_order_when_the_question_comes(clocked):
    game = clocked()
    play.submit(game.pk, 0, 1, game.version, via="web")
    game.refresh_from_db()
    play.submit(game.pk, 1, 1, game.version, via="web")
    game.refresh_from_db()
    idle = 1 - game.state["turn"]
    play.set_plan(seat(game, idle), ["take9", "take2", "take1"])
    turn = game.state["turn"]
    play.submit(game.pk, turn, "take1", game.version, via="web")
    game.refresh_from_db()
    play.submit(game.pk, turn, "done", game.version, via="web")
    game.refresh_from_db()
    assert game.events.filter(via="conditional").count() == 1
    assert game.state["taken"][idle] == 2 and seat(game, idle).plan == []


def test_a_plan_with_no_legal_answer_falls_back_to_asking(clocked):
    game = clocked()
    play.submit(game.pk, 0, 1, game.version, via="web")
    game.refresh_from_db()
    play.submit(game.pk, 1, 1, game.version, via="web")
    game.refresh_from_db()
    idle, turn = 1 - game.state["turn"], game.state["turn"]
    play.set_plan(seat(game, idle), ["take9"])
    play.submit(game.pk, turn, "take1", game.version, via="web")
    game.refresh_from_db()
    play.submit(game.pk, turn, "done", game.version, via="web")
    asked = Notification.objects.filter(seat=seat(game, idle), kind="your_move").order_by("-created_at").first()
    assert "None of the answers you left in advance" in asked.body_text


def test_table_talk_reaches_idle_seats_at_once_and_asked_seats_with_their_next_email(clocked):
    game = clocked()
    play.submit(game.pk, 0, 1, game.version, via="web")  # ana idle now, ben still asked
    talk.post_message(seat(game, 1), "Good luck <b>all</b>")
    mailed = Notification.objects.get(kind="message")
    assert mailed.recipient == "ana@example.com" and "Good luck <b>all</b>" in mailed.body_text
    assert "&lt;b&gt;" in mailed.body_html
    for _ in range(4):
        talk.post_message(seat(game, 1), "again")
    with pytest.raises(write.SubmitError, match="messages every 10 minutes"):
        talk.post_message(seat(game, 1), "too much")


def test_digest_readers_get_one_email_a_day_instead_of_one_per_decision(clocked, django_user_model):
    django_user_model.objects.create_user("ana@example.com", email_mode="digest", digest_hour=0)
    game = clocked()
    assert not Notification.objects.filter(recipient="ana@example.com", kind="your_move").exists()
    assert tasks.sweep()["digests"] == 1
    assert tasks.sweep()["digests"] == 0
    digest = Notification.objects.get(kind="digest")
    assert "Clocked" in digest.body_text and "/play/" in digest.body_text
    del game


def test_unsubscribed_players_get_no_email_and_their_games_go_on(clocked, django_user_model, client):
    game = clocked()
    ana_mail = next(m for m in mail.outbox if m.to == ["ana@example.com"])
    assert ana_mail.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = ana_mail.extra_headers["List-Unsubscribe"].strip("<>").replace("http://testserver", "")
    assert client.get(url).status_code == 200
    assert not django_user_model.objects.get(email="ana@example.com").unsubscribed, "a GET changes nothing"
    client.post(url, {"List-Unsubscribe": "One-Click"})
    assert django_user_model.objects.get(email="ana@example.com").unsubscribed
    before = Notification.objects.filter(recipient="ana@example.com").count()
    play.submit(game.pk, 1, 1, game.version, via="web")
    play.submit(game.pk, 0, 1, None, via="web")
    game.refresh_from_db()
    assert Notification.objects.filter(recipient="ana@example.com").count() == before
    assert game.state["secret"] == [1, 1]


def test_end_game_tells_everyone(clocked, organiser):
    game = clocked()
    organise.end_game(game, organiser, "we stop here")
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED
    assert Notification.objects.filter(kind="notice").count() == 2
    assert Event.objects.get(game=game, payload__action="end").actor == organiser
