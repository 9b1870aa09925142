"""The clock settings a person types (quiet days, quiet hours, reminder points): one bounded parser
each, a clear message for anything else, and the normal form reads back the same; the rules in words;
the new-game form and the admin refusing bad clock settings with a message on the field."""

from __future__ import annotations

from datetime import time, timedelta

import pytest
from django.core.exceptions import ValidationError
from hypothesis import given, settings
from hypothesis import strategies as st

from games.clock import terms as clock_terms
from games.clock.calendar import Bank
from games.clock.rules import Clock
from games.engine.typed import Unreadable
from games.forms.new_game import NewGameForm
from games.models import Game

READERS = [
    (clock_terms.read_weekdays, clock_terms.weekdays_text),
    (clock_terms.read_quiet_hours, clock_terms.quiet_hours_text),
    (clock_terms.read_reminder_points, clock_terms.points_text),
]


@settings(max_examples=80, deadline=None)
@given(st.one_of(st.text(max_size=100), st.text(alphabet="0123456789hmd:,;- satunmofriwek", max_size=30)))
def test_any_text_reads_or_is_refused_in_words_and_reads_back_the_same(text):
    for read, write in READERS:
        try:
            value = read(text)
        except Unreadable as e:
            assert str(e) and len(str(e)) < 200
            continue
        assert read(write(value)) == value


@pytest.mark.parametrize(
    "text, days",
    [("sat, sun", {5, 6}), ("Weekend", {5, 6}), ("monday and friday", {0, 4}), ("", set()), ("sun;sun", {6})],
)
def test_quiet_days_read_in_names(text, days):
    assert clock_terms.read_weekdays(text) == frozenset(days)


@pytest.mark.parametrize(
    "text", ["caturday", "mon tue wed thu fri sat sun", "weekend mon tue wed thu fri", "x" * 81, "7", None]
)
def test_bad_quiet_days_are_refused(text):
    with pytest.raises(Unreadable):
        clock_terms.read_weekdays(text)


def test_quiet_hours_read_both_ways_and_are_bounded():
    assert clock_terms.read_quiet_hours("23-7") == (time(23), time(7))
    assert clock_terms.read_quiet_hours("22:30 to 06:15") == (time(22, 30), time(6, 15))
    for bad in ("23-23", "24-7", "7:60-8", "1-18", "23", "a-b", "1-2-3"):
        with pytest.raises(Unreadable):
            clock_terms.read_quiet_hours(bad)


def test_reminder_points_are_sorted_longest_first_and_bounded():
    assert clock_terms.read_reminder_points("1h, 24h, 4 hours") == (
        timedelta(hours=24),
        timedelta(hours=4),
        timedelta(hours=1),
    )
    assert clock_terms.points_text(clock_terms.read_reminder_points("24h, 90m, 4d")) == "4d,24h,90m"
    for bad in ("0m", "31d", "1h,2h,3h,4h,5h,6h,7h", "soon", "-1h"):
        with pytest.raises(Unreadable):
            clock_terms.read_reminder_points(bad)


def test_the_rules_of_the_clock_in_words():
    bank = Clock(bank=Bank(timedelta(days=3), timedelta(days=1), timedelta(days=5)), quiet_days=frozenset({5, 6}))
    assert clock_terms.describe(bank) == "3 days in the bank, +1 day per move, at most 5 days, weekends off."
    daily = Clock(per_decision=timedelta(hours=36), quiet_days=frozenset({6}))
    assert clock_terms.describe(daily, 10) == (
        "1 day 12 h per move, no clock on Sundays, up to 10 vacation days a year drawn hour by hour before a timeout."
    )
    assert clock_terms.describe(Clock()) == "none, so nobody is ever timed out."


GOOD = {"title": "pebbles", "name": "Clock table", "seats": "host@example.org\nfriend@example.org"}
BAD_CLOCKS = [
    ({"bank_hours": "abc"}, "bank_hours"),
    ({"bank_hours": "-3"}, "bank_hours"),
    ({"bank_hours": "99999999999999999999"}, "bank_hours"),
    ({"bank_hours": "0"}, "bank_hours"),
    ({"bank_hours": "24", "decision_hours": "24"}, "bank_hours"),
    ({"bank_increment_hours": "2"}, "bank_hours"),
    ({"bank_hours": "48", "bank_cap_hours": "24"}, "bank_cap_hours"),
    ({"quiet_days": "mon tue wed thu fri sat sun"}, "quiet_days"),
    ({"quiet_days": "caturday"}, "quiet_days"),
    ({"quiet_days": "sat" * 40}, "quiet_days"),
    ({"vacation_days": "400"}, "vacation_days"),
    ({"vacation_days": "15"}, "vacation_days"),
    ({"auto_vacation": "on", "vacation_days": "0"}, "auto_vacation"),
    ({"timezone": "Mars/Olympus"}, "timezone"),
]


@pytest.mark.parametrize("bad, field", BAD_CLOCKS)
def test_the_new_game_form_refuses_bad_clock_settings_with_a_message(bad, field):
    form = NewGameForm({**GOOD, **bad})
    assert not form.is_valid() and form.errors.get(field), form.errors


def test_the_admin_refuses_a_bank_beside_a_time_per_decision():
    game = Game(title="pebbles", name="x", bank_hours=24, decision_hours=24, quiet_days="xx")
    with pytest.raises(ValidationError) as refused:
        game.clean()
    assert {"bank_hours", "quiet_days"} <= set(refused.value.message_dict)
