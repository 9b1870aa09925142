"""The invariants the fuzzing relies on do catch broken tables."""

from __future__ import annotations

import pytest

from games.titles.tanto_cuore_rv import TITLE

from .helpers import table


def test_a_fresh_table_keeps_every_invariant():
    for players in range(2, 7):
        TITLE.check_invariants(table(players))


def test_a_lost_card_is_caught():
    s = table(3)
    s["seats"][1]["hand"].pop()
    with pytest.raises(AssertionError, match="not conserved"):
        TITLE.check_invariants(s)


def test_a_duplicated_card_is_caught():
    s = table(3)
    s["seats"][2]["deck"].append("sophia_marfil")
    with pytest.raises(AssertionError, match="not conserved"):
        TITLE.check_invariants(s)


def test_a_negative_stack_or_counter_is_caught():
    s = table(3)
    s["town"]["love_3"] = -1
    with pytest.raises(AssertionError, match="negative"):
        TITLE.check_invariants(s)
    s = table(3)
    s["turn"]["love"] = -2
    with pytest.raises(AssertionError, match="negative"):
        TITLE.check_invariants(s)


def test_a_non_chambermaid_in_private_quarters_is_caught():
    s = table(3)
    zone = next(z for z in ("hand", "deck") if "love_1" in s["seats"][0][z])
    s["seats"][0][zone].remove("love_1")
    s["seats"][0]["quarters"].append("love_1")
    with pytest.raises(AssertionError, match="no chambermaid"):
        TITLE.check_invariants(s)


def test_an_unrefilled_reminiscence_row_is_caught():
    s = table(3)
    s["remi_deck"].append(s["remi_row"].pop())
    with pytest.raises(AssertionError, match="row"):
        TITLE.check_invariants(s)
