"""A person's calendar feed (games/calendar_feed.py): every deadline running on them, one event per
seat with a stable UID, moved when the deadline moves, gone once answered, nothing of anyone else."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone
from icalendar import Calendar

from accounts import tokens
from accounts.models import User
from games.actions import organise, play
from games.calendar_feed import deadlines_of, feed_for, revisions
from games.models import Seat
from tests.test_calendar_files import HOSTILE_NAME, assert_well_formed

pytestmark = pytest.mark.django_db(transaction=True)


def ana() -> User:
    return User.objects.get(email="ana@example.com")


def events_of(user: User, now=None) -> dict[str, object]:
    """The feed's events by UID, read back as a calendar app reads them."""
    calendar = assert_well_formed(feed_for(user.pk, now or timezone.now()).body)
    return {str(e["uid"]): e for e in calendar.walk("VEVENT")}


def whole(when):
    """A time as a calendar file says it: to the second (earlier, never later, than the deadline)."""
    return when.replace(microsecond=0)


def uid(seat: Seat) -> str:
    return f"seat-{seat.pk}@localhost"


def seat_of_link(url: str) -> int:
    """The seat a link in the feed opens."""
    token = urlsplit(url).path.removeprefix("/play/").removesuffix("/")
    return tokens.read_seat_token(token)[0]


def test_every_deadline_of_mine_in_my_games_clocked_or_not(clocked, make_game, organiser):
    asked = clocked()  # ana and ben both hide a number, each within the hour
    second = clocked(seats=("ben@example.com", "ana@example.com"))
    answered = clocked()
    play.submit(answered.pk, 0, 2, None, via="web")  # ana has answered there: only ben is waited on
    make_game()  # no clock: ana is asked, with no deadline
    paused = clocked()
    organise.pause(paused, organiser, "a holiday")  # no clock runs while a game is paused
    ended = clocked()
    organise.end_game(ended, organiser, "a test")

    events = events_of(ana())
    mine = {s.game_id: s for s in Seat.objects.filter(player=ana())}
    assert set(events) == {uid(mine[asked.pk]), uid(mine[second.pk])}
    for game in (asked, second):
        seat = mine[game.pk]
        event = events[uid(seat)]
        assert event.decoded("dtstart") == whole(seat.deadline)
        assert str(event["summary"]) == "Your move in Clocked"
        assert str(event["description"]).startswith("Hide a secret number\nAnswer here: http://testserver/play/")
        assert seat_of_link(str(event["url"])) == seat.pk, "the link opens ana's own seat"
    # soonest first
    assert [d.seat_pk for d in deadlines_of(ana().pk, timezone.now())] == sorted(
        (mine[asked.pk].pk, mine[second.pk].pk), key=lambda pk: Seat.objects.get(pk=pk).deadline
    )


def test_the_link_in_the_feed_opens_the_seat(clocked):
    clocked()
    [event] = events_of(ana()).values()
    page = Client().get(str(event["url"]).removeprefix("http://testserver"))
    assert page.status_code == 200 and "Hide a secret number" in page.content.decode()


def test_a_link_from_yesterdays_feed_still_opens_the_seat(clocked):
    clocked()
    [deadline] = deadlines_of(ana().pk, timezone.now() - timedelta(days=1))
    assert Client().get(deadline.url.removeprefix("http://testserver")).status_code == 200


def test_a_moved_deadline_keeps_its_uid_with_the_new_time_and_a_later_revision(clocked, organiser):
    game = clocked()
    seat = Seat.objects.get(game=game, index=0)
    now = timezone.now()
    [before] = events_of(ana(), now).values()
    organise.extend_deadline(game, 2, organiser, "a long week")
    [after] = events_of(ana(), now + timedelta(seconds=30)).values()

    assert str(after["uid"]) == str(before["uid"]) == uid(seat)
    assert after.decoded("dtstart") == before.decoded("dtstart") + timedelta(hours=2)
    assert after.decoded("sequence") > before.decoded("sequence")
    assert after.decoded("last-modified") > before.decoded("last-modified")
    assert after.decoded("dtstamp") == after.decoded("last-modified")


def test_an_unchanged_deadline_keeps_its_revision_between_polls(clocked):
    clocked()
    now = timezone.now().replace(hour=12)  # both polls on one day: the links in it are the same all day
    first = feed_for(ana().pk, now)
    again = feed_for(ana().pk, now + timedelta(minutes=20))
    assert again.body == first.body and again.etag == first.etag and again.last_modified == first.last_modified


