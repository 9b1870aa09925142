"""The one parser per kind of typed input: numbers, text, periods (games.engine.typed)."""

from __future__ import annotations

import unicodedata
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Choose, IllegalMove, Number, Option, Order
from games.engine.typed import MAX_DIGITS, Unreadable, check_period, clean_text, read_int

# --- numbers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("3", 3),
        (" 12 ", 12),
        ("-2", -2),
        ("+4", 4),
        ("\u22122", -2),  # the minus sign a phone keyboard may give
        ("\u0662", 2),  # Arabic-Indic 2
        ("\u06f7", 7),  # Extended Arabic-Indic (Persian) 7
        ("\u0969", 3),  # Devanagari 3
        ("\uff13", 3),  # full-width 3
        ("0" * 5 + "7", 7),
    ],
)
def test_a_number_is_read_in_any_scripts_digits(typed, meant):
    assert read_int(typed) == meant


@pytest.mark.parametrize(
    "typed",
    ["²", "①", "½", "3²", "--3", "+-1", "- -1", "1e9", "1.5", "1,000", "0x10", "", "  ", "-", "three", "3 4", "1_000"],
)
def test_what_is_not_a_whole_number_is_refused_in_words(typed):
    with pytest.raises(Unreadable) as e:
        read_int(typed)
    assert "number" in str(e.value)


def test_a_number_thousands_of_digits_long_is_refused_before_int_sees_it():
    for n in (MAX_DIGITS + 1, 50, 5000, 100_000):
        with pytest.raises(Unreadable, match="too long"):
            read_int("9" * n)


def test_bounds_are_said_in_words():
    with pytest.raises(Unreadable, match="from 1 to 4"):
        read_int("5", low=1, high=4)
    with pytest.raises(Unreadable, match="at least 0"):
        read_int("-1", low=0)


@settings(max_examples=500)
@given(st.text(max_size=60))
def test_read_int_refuses_anything_with_unreadable_only(text):
    try:
        value = read_int(text)
    except Unreadable as e:
        assert str(e)
    else:
        assert abs(value) < 10**MAX_DIGITS


def test_a_reply_and_a_form_read_the_same_numbers():
    options = tuple(Option(f"o{i}", f"Option {i}") for i in range(1, 5))
    assert Choose("Pick", options).parse_text("\u0662") == "o2"
    assert Choose("Pick", options).parse_text("2.") == "o2"
    for bad in ("²", "①", "9" * 5000, "--2"):
        with pytest.raises(IllegalMove, match="not one of the choices"):
            Choose("Pick", options).parse_text(bad)
    assert Number("How many", 0, 3).parse_text("\u0663 please") == 3
    with pytest.raises(Unreadable):
        Number("How many", 0, 3).parse_text("³")
    assert Order("Rank", options[:3]).parse_text("3, 1, 2") == ["o3", "o1", "o2"]


# --- text ------------------------------------------------------------------------------------


def test_text_drops_control_characters_but_keeps_lines_and_tabs():
    assert clean_text("a\x00b\x07c\r\nd\te\u2028f", 100) == "abc\nd\te\nf"
    assert clean_text("  café  ", 100) == "café"
    assert clean_text("cafe\u0301", 100) == "café", "NFC: the same text stores the same way"
    assert clean_text("two\nlines", 100, multiline=False) == "two lines"


def test_text_over_its_limit_is_refused_with_the_limit():
    with pytest.raises(Unreadable, match="at most 10 characters"):
        clean_text("x" * 11, 10)
    with pytest.raises(Unreadable, match="at most 10 characters"):
        clean_text("x" * 1_000_000, 10)


@settings(max_examples=500)
@given(st.text(alphabet=st.characters(codec=None), max_size=200))
def test_clean_text_never_keeps_what_a_database_refuses(text):
    out = clean_text(text, 1000)
    assert all(ch in "\n\t" or unicodedata.category(ch) not in ("Cc", "Cs") for ch in out)
    out.encode("utf-8")  # no lone surrogate: PostgreSQL would refuse it


# --- periods ---------------------------------------------------------------------------------

TODAY = date(2026, 11, 23)


@pytest.mark.parametrize(
    ("starts", "ends", "words"),
    [
        (date(9999, 12, 30), date(9999, 12, 31), "within a year"),
        (date.max, date.max, "within a year"),
        (date.min, date.min, "over already"),
        (date(2020, 1, 1), TODAY + timedelta(days=3), "in the past"),
        (TODAY + timedelta(days=5), TODAY + timedelta(days=2), "comes before the first"),
    ],
)
def test_a_period_outside_a_sane_horizon_is_refused_in_words(starts, ends, words):
    with pytest.raises(Unreadable, match=words):
        check_period(starts, ends, TODAY)


def test_a_period_from_today_to_a_year_ahead_is_fine():
    check_period(TODAY, TODAY, TODAY)
    check_period(TODAY - timedelta(days=1), TODAY + timedelta(days=366), TODAY)
