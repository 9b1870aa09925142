"""Deadlines: per decision, fixed time of day across daylight saving, vacations that stop the clock."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from games.clock.rules import Clock, deadline, next_daily, next_reminder, reminder_points

LISBON = "Europe/Lisbon"


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_no_clock_means_no_deadline():
    assert deadline(Clock(), utc(2026, 3, 1, 12)) is None


def test_time_per_decision():
    assert deadline(Clock(per_decision=timedelta(hours=48)), utc(2026, 3, 1, 12)) == utc(2026, 3, 3, 12)


def test_fixed_time_of_day_is_local_time_before_and_after_the_spring_change():
    # Lisbon is UTC+0 in winter, UTC+1 from the last Sunday of March (2026-03-29)
    before = next_daily(utc(2026, 3, 27, 12), time(20, 0), LISBON)
    after = next_daily(utc(2026, 3, 30, 12), time(20, 0), LISBON)
    assert before == utc(2026, 3, 27, 20) and after == utc(2026, 3, 30, 19)


def test_fixed_time_of_day_across_the_autumn_change():
    # back to UTC+0 on 2026-10-25
    assert next_daily(utc(2026, 10, 24, 12), time(20, 0), LISBON) == utc(2026, 10, 24, 19)
    assert next_daily(utc(2026, 10, 25, 12), time(20, 0), LISBON) == utc(2026, 10, 25, 20)


def test_fixed_time_with_a_minimum_time_per_decision_skips_to_the_next_day():
    clock = Clock(per_decision=timedelta(hours=12), daily_at=time(20, 0), tz=LISBON)
    assert deadline(clock, utc(2026, 1, 10, 19, 55)) == utc(2026, 1, 11, 20)
    assert deadline(clock, utc(2026, 1, 10, 6, 0)) == utc(2026, 1, 10, 20)


def test_a_vacation_stops_the_clock_for_its_length():
    clock = Clock(per_decision=timedelta(hours=24))
    away = [(utc(2026, 5, 1, 18), utc(2026, 5, 4, 18))]  # three days away, starting 6 h in
    assert deadline(clock, utc(2026, 5, 1, 12), away) == utc(2026, 5, 5, 12)


def test_a_vacation_that_ended_before_the_question_changes_nothing():
    clock = Clock(per_decision=timedelta(hours=24))
    away = [(utc(2026, 4, 1), utc(2026, 4, 3))]
    assert deadline(clock, utc(2026, 5, 1, 12), away) == utc(2026, 5, 2, 12)


def test_a_vacation_moves_a_fixed_time_deadline_to_a_later_day():
    clock = Clock(daily_at=time(20, 0), tz="UTC")
    away = [(utc(2026, 5, 1, 13), utc(2026, 5, 3, 13))]
    assert deadline(clock, utc(2026, 5, 1, 12), away) == utc(2026, 5, 3, 20)


def test_reminder_time():
    clock = Clock(per_decision=timedelta(hours=24), remind_before=timedelta(hours=6))
    start = utc(2026, 5, 1, 12)
    due = deadline(clock, start)
    assert next_reminder(reminder_points(clock), due, start) == utc(2026, 5, 2, 6)
    assert next_reminder(reminder_points(Clock(per_decision=timedelta(hours=1))), due, start) is None


@settings(max_examples=300, deadline=None)
@given(
    start_min=st.integers(0, 60 * 24 * 60),
    per_hours=st.integers(1, 96),
    away=st.lists(st.tuples(st.integers(-60 * 24 * 10, 60 * 24 * 30), st.integers(1, 60 * 24 * 10)), max_size=4),
)
def test_vacations_never_shorten_the_time_outside_them(start_min, per_hours, away):
    """Whatever the vacations, the seat gets at least its full time per decision outside them."""
    start = utc(2026, 1, 1) + timedelta(minutes=start_min)
    clock = Clock(per_decision=timedelta(hours=per_hours))
    windows = [(start + timedelta(minutes=b), start + timedelta(minutes=b + d)) for b, d in away]
    due = deadline(clock, start, windows)
    assert due >= deadline(clock, start)
    # time between start and due that falls in no vacation (windows may overlap: merge them)
    merged: list[list[datetime]] = []
    for b, e in sorted((max(b, start), min(e, due)) for b, e in windows if b < due and e > start):
        if merged and b <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([b, e])
    away_time = sum(((e - b) for b, e in merged), timedelta(0))
    assert (due - start) - away_time >= clock.per_decision
