"""Counted words agree with their number in every generated sentence (one helper, games.engine.words)."""

from __future__ import annotations

from games.engine.messages import english
from games.engine.words import agree, counted
from games.titles.cafe import actions as cafe_actions
from games.titles.cafe_baras.cards import action_words, score_words
from games.titles.cafe_romantica.turn import forced_pass


def test_counted_and_agree_say_one_thing_and_two_things():
    assert [counted(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert [counted(n, "entry") for n in (1, 2)] == ["1 entry", "2 entries"]
    assert [counted(n, "day") for n in (1, 1.5)] == ["1 day", "1.5 days"]
    assert [agree(n, "is", "are") for n in (1, 2)] == ["is", "are"]


def test_cafe_stop_says_the_1_action_left_is_lost_and_the_2_actions_left_are_lost():
    assert english(cafe_actions._stop_act(1).label) == "Stop here (the 1 action left is lost)"
    assert english(cafe_actions._stop_act(2).label) == "Stop here (the 2 actions left are lost)"


def test_cafe_baras_card_words_agree_with_their_numbers():
    assert [action_words({"gain": n}) for n in (1, 2)] == ["gain 1 coin", "gain 2 coins"]
    assert [action_words({"draw": n}) for n in (1, 2)] == ["draw 1 card from the deck", "draw 2 cards from the deck"]
    assert action_words({"recycle": 1}) == "discard up to 1 card from your hand, then draw as many"
    assert action_words({"gain_per": {"food": "Soup"}, "coins": 1}).startswith("gain 1 coin per ")
    assert action_words({"gain_per": {"food": "Soup"}, "coins": 2}).startswith("gain 2 coins per ")
    assert [score_words({"fixed": n}) for n in (1, 2)] == ["1 point", "2 points"]


def test_cafe_romantica_forced_pass_counts_the_hearts_it_had():
    state = {"names": ["Ana"], "seats": [{"hearts": 1}], "options": {"pooling": False}}
    said = english(forced_pass(state, 0), {0: "Ana"})
    assert said == "Ana has 1 ♥, too few for anything on offer, and passes (unspent ♥ are lost)."
    state["seats"][0]["hearts"] = 0
    assert english(forced_pass(state, 0), {0: "Ana"}) == "Ana has no ♥ to spend."
