"""The absence calendar (issue 14): declared once, it stops a person's clocks in every game."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games import links
from games.actions import absences, organise
from games.actions.write import SubmitError
from games.models import Absence, Event, Seat, Vacation

pytestmark = pytest.mark.django_db(transaction=True)

DAY = timedelta(days=1)


def ana() -> User:
    return User.objects.get(email="ana@example.com")


def seat_of(game, email="ana@example.com") -> Seat:
    return Seat.objects.get(game=game, player__email=email)


def test_one_absence_stops_my_clock_in_every_game_i_play(clocked):
    first, second = clocked(), clocked()
    before = [seat_of(g).deadline for g in (first, second)]
    starts = timezone.now() + timedelta(minutes=5)
    absence = absences.declare_absence(ana(), starts, starts + 3 * DAY)
    for game, was in zip((first, second), before, strict=True):
        seat = seat_of(game)
        vacation = Vacation.objects.get(seat=seat)
        assert vacation.absence == absence and vacation.ends == starts + 3 * DAY
        assert seat.away_until == starts + 3 * DAY
        assert seat.deadline >= was + 3 * DAY - timedelta(seconds=1), "the clock stops for the absence"
        assert Event.objects.filter(game=game, kind=Event.Kind.ADMIN, payload__action="vacation").count() == 1
    # ben's deadlines are his own
    assert seat_of(first, "ben@example.com").away_until is None


def test_each_games_yearly_allowance_caps_what_it_grants(clocked):
    generous, strict = clocked(vacation_days=30), clocked(vacation_days=2)
    starts = timezone.now() + timedelta(minutes=5)
    absence = absences.declare_absence(ana(), starts, starts + 5 * DAY)
    assert Vacation.objects.get(seat=seat_of(generous)).ends == starts + 5 * DAY
    assert Vacation.objects.get(seat=seat_of(strict)).ends == starts + 2 * DAY
    rows = {g.game.pk: g for g in absences.granted(absence)}
    # not begun yet: nothing used so far, two days booked
    assert (rows[strict.pk].used_days, rows[strict.pk].booked_days, rows[strict.pk].allowance_days) == (0, 2, 2)
    # an allowance used up grants nothing more
    again = absences.declare_absence(ana(), starts + 10 * DAY, starts + 12 * DAY)
    assert not Vacation.objects.filter(seat=seat_of(strict), absence=again).exists()
    assert Vacation.objects.filter(seat=seat_of(generous), absence=again).exists()


def test_a_game_i_join_during_an_absence_stops_my_clock_too(organiser, clocked):
    starts = timezone.now() - timedelta(minutes=1)
    User.objects.for_email("ana@example.com")  # signed in before any game of hers
    absences.declare_absence(ana(), starts, starts + 2 * DAY)
    game = clocked()  # started while ana is away
    seat = seat_of(game)
    assert Vacation.objects.filter(seat=seat).exists()
    assert seat.deadline > starts + 2 * DAY, "her first deadline falls after she is back"
    other = clocked(seats=("ben@example.com", "cy@example.org"))
    replaced = organise.replace_player(seat_of(other, "cy@example.org"), "ana@example.com", actor=organiser)
    assert Vacation.objects.filter(seat=replaced).exists()


def test_the_profile_page_declares_an_absence_and_shows_each_games_part(clocked):
    game = clocked(vacation_days=14)
    client = Client()
    client.force_login(ana())
    today = timezone.localdate()
    response = client.post("/me/away/", {"starts": str(today + DAY), "ends": str(today + 3 * DAY)})
    assert response.status_code == 302
    page = client.get("/me/").content.decode()
    assert "Test table" in page or game.name in page
    assert "vacation days used this year" in page
    # other seats see she is away
    ben_seat = seat_of(game, "ben@example.com")
    table = client.get(f"/play/{links.token_for(ben_seat)}/").content.decode()
    assert "away from" in table


@pytest.mark.parametrize(
    ("starts", "ends"),
    [(3, 1), (-10, -5), (0, 400), ("x", 1), (0, "9999-12-31")],
    ids=["backwards", "over", "too-far", "not-a-date", "year-9999"],
)
def test_bad_dates_are_refused_in_words_and_nothing_is_saved(clocked, starts, ends):
    clocked()
    client = Client()
    client.force_login(ana())
    today = timezone.localdate()
    day = lambda n: n if isinstance(n, str) and "-" in n else str(today + n * DAY) if isinstance(n, int) else n  # noqa: E731
    response = client.post("/me/away/", {"starts": day(starts), "ends": day(ends)})
    assert response.status_code == 400
    assert "Nothing was saved" in response.content.decode() or "errorlist" in response.content.decode()
    assert not Absence.objects.exists() and not Vacation.objects.exists()


def test_an_absence_must_be_in_the_coming_year():
    User.objects.create_user("ana@example.com")
    now = timezone.now()
    with pytest.raises(SubmitError):
        absences.declare_absence(ana(), now + 2 * DAY, now + DAY)
    with pytest.raises(SubmitError):
        absences.declare_absence(ana(), now, now + 400 * DAY)
    assert not Absence.objects.exists()


def test_away_needs_a_sign_in():
    assert (
        Client().post("/me/away/", {"starts": "2026-12-01", "ends": "2026-12-02"})["Location"].startswith("/sign-in/")
    )


def test_an_absence_charges_only_the_games_whose_clock_runs(clocked, make_game):
    clockless = make_game(title="cafe_romantica", seats=("ana@example.com", "ben@example.com", None))
    timed = clocked()
    starts = timezone.now() + timedelta(minutes=5)
    absence = absences.declare_absence(ana(), starts, starts + 5 * DAY)
    assert not Vacation.objects.filter(seat=seat_of(clockless)).exists(), "nothing to stop, nothing charged"
    assert Vacation.objects.filter(seat=seat_of(timed)).exists()
    rows = {g.game.pk: g for g in absences.granted(absence)}
    assert not rows[clockless.pk].clock and rows[timed.pk].clock
    client = Client()
    client.force_login(ana())
    page = client.get("/me/").content.decode()
    assert "no clock runs in this game, so there is nothing to stop and no vacation day is charged" in page
    home = client.get("/").content.decode()
    assert "Vacation: 9 of 14 days left this year in Clocked." in home, "one line, for the clocked game alone"


def test_days_are_whole_and_a_vacation_not_begun_has_used_nothing_yet(clocked):
    game = clocked(vacation_days=14)
    now = timezone.now()
    absences.declare_absence(ana(), now + 2 * DAY, now + 5 * DAY)  # begins in two days
    client = Client()
    client.force_login(ana())
    page = client.get("/me/").content.decode()
    assert "(0 of 14 vacation days used this year, 3 more booked)" in page
    seat_page = Client().get(f"/play/{links.token_for(seat_of(game))}/").content.decode()
    assert "you have used 0 in the last twelve months" in seat_page
    assert "Vacation: 11 of 14 days left this year" in client.get("/").content.decode()


def test_part_of_a_day_reads_as_a_whole_one_used_and_none_promised(clocked):
    game = clocked(vacation_days=3)
    now = timezone.now()
    seat = seat_of(game)
    Vacation.objects.create(seat=seat, starts=now - timedelta(hours=30), ends=now - timedelta(hours=2))  # 1 day 4 h
    client = Client()
    client.force_login(ana())
    assert "Vacation: 1 of 3 days left this year" in client.get("/").content.decode()  # 1.8 left: 1 promised
    seat_page = Client().get(f"/play/{links.token_for(seat)}/").content.decode()
    assert "you have used 2 in the last twelve months" in seat_page  # 1.2 used: a day begun counts
    with pytest.raises(SubmitError) as refused:
        from games.actions import deadlines

        deadlines.declare_vacation(seat, now + DAY, now + 3 * DAY)
    assert "you have 1 day left" in refused.value.message


def test_whole_days_count_a_begun_day_as_used_and_promise_only_whole_days_left():
    from games.clock.vacation import days_left, days_used

    assert [days_used(timedelta(hours=h)) for h in (0, 1, 24, 25, 48)] == [0, 1, 1, 2, 2]
    assert [days_left(timedelta(hours=h)) for h in (0, 23, 24, 47, 48)] == [0, 0, 1, 1, 2]
    assert days_used(3 * DAY - timedelta(seconds=5)) == 3 and days_left(3 * DAY - timedelta(seconds=5)) == 3
