"""Quiet periods, time banks and vacation hours (games.clock.calendar, games.clock.rules): properties over random
calendars, timezones, quiet periods and answer times, and the daylight-saving cases by name."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from games.clock import calendar
from games.clock import rules as clock
from games.clock.calendar import Bank, QuietHours

HOUR = timedelta(hours=1)
ZONES = [
    "UTC",
    "Europe/Lisbon",
    "Europe/Berlin",
    "America/New_York",
    "America/Santiago",
    "Australia/Lord_Howe",
    "Asia/Kathmandu",
    "Pacific/Chatham",
    "America/Havana",
    "Asia/Tehran",
]
BASE = datetime(2026, 1, 1, tzinfo=UTC)

instants = st.integers(0, 2 * 365 * 24 * 60).map(lambda m: BASE + timedelta(minutes=m))
zones = st.sampled_from(ZONES)
quiet_days = st.frozensets(st.integers(0, 6), max_size=6)
walls = st.builds(time, st.integers(0, 23), st.sampled_from([0, 15, 30, 45]))


@st.composite
def quiet_hours(draw):
    start = draw(walls)
    length = draw(st.integers(15, 16 * 60))
    end_minutes = (start.hour * 60 + start.minute + length) % (24 * 60)
    return QuietHours(start, time(end_minutes // 60, end_minutes % 60), draw(zones))


@st.composite
def clocks(draw):
    kind = draw(st.sampled_from(["per", "daily", "bank"]))
    tz = draw(zones)
    days = draw(quiet_days)
    if kind == "per":
        return clock.Clock(per_decision=timedelta(minutes=draw(st.integers(1, 60 * 24 * 10))), tz=tz, quiet_days=days)
    if kind == "daily":
        return clock.Clock(daily_at=draw(walls), tz=tz, quiet_days=days)
    hours = draw(st.integers(1, 24 * 10))
    return clock.Clock(
        bank=Bank(timedelta(hours=hours), timedelta(hours=draw(st.integers(0, 48)))), tz=tz, quiet_days=days
    )


@st.composite
def vacations(draw):
    out = []
    for _ in range(draw(st.integers(0, 3))):
        begin = draw(instants)
        out.append((begin, begin + timedelta(hours=draw(st.integers(1, 24 * 5)))))
    return out


PROPS = settings(max_examples=60, deadline=None)


@PROPS
@given(clocks(), instants, vacations(), st.one_of(st.none(), quiet_hours()))
def test_a_deadline_never_falls_in_a_quiet_period(game_clock, start, away, quiet):
    due = clock.deadline(game_clock, start, away, None, quiet)
    assert due >= start
    assert calendar.quiet_span(due, game_clock.quiet_days, game_clock.tz, quiet) is None
    if game_clock.daily_at is None:
        # the seat has its whole time outside quiet days and vacations
        need = game_clock.per_decision or game_clock.bank.start
        assert calendar.running(start, due, game_clock.stopped(start, away)) >= need


@PROPS
@given(instants, st.integers(0, 24 * 60 * 20), st.integers(0, 24 * 60 * 20), zones, quiet_days, vacations())
def test_running_time_is_counted_once(start, a, b, tz, days, away):
    game_clock = clock.Clock(per_decision=HOUR, tz=tz, quiet_days=days)
    middle, stop = start + timedelta(minutes=a), start + timedelta(minutes=a + b)
    whole = calendar.running(start, stop, game_clock.stopped(start, away))
    parts = calendar.running(start, middle, game_clock.stopped(start, away)) + calendar.running(
        middle, stop, game_clock.stopped(middle, away)
    )
    assert whole == parts <= stop - start
    # advancing by the running time reaches a moment with just that running time since the start
    reached = calendar.advance(start, whole, game_clock.stopped(start, away))
    assert calendar.running(start, reached, game_clock.stopped(start, away)) == whole


@PROPS
@given(
    st.integers(1, 24 * 10),
    st.integers(0, 48),
    st.one_of(st.none(), st.integers(1, 24 * 20)),
    st.lists(st.integers(0, 24 * 3600 * 20), max_size=12),
)
def test_a_bank_is_never_negative_nor_above_its_cap_and_replays_the_same(start, inc, cap, spent):
    bank = Bank(timedelta(hours=start), timedelta(hours=inc), timedelta(hours=max(cap, start)) if cap else None)
    left, charges = bank.start, []
    since = BASE
    for seconds in spent:
        now = since + timedelta(seconds=seconds)
        charged = calendar.charge(left, since, now, iter(()))
        assert 0 <= charged <= left.total_seconds()
        charges.append(charged)
        left = bank.after(left, timedelta(seconds=charged))
        assert left >= timedelta(0)
        assert bank.cap is None or left <= bank.cap
        since = now
    assert calendar.replay_bank(bank, charges) == int(left.total_seconds())


@PROPS
@given(instants, st.lists(st.integers(0, 60 * 30), min_size=1, max_size=8), st.integers(0, 24 * 20))
def test_vacation_hours_are_never_drawn_twice(deadline, sweeps_after, allowance_hours):
    """Sweeps at random later moments, each drawing what keeps the seat waiting: the hours never overlap."""
    left, until, due, drawn = timedelta(hours=allowance_hours), None, deadline, []
    now = deadline
    for minutes in sweeps_after:
        now += timedelta(minutes=minutes)
        if due > now:
            continue
        first, hours = calendar.hours_to_draw(due, now, until, left)
        if not hours:
            break
        ends = first + hours * HOUR
        assert ends > now and first >= due
        drawn.append((first, ends))
        left, until, due = left - hours * HOUR, ends, ends
    spans = sorted(drawn)
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False))
    assert sum((e - b for b, e in drawn), timedelta(0)) <= timedelta(hours=allowance_hours)


def test_weekends_off_stop_the_clock_in_the_games_timezone_across_the_clock_change():
    lisbon = ZoneInfo("Europe/Lisbon")
    # Friday 27 March 2026, 20:00 Lisbon; the clocks go forward on Sunday 29 March
    start = datetime(2026, 3, 27, 20, 0, tzinfo=lisbon)
    game_clock = clock.Clock(per_decision=timedelta(hours=24), tz="Europe/Lisbon", quiet_days=frozenset({5, 6}))
    due = clock.deadline(game_clock, start)
    # 4 h on Friday, then 20 h of Monday: Monday 20:00 local (summer time)
    assert due.astimezone(lisbon) == datetime(2026, 3, 30, 20, 0, tzinfo=lisbon)


def test_a_fixed_time_of_day_skips_quiet_days():
    game_clock = clock.Clock(daily_at=time(20), tz="Europe/Berlin", quiet_days=frozenset({6}))
    saturday_night = datetime(2026, 5, 9, 21, 0, tzinfo=ZoneInfo("Europe/Berlin"))
    due = clock.deadline(game_clock, saturday_night)
    assert due.astimezone(ZoneInfo("Europe/Berlin")) == datetime(2026, 5, 11, 20, 0, tzinfo=ZoneInfo("Europe/Berlin"))


def test_a_deadline_in_my_quiet_hours_moves_to_their_end_in_my_timezone_across_the_clock_change():
    quiet = QuietHours(time(23), time(7), "America/New_York")
    # 8 March 2026: New York springs forward at 02:00; a deadline at 03:30 local moves to 07:00 local
    start = datetime(2026, 3, 7, 3, 30, tzinfo=ZoneInfo("America/New_York"))
    due = clock.deadline(clock.Clock(per_decision=timedelta(hours=23)), start, quiet=quiet)
    assert due.astimezone(ZoneInfo("America/New_York")) == datetime(
        2026, 3, 8, 7, 0, tzinfo=ZoneInfo("America/New_York")
    )


def test_a_bank_runs_out_after_its_running_time_only():
    game_clock = clock.Clock(bank=Bank(3 * 24 * HOUR, 24 * HOUR), tz="UTC", quiet_days=frozenset({5, 6}))
    monday = datetime(2026, 6, 1, 12, tzinfo=UTC)
    assert clock.deadline(game_clock, monday, bank_left=30 * HOUR) == monday + 30 * HOUR
    friday = datetime(2026, 6, 5, 12, tzinfo=UTC)
    assert clock.deadline(game_clock, friday, bank_left=30 * HOUR) == friday + 30 * HOUR + 48 * HOUR
    assert clock.bank_left(game_clock, 30 * 3600, friday, friday + 60 * HOUR) == 18 * HOUR
