"""Clocks that fit real lives (issue 16), through the write path and the sweep: time banks, quiet
days, quiet hours, reminders at the player's points (folded into a digest), automatic vacation
hours; the forms that set them; what the pages say."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import User
from games import digest, links
from games.actions import absences, deadlines, organise, play, replay
from games.clock.terms import WEEKDAYS
from games.models import Event, Game, Notification, Seat, Vacation

pytestmark = pytest.mark.django_db(transaction=True)

HOUR = timedelta(hours=1)
BANK = {"decision_minutes": None, "reminder_minutes": None, "bank_hours": 2, "bank_increment_hours": 1}


def seat(game, i) -> Seat:
    return Seat.objects.get(game=game, index=i)


def answer(game, index: int, value) -> None:
    fresh = Game.objects.get(pk=game.pk)
    play.submit(fresh.pk, index, value, fresh.version, via="web")


def stored_banks(game) -> dict[int, int]:
    return {s.index: s.bank_seconds for s in game.seats.all()}


def test_a_time_bank_is_charged_for_the_time_asked_and_replays_from_the_log(clocked, travel):
    travel(0)  # the game starts at the test's minute 0
    game = clocked(**BANK, bank_cap_hours=3)
    ana = seat(game, 0)
    assert ana.bank_seconds == 7200 and ana.deadline == ana.clock_since + 2 * HOUR
    travel(30)
    answer(game, 0, 1)
    charged = Event.objects.filter(game=game, seat=0, kind=Event.Kind.ANSWER).last().payload["charged"]
    assert charged == 1800
    assert seat(game, 0).bank_seconds == 7200 - 1800 + 3600 == 9000
    travel(100)
    answer(game, 1, 2)  # ben took 100 minutes of his 120
    assert seat(game, 1).bank_seconds == 7200 - 6000 + 3600
    turn = Game.objects.get(pk=game.pk).state["turn"]
    travel(130)
    answer(game, turn, "take1")  # a turn of two steps: the first is charged, the deadline moves with the bank
    mover = seat(game, turn)
    assert mover.waiting_since is not None and mover.deadline == mover.clock_since + timedelta(
        seconds=mover.bank_seconds
    )
    assert mover.bank_seconds <= 3 * 3600, "never above the cap"
    assert replay.banks(Game.objects.get(pk=game.pk)) == stored_banks(game)


def test_a_bank_that_runs_out_times_the_seat_out_and_the_increment_follows(clocked, travel):
    game = clocked(**{**BANK, "bank_hours": 1})
    now = travel(61)
    assert deadlines.sweep(now)["timed_out"] == 2
    assert deadlines.sweep(now)["timed_out"] == 0, "idempotent"
    timeouts = Event.objects.filter(game=game, kind=Event.Kind.TIMEOUT)
    assert sorted(e.payload["charged"] for e in timeouts) == [3600, 3600]
    assert stored_banks(game) == {0: 3600, 1: 3600} == replay.banks(Game.objects.get(pk=game.pk))


def test_undo_gives_the_charge_back_and_the_banks_still_replay(clocked, travel):
    travel(0)
    game = clocked(**BANK)
    travel(20)
    answer(game, 0, 1)
    play.undo(seat(game, 0))
    assert seat(game, 0).bank_seconds == 7200
    assert replay.banks(Game.objects.get(pk=game.pk)) == {}


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(1, 200), min_size=2, max_size=6))
def test_banks_replay_from_the_log_for_random_answer_times(clocked, travel, waits):
    travel(0)  # each example's game starts at minute 0; its answers come at the drawn waits after
    game = clocked(**BANK, bank_cap_hours=4)
    clock = 0
    for wait in waits:
        clock += wait
        travel(clock)
        fresh = Game.objects.get(pk=game.pk)
        asked = fresh.engine.prompts(fresh.state)
        if not asked:
            break
        index = min(asked)
        if Seat.objects.get(game=game, index=index).deadline <= timezone.now():
            deadlines.sweep(timezone.now())
            continue
        prompt = asked[index].to_dict()
        answer(game, index, prompt["options"][0]["id"] if prompt["kind"] == "choose" else 1)
    banks = stored_banks(game)
    assert all(b is not None and b >= 0 for b in banks.values())
    replayed = replay.banks(Game.objects.get(pk=game.pk))
    assert replayed == {k: banks[k] for k in replayed} and set(banks) - set(replayed) <= {
        k for k, v in banks.items() if v == 7200
    }


def test_quiet_days_stop_the_clock(clocked):
    tomorrow = (timezone.now() + timedelta(days=1)).astimezone(UTC).weekday()
    game = clocked(decision_minutes=None, decision_hours=24, reminder_minutes=None, quiet_days=WEEKDAYS[tomorrow])
    ana = seat(game, 0)
    assert ana.deadline == ana.waiting_since + timedelta(hours=48)


def test_a_deadline_in_my_quiet_hours_moves_to_their_end(clocked):
    now = timezone.now().astimezone(UTC)
    start, end = (now + timedelta(minutes=30)).replace(second=0, microsecond=0), now + timedelta(hours=3)
    end = end.replace(second=0, microsecond=0)
    User.objects.create_user("ana@example.com", quiet_hours=f"{start:%H:%M}-{end:%H:%M}")
    game = clocked()
    assert seat(game, 0).deadline == end
    ben = seat(game, 1)
    assert ben.deadline == ben.waiting_since + HOUR


def test_reminders_come_at_my_points_once_each_again_if_moved_and_never_after_i_answered(clocked, travel):
    User.objects.create_user("ana@example.com", reminder_points="40m, 20m")
    travel(0)
    game = clocked()  # the game's own reminder: 10 minutes before, for ben

    def reminders(email: str) -> int:
        return Notification.objects.filter(kind="reminder", recipient=email).count()

    for minute, ana_count in ((19, 0), (21, 1), (22, 1), (41, 2), (42, 2)):
        deadlines.sweep(travel(minute))
        assert reminders("ana@example.com") == ana_count, minute
    answer(game, 1, 0)  # ben answers before his reminder
    deadlines.sweep(travel(51))
    assert reminders("ben@example.com") == 0 and reminders("ana@example.com") == 2
    organise.extend_deadline(game, 1, reason="a moved deadline")
    deadlines.sweep(travel(81))
    assert reminders("ana@example.com") == 3, "a moved deadline is reminded again"


def test_a_digest_reader_gets_the_reminder_in_the_digest_when_it_comes_first(clocked, travel):
    now = travel(0)
    # ana's digest is due now; ben's comes at 03:00 his time, in a zone where it is just past midnight
    User.objects.create_user("ana@example.com", email_mode="digest", digest_hour=0)
    offset = -now.astimezone(UTC).hour % 24
    offset = offset - 24 if offset > 14 else offset
    zone = "UTC" if offset == 0 else f"Etc/GMT{'-' if offset > 0 else '+'}{abs(offset)}"
    User.objects.create_user("ben@example.com", email_mode="digest", digest_hour=3, timezone=zone)
    clocked()
    at = travel(51)
    assert deadlines.sweep(at)["reminded"] == 2
    assert not Notification.objects.filter(kind="reminder", recipient="ana@example.com").exists()
    assert Notification.objects.filter(kind="reminder", recipient="ben@example.com").count() == 1
    assert digest.next_digest_at(User.objects.get(email="ben@example.com"), at) > at + HOUR
    digest.send_due(at)
    folded = Notification.objects.get(kind="digest", recipient="ana@example.com")
    assert "(in 9 min)" in folded.body_text or "(in 9 min)" in str(folded.context)


def test_automatic_vacation_keeps_a_seat_waiting_hour_by_hour_until_used_up(clocked, travel):
    game = clocked(auto_vacation=True, vacation_days=1, bot_after_misses=None)
    due = seat(game, 0).deadline
    now = travel(61)
    assert deadlines.sweep(now)["timed_out"] == 0
    drawn = Vacation.objects.get(seat=seat(game, 0), automatic=True)
    assert (drawn.starts, drawn.ends) == (due, due + HOUR) and seat(game, 0).deadline == due + HOUR
    assert deadlines.sweep(now)["timed_out"] == 0 and Vacation.objects.filter(automatic=True).count() == 2
    assert not Event.objects.filter(game=game, kind=Event.Kind.TIMEOUT).exists()
    page = Client().get(links.url_for(seat(game, 1))).content.decode()
    assert "using vacation time (23 h left)" in page
    deadlines.sweep(travel(125))  # an hour later: the next hour, from where the last one ended
    hours = sorted(Vacation.objects.filter(seat=seat(game, 0)).values_list("starts", "ends"))
    assert hours == [(due, due + 2 * HOUR)], "hours that follow on extend the row drawn before"
    assert seat(game, 0).deadline == due + 2 * HOUR
    # a day later the allowance cannot cover the wait: the seat times out
    assert deadlines.sweep(travel(125 + 24 * 60))["timed_out"] == 2


def test_a_declared_absence_comes_before_automatic_hours(clocked, travel):
    game = clocked(auto_vacation=True)
    ana = User.objects.get(email="ana@example.com")
    absences.declare_absence(ana, timezone.now(), timezone.now() + 3 * HOUR)
    assert seat(game, 0).deadline > timezone.now() + 3 * HOUR
    deadlines.sweep(travel(61))
    assert not Vacation.objects.filter(seat=seat(game, 0), automatic=True).exists()
    assert Vacation.objects.filter(seat=seat(game, 1), automatic=True).exists()


GOOD = {"title": "pebbles", "name": "Clock table", "seats": "host@example.org\nfriend@example.org"}


def test_a_refused_clock_stores_nothing_and_a_good_one_is_kept_for_play_again():
    client = Client()
    client.force_login(User.objects.for_email("host@example.org"))
    response = client.post(reverse("game-new"), {**GOOD, "bank_hours": "24", "decision_hours": "24"})
    assert response.status_code != 302 and "A time bank is a clock of its own" in response.content.decode()
    assert not Game.objects.exists()
    good = {**GOOD, "bank_hours": "72", "bank_increment_hours": "24", "quiet_days": "Sat, Sun", "auto_vacation": "on"}
    assert client.post(reverse("game-new"), good).status_code == 302
    game = Game.objects.get()
    assert (game.quiet_days, game.bank_hours, game.auto_vacation) == ("sat,sun", 72, True)
    assert all(name in Game.CLOCK_FIELDS for name in ("bank_hours", "quiet_days", "auto_vacation"))


@pytest.mark.parametrize(
    "field, value",
    [("quiet_hours", "23-23"), ("quiet_hours", "25-7"), ("reminder_points", "soon"), ("timezone", "x/y")],
)
def test_my_profile_refuses_bad_clock_preferences_and_saves_nothing(field, value):
    user = User.objects.for_email("ana@example.com")
    client = Client()
    client.force_login(user)
    form = {"name": "Ana", "email_mode": "each", "digest_hour": "8", "timezone": "UTC", field: value}
    assert client.post("/me/", form).status_code == 400
    user.refresh_from_db()
    assert (user.quiet_hours, user.reminder_points, user.timezone) == ("", "", "UTC")


def test_my_profile_keeps_quiet_hours_and_reminder_points_in_their_normal_form():
    user = User.objects.for_email("ana@example.com")
    client = Client()
    client.force_login(user)
    form = {"name": "Ana", "email_mode": "each", "digest_hour": "8", "timezone": "Europe/Lisbon"}
    response = client.post("/me/", {**form, "quiet_hours": "23-7", "reminder_points": "1h, 24 hours, 4h"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert (user.quiet_hours, user.reminder_points) == ("23:00-07:00", "24h,4h,1h")


def test_the_seat_page_states_the_rules_and_each_bank_and_my_games_the_vacation_left(clocked):
    game = clocked(**BANK, quiet_days="sat,sun", vacation_days=10)
    page = Client().get(links.url_for(seat(game, 0))).content.decode()
    assert "The clock: 2 h in the bank, +1 h per move, weekends off." in page
    assert page.count("in the bank</span>") == 2
    move = Notification.objects.get(kind="your_move", recipient="ana@example.com")
    assert "Your time bank: 2 h." in move.body_text
    client = Client()
    client.force_login(User.objects.get(email="ana@example.com"))
    assert "Vacation: 10 of 10 days left this year" in client.get("/").content.decode()


def test_a_pause_is_not_charged_to_the_bank(clocked, travel, organiser):
    travel(0)
    game = clocked(**BANK)
    ben_due = seat(game, 1).deadline
    travel(10)
    organise.pause(Game.objects.get(pk=game.pk), organiser, "a break")
    travel(70)
    organise.resume(Game.objects.get(pk=game.pk), organiser, "back")
    travel(80)
    answer(game, 0, 1)
    assert Event.objects.filter(game=game, kind=Event.Kind.ANSWER).last().payload["charged"] == 20 * 60
    assert seat(game, 1).deadline == ben_due + HOUR
