"""Typed prompts: validation, typed replies, random answers always legal."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import Choose, ChooseMany, Composite, IllegalMove, Number, Option, Order

OPTS = tuple(Option(f"c{i}", f"Card {i}", "detail") for i in range(1, 6))


def test_choose_takes_an_offered_id_only():
    p = Choose("Pick", OPTS)
    assert p.validate("c2") == "c2"
    with pytest.raises(IllegalMove):
        p.validate("c9")


def test_choose_reads_a_number_or_a_label_from_a_reply():
    p = Choose("Pick", OPTS)
    assert p.parse_text(" 3 ") == "c3"
    assert p.parse_text("card 4") == "c4"
    with pytest.raises(IllegalMove, match="answer with its number"):
        p.parse_text("7")


def test_choose_many_counts_and_distinctness():
    p = ChooseMany("Keep", OPTS, 1, 2)
    assert p.validate(["c1", "c2"]) == ["c1", "c2"]
    for bad in ([], ["c1", "c1"], ["c1", "c2", "c3"], "c1"):
        with pytest.raises(IllegalMove):
            p.validate(bad)
    assert p.parse_text("1, 5") == ["c1", "c5"]


def test_number_range_and_type():
    p = Number("Bid", 0, 5)
    assert p.validate(5) == 5
    for bad in (6, -1, "3", True, 2.5):
        with pytest.raises(IllegalMove):
            p.validate(bad)
    assert p.parse_text("4 please") == 4


def test_order_needs_every_option_once():
    p = Order("Order", OPTS[:3])
    assert p.validate(["c3", "c1", "c2"]) == ["c3", "c1", "c2"]
    with pytest.raises(IllegalMove):
        p.validate(["c1", "c2"])


def test_composite_answers_every_part():
    p = Composite("Bids", (("first", Number("First", 0, 3)), ("second", Number("Second", 0, 3))))
    assert p.validate({"first": 1, "second": 0}) == {"first": 1, "second": 0}
    with pytest.raises(IllegalMove):
        p.validate({"first": 1})
    assert p.parse_text("2\n3") == {"first": 2, "second": 3}


@given(st.integers(0, 10_000), st.integers(0, 4), st.integers(0, 4))
def test_random_answers_are_always_legal(seed, lo, extra):
    rng = random.Random(seed)
    hi = min(lo + extra, len(OPTS))
    for p in (Choose("x", OPTS), ChooseMany("x", OPTS, min(lo, hi), hi), Number("x", -lo, hi), Order("x", OPTS)):
        assert p.validate(p.random_answer(rng)) is not None