def test_an_answered_deadline_leaves_the_feed_and_the_next_wait_comes_back_under_the_same_uid(clocked):
    game = clocked()
    seat = Seat.objects.get(game=game, index=0)
    assert uid(seat) in events_of(ana())
    play.submit(game.pk, 0, 1, None, via="web")
    assert events_of(ana()) == {}, "answered: nothing is due from ana"
    play.submit(game.pk, 1, 1, None, via="web")  # both have hidden; someone is asked to take pebbles
    game.refresh_from_db()
    [turn] = game.engine.prompts(game.state)
    if turn != 0:  # ben takes first: ana is asked after his turn
        play.submit(game.pk, 1, "take1", None, via="web")
        play.submit(game.pk, 1, "done", None, via="web")
    seat.refresh_from_db()
    [event] = events_of(ana()).values()
    assert str(event["uid"]) == uid(seat) and event.decoded("dtstart") == whole(seat.deadline)
    assert str(event["description"]).startswith("Take pebbles")


def test_a_paused_game_leaves_the_feed_and_comes_back_moved_when_it_resumes(clocked, organiser, travel):
    game = clocked()
    seat = Seat.objects.get(game=game, index=0)
    organise.pause(game, organiser, "a holiday")
    assert events_of(ana()) == {}
    travel(30)
    organise.resume(game, organiser, "back")
    before = seat.deadline
    seat.refresh_from_db()
    assert seat.deadline > before + timedelta(minutes=29), "resuming moved the deadline by the pause"
    [event] = events_of(ana()).values()
    assert str(event["uid"]) == uid(seat) and event.decoded("dtstart") == whole(seat.deadline)


def test_nothing_of_another_seat_is_in_my_feed(clocked, make_game):
    game = clocked()
    play.submit(game.pk, 1, 3, None, via="web")  # ben hid his number; ana is still asked
    make_game(seats=("cy@example.org", "ben@example.com"))  # a game ana is not in
    body = feed_for(ana().pk, timezone.now()).body.decode()
    calendar = Calendar.from_ical(body)
    [event] = calendar.walk("VEVENT")
    ana_seat = Seat.objects.get(game=game, index=0)
    assert seat_of_link(str(event["url"])) == ana_seat.pk
    for seat in Seat.objects.exclude(player=ana()):
        assert f"seat-{seat.pk}@" not in body
    assert "ben" not in body and "cy@" not in body and "hid" not in body
    assert "Test table" not in body, "a game ana is not in"


def test_a_hostile_game_name_and_a_long_link_make_a_file_that_reads_back(organiser, settings):
    settings.SITE_URL = "https://turns.example.org/" + "p" * 180
    game = organise.create_game(
        organiser, "pebbles", HOSTILE_NAME, {}, ["ana@example.com", "ben@example.com"], decision_minutes=60
    )
    organise.start_game(game)
    [event] = events_of(ana()).values()
    assert len(str(event["url"])) > 200
    assert str(event["summary"]) == "Your move in Back\\slash, comma; semi new line and tab end"


def test_the_feed_reads_my_deadlines_in_one_query(clocked, django_assert_max_num_queries):
    for _ in range(3):
        clocked()
    user = ana()
    with django_assert_max_num_queries(1):
        assert len(feed_for(user.pk, timezone.now()).body) > 0


def test_a_forgotten_stamp_is_taken_as_changed_now_and_two_changes_in_a_second_are_two_revisions():
    now = timezone.now()
    first = revisions({"k": "a"}, now)["k"]
    assert first.timestamp() >= now.timestamp() and first.microsecond == 0
    changed = revisions({"k": "b"}, now)["k"]  # within the same second
    assert changed > first
    assert revisions({"k": "b"}, now + timedelta(hours=1))["k"] == changed, "unchanged: the same stamp"
    cache.clear()
    later = now + timedelta(hours=2)
    assert revisions({"k": "b"}, later)["k"] >= later, "forgotten: a client downloads once more, never keeps stale"


def test_vacation_hours_the_sweep_draws_move_the_event(clocked, travel):
    """The sweep moves a deadline with no event in the log: the feed notes the change itself."""
    from games.actions import deadlines

    clocked(auto_vacation=True, vacation_days=1, bot_after_misses=None)
    [before] = events_of(ana()).values()
    travel(61)
    assert deadlines.sweep()["timed_out"] == 0, "vacation hours drawn instead of a timeout"
    [after] = events_of(ana()).values()
    assert str(after["uid"]) == str(before["uid"])
    assert after.decoded("dtstart") > before.decoded("dtstart")
    assert after.decoded("sequence") > before.decoded("sequence")
