"""Setup (rulebook section 2, rule note 11 for 2 and 5-6 players) and the organiser's options."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engine import OptionsError
from games.titles.tanto_cuore_rv import TITLE, load_cardset

from .helpers import table


def test_town_has_chiefs_love_and_ten_general_stacks():
    s = table(3)
    cs = load_cardset()
    assert s["maid_stacks"][:2] == ["sophia_marfil", "beatrice_escudo"]
    assert sorted(s["general"]) == sorted(cs["recommended"])
    assert set(s["town"]) == set(s["maid_stacks"]) | {"love_1", "love_2", "love_3"}
    assert s["town"]["clorinde_sea"] == 10 and s["town"]["hyacinth_arrow"] == 8
    assert s["town"]["beatrice_escudo"] == 24 - 9 and s["town"]["love_1"] == 32 - 21


def test_each_player_starts_with_seven_love_and_three_beatrice_and_draws_five():
    s = table(4)
    for z in s["seats"]:
        cards = z["deck"] + z["hand"] + z["discard"] + z["played"]
        assert Counter(cards) == Counter({"love_1": 7, "beatrice_escudo": 3})
    # the first player may already have served/dismissed; the others hold exactly five
    for z in s["seats"][1:]:
        assert len(z["hand"]) == 5 and len(z["deck"]) == 5


def test_reminiscence_deck_category_one_on_top_three_face_up():
    s = table(3)
    cards = s["cards"]
    assert len(s["remi_row"]) == 3
    assert all(cards[r]["category"] == 1 for r in s["remi_row"])
    cats = [cards[r]["category"] for r in s["remi_deck"]]  # bottom .. top
    assert cats == sorted(cats, reverse=True)  # all category 2 below all category 1
    assert len(s["remi_deck"]) + 3 == 16


def test_two_players_remove_three_per_maid_stack_and_keep_one_reminiscence_each():
    s = table(2)
    assert s["town"]["clorinde_sea"] == 7 and s["town"]["hyacinth_arrow"] == 5
    assert s["town"]["sophia_marfil"] == 5 and s["town"]["beatrice_escudo"] == 24 - 6 - 3
    assert s["town"]["love_2"] == 14  # love stacks are not cut
    remis = s["remi_deck"] + s["remi_row"]
    assert len(remis) == 10 and len(set(remis)) == 10
    assert s["end_at"] == 2


@pytest.mark.parametrize("players", [5, 6])
def test_five_or_six_players_use_two_love_sets_and_three_stack_end(players):
    s = table(players)
    assert s["town"]["love_3"] == 20 and s["town"]["love_2"] == 28
    assert s["town"]["love_1"] == 64 - 7 * players
    assert s["end_at"] == 3


@pytest.mark.parametrize("players", [3, 4])
def test_three_and_four_players_end_on_two_stacks(players):
    assert table(players)["end_at"] == 2


def test_player_count_outside_two_to_six_is_refused():
    with pytest.raises(OptionsError):
        TITLE.setup(["Solo"], {}, random.Random(0))
    with pytest.raises(OptionsError):
        TITLE.setup([f"P{i}" for i in range(7)], {}, random.Random(0))


def test_random_selection_picks_ten_different_general_maids():
    seen = set()
    for seed in range(5):
        s = TITLE.setup(["A", "B", "C"], {"selection": "random"}, random.Random(seed))
        assert len(set(s["general"])) == 10 and set(s["general"]) <= set(load_cardset()["general"])
        seen.add(tuple(s["general"]))
    assert len(seen) > 1


def test_by_hand_selection_uses_the_ticked_maids():
    general = load_cardset()["general"]
    ticked = general[:10]
    options = {"selection": "by_hand", **{f"maid_{c}": c in ticked for c in general}}
    s = TITLE.setup(["A", "B", "C"], options, random.Random(0))
    assert sorted(s["general"]) == sorted(ticked)


def test_by_hand_selection_needs_exactly_ten():
    general = load_cardset()["general"]
    options = {"selection": "by_hand", **{f"maid_{c}": True for c in general[:9]}}
    with pytest.raises(OptionsError, match="exactly ten"):
        TITLE.setup(["A", "B", "C"], options, random.Random(0))


def test_unknown_selection_and_unknown_stacks_are_refused():
    with pytest.raises(OptionsError):
        TITLE.setup(["A", "B"], {"selection": "favourite"}, random.Random(0))
    with pytest.raises(OptionsError, match="Not a general maid"):
        TITLE.setup(["A", "B"], {"stacks": ["sophia_marfil"] * 10}, random.Random(0))


def test_options_schema_offers_the_selection_and_a_tick_per_maid():
    names = [f.name for f in TITLE.options_schema]
    assert names[0] == "selection"
    assert len([n for n in names if n.startswith("maid_")]) == 18


def test_card_set_from_options_is_used_and_kept_in_the_state():
    cs = load_cardset()
    changed = {**cs, "cards": {**cs["cards"], "sophia_marfil": {**cs["cards"]["sophia_marfil"], "copies": 3}}}
    s = TITLE.setup(["A", "B", "C"], {"cardset": changed}, random.Random(0))
    assert s["town"]["sophia_marfil"] == 3
    assert s["cards"]["sophia_marfil"]["copies"] == 3
    with pytest.raises(OptionsError):
        TITLE.setup(["A", "B", "C"], {"cardset": {"cards": {}}}, random.Random(0))


def test_setup_is_reproducible_from_the_seed():
    a = TITLE.setup(["A", "B", "C"], {"selection": "random"}, random.Random(42))
    b = TITLE.setup(["A", "B", "C"], {"selection": "random"}, random.Random(42))
    assert a == b
