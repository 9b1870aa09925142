"""Every card effect as the card states: a test per general maid, chief and reminiscence."""

from __future__ import annotations

import random

import pytest

from games.engine import IllegalMove
from games.titles.tanto_cuore_rv import TITLE

from .helpers import BEA, L1, L2, L3, OTHERS, SOFIA, arrange, log_of, option_ids, play, table


def other_table(players=3):
    return table(players, stacks=OTHERS)


# ---------------------------------------------------------------- symbols-only maids


@pytest.mark.parametrize(
    ("maid", "servings", "love", "employments", "called"),
    [
        ("fryda_viento", 0, 2, 3, 2),
        ("fea_primrose", 2, 0, 2, 0),
        ("clorinde_sea", 2, 0, 1, 1),
        ("margareta_torrente", 1, 1, 1, 1),
        ("florence_spring", 0, 2, 1, 0),
        ("valencia_pretre", 0, 2, 1, 0),
        ("hyacinth_arrow", 0, 1, 1, 0),
    ],
)
def test_symbol_maids_give_their_symbols(maid, servings, love, employments, called):
    s = arrange(other_table() if maid not in ("fea_primrose", "clorinde_sea", "margareta_torrente") else table(3))
    s = arrange(s, hand={0: [maid, SOFIA, L3]}, deck={0: [SOFIA] * 6})
    s = play(s, 0, f"serve:{maid}")
    t = s["turn"]
    assert (t["servings"], t["love"], t["employments"]) == (servings, love, employments)
    assert len(s["seats"][0]["hand"]) == 2 + called


# ---------------------------------------------------------------- maids with text


def test_laura_chambermaids_any_number_free():
    s = arrange(
        other_table(), hand={0: ["laura", BEA, "valencia_pretre", "evita_catala"]}, deck={0: [L1, "hyacinth_arrow"]}
    )
    s = play(s, 0, "serve:laura")
    assert s["stage"]["kind"] == "laura"
    assert sorted(option_ids(s, 0)) == sorted([BEA, "valencia_pretre", "hyacinth_arrow"])
    s = play(s, 0, [BEA, "hyacinth_arrow"])
    assert sorted(s["seats"][0]["quarters"]) == sorted([BEA, "hyacinth_arrow"])
    assert s["turn"]["servings"] == 0  # no servings spent on them
    none = arrange(other_table(), hand={0: ["laura", BEA]}, deck={0: [L1, L1]})
    none = play(play(none, 0, "serve:laura"), 0, [])
    assert none["seats"][0]["quarters"] == []


def test_lydia_reveals_five_takes_one_dismisses_the_rest():
    s = arrange(table(3), hand={0: ["lydia_leon"]}, deck={0: [L1, L1, SOFIA, L2, "evita_catala", BEA]}, discard={0: []})
    s = play(s, 0, "serve:lydia_leon")
    assert s["stage"]["kind"] == "reveal" and sorted(s["stage"]["cards"]) == sorted(
        [L1, SOFIA, L2, "evita_catala", BEA]
    )
    assert "reveals the top of their waiting room" in log_of(s, 1)[-1]  # the reveal is public
    s = play(s, 0, "evita_catala")
    z = s["seats"][0]
    assert z["hand"] == ["evita_catala"] and sorted(z["discard"]) == sorted([L1, SOFIA, L2, BEA])
    assert z["deck"] == [L1]


def test_cynthia_calls_four_and_every_other_player_calls_one():
    s = arrange(table(3), hand={0: ["cynthia_lakes"]}, deck={0: [L1] * 6})
    sizes = [len(z["hand"]) for z in s["seats"]]
    s = play(s, 0, "serve:cynthia_lakes")
    assert [len(z["hand"]) for z in s["seats"]] == [4, sizes[1] + 1, sizes[2] + 1]


def test_caldina_others_with_five_or_more_send_one_to_the_back():
    s = arrange(
        table(3),
        hand={0: ["caldina_alley", L1], 1: [L1, L2, BEA, SOFIA, L1], 2: [L1, L1, L2, L3]},
        deck={0: [L1] * 4, 1: [L3, L3]},
    )
    s = play(s, 0, "serve:caldina_alley")
    assert s["stage"]["kind"] == "bottom" and set(TITLE.prompts(s)) == {1}  # seat 2 holds only 4
    with pytest.raises(IllegalMove):
        TITLE.apply(s, 0, "end", random.Random(0))
    s = play(s, 1, SOFIA)
    assert s["seats"][1]["deck"] == [SOFIA, L3, L3]  # bottom = first
    assert s["stage"]["kind"] == "main" and 0 in TITLE.prompts(s)


def test_caldina_asks_several_players_at_once():
    s = arrange(table(3), hand={0: ["caldina_alley"], 1: [L1, L2, BEA, SOFIA, L1], 2: [L1, L1, L2, L3, BEA]})
    s = play(s, 0, "serve:caldina_alley")
    assert set(TITLE.prompts(s)) == {1, 2}
    s = play(s, 2, L3)
    assert set(TITLE.prompts(s)) == {1}
    s = play(s, 1, L2)
    assert s["seats"][1]["deck"][0] == L2 and s["seats"][2]["deck"][0] == L3


def test_riya_may_return_to_the_town_for_ten_cards_and_no_employing():
    s = arrange(table(3), hand={0: ["riya_naragashi", L3, L3]}, deck={0: [L1] * 20})
    left = s["town"]["riya_naragashi"]
    s = play(s, 0, "serve:riya_naragashi")
    assert option_ids(s, 0) == ["return", "keep"]
    back = play(s, 0, "return")
    assert back["town"]["riya_naragashi"] == left + 1
    assert back["turn"]["seat"] == 1  # serving and employ phases ended: no employing with the two 3 Love
    assert len(back["seats"][0]["hand"]) == 10
    assert "riya_naragashi" not in back["seats"][0]["discard"]
    kept = play(s, 0, "keep")
    assert kept["turn"]["seat"] == 0 and kept["turn"]["phase"] == "employ"


def test_chinatsu_returns_two_maids_to_take_one_costing_seven_or_less_into_the_hand():
    s = arrange(other_table(), hand={0: ["chinatsu_kooriyama", BEA, BEA, "evita_catala", L1]})
    bea, fryda = s["town"][BEA], s["town"]["fryda_viento"]
    s = play(s, 0, "serve:chinatsu_kooriyama")
    assert L1 not in option_ids(s, 0)  # only maids may go back
    with pytest.raises(IllegalMove, match="exactly 2"):
        TITLE.apply(s, 0, [BEA], random.Random(0))
    s = play(s, 0, [BEA, f"{BEA}#2"])
    assert s["town"][BEA] == bea + 2
    assert SOFIA not in option_ids(s, 0) and "fryda_viento" in option_ids(s, 0)  # Sofia costs 8
    s = play(s, 0, "fryda_viento")
    assert s["town"]["fryda_viento"] == fryda - 1 and "fryda_viento" in s["seats"][0]["hand"]
    assert s["turn"]["love"] == 0 and s["turn"]["employments"] == 1  # free


def test_chinatsu_may_be_declined():
    s = arrange(other_table(), hand={0: ["chinatsu_kooriyama", BEA, "evita_catala", L3]})
    s = play(play(s, 0, "serve:chinatsu_kooriyama"), 0, [])
    assert sorted(s["seats"][0]["hand"]) == sorted([BEA, "evita_catala", L3])


def test_romina_ends_the_serving_phase():
    s = arrange(other_table(), hand={0: ["romina_vautrin", "evita_catala"]}, deck={0: ["fryda_viento", L1]})
    s = play(s, 0, "serve:romina_vautrin")
    assert s["turn"]["phase"] == "employ" and s["turn"]["love"] == 2
    assert not any(o.startswith("serve:") for o in option_ids(s, 0))


def test_daphne_sends_a_2_love_from_the_town_on_top_of_the_waiting_room():
    s = arrange(table(3), hand={0: ["daphne_coraille", "evita_catala"]}, deck={0: [L1]})
    left = s["town"][L2]
    s = play(s, 0, "serve:daphne_coraille")
    assert s["seats"][0]["deck"] == [L1, L2] and s["town"][L2] == left - 1
    assert s["turn"]["servings"] == 1


def test_daphne_with_no_2_love_left_does_nothing():
    s = table(3)
    s["town"][L2] = 0
    s = arrange(s, hand={0: ["daphne_coraille", "evita_catala"]}, deck={0: [L1]})
    s = play(s, 0, "serve:daphne_coraille")
    assert s["seats"][0]["deck"] == [L1]


def test_germaine_calls_two_then_may_take_a_beatrice_and_call_one():
    s = arrange(other_table(), hand={0: ["germaine_mahle"]}, deck={0: [L1, L2, L3]}, discard={0: []})
    left = s["town"][BEA]
    s = play(s, 0, "serve:germaine_mahle")
    assert sorted(s["seats"][0]["hand"]) == sorted([L2, L3])  # drawn first, then the choice
    assert option_ids(s, 0) == [BEA, "no"]
    took = play(s, 0, BEA)
    assert took["town"][BEA] == left - 1 and took["seats"][0]["discard"] == [BEA]
    assert sorted(took["seats"][0]["hand"]) == sorted([L1, L2, L3])
    declined = play(s, 0, "no")
    assert declined["town"][BEA] == left and len(declined["seats"][0]["hand"]) == 2


def test_evita_smashes_any_waiting_room_top_and_a_love_gives_a_serving():
    s = arrange(table(3), hand={0: ["evita_catala", BEA, "hyacinth_arrow"]}, deck={0: [L1], 1: [L2, SOFIA], 2: [L3]})
    s = play(s, 0, "serve:evita_catala")
    assert option_ids(s, 0) == ["seat:0", "seat:1", "seat:2"]
    hit = play(s, 0, "seat:1")
    assert hit["seats"][1]["discard"][-1] == SOFIA and hit["turn"]["servings"] == 1  # no love: no bonus
    love = play(s, 0, "seat:2")
    assert love["seats"][2]["discard"][-1] == L3 and love["turn"]["servings"] == 2
    own = play(s, 0, "seat:0")
    assert own["seats"][0]["discard"][-1] == L1 and own["turn"]["servings"] == 2


def test_evita_skips_empty_waiting_rooms():
    s = arrange(table(3), hand={0: ["evita_catala", BEA, L1]}, deck={0: [], 1: [L2], 2: []}, discard={0: [L1]})
    s = play(s, 0, "serve:evita_catala")  # only seat 1 has a waiting room: no question
    assert s["seats"][1]["discard"][-1] == L2 and s["stage"]["kind"] == "main"


def test_nonnette_calls_two_then_may_send_one_card_on_top():
    s = arrange(other_table(), hand={0: ["nonnette_soyeux", SOFIA]}, deck={0: [L1, L2, L3]})
    s = play(s, 0, "serve:nonnette_soyeux")
    assert s["turn"]["employments"] == 2
    assert option_ids(s, 0) == [SOFIA, L3, L2, "none"]
    back = play(s, 0, SOFIA)
    assert back["seats"][0]["deck"] == [L1, SOFIA]
    assert "sends a staff member into their waiting room" in log_of(back, 1)[-1]  # which one is private
    kept = play(s, 0, "none")
    assert kept["seats"][0]["deck"] == [L1]


def test_sophia_and_beatrice_have_no_served_effect_so_are_not_offered():
    s = arrange(table(3), hand={0: [SOFIA, BEA, "evita_catala", L3]})
    assert not {f"serve:{SOFIA}", f"serve:{BEA}"} & set(option_ids(s, 0))
    assert s["cards"][SOFIA]["symbols"] == [0, 0, 0, 0] and s["cards"][BEA]["effect"] == {"kind": "none"}


# ---------------------------------------------------------------- reminiscences


def test_scary_night_others_keep_three_each_choosing():
    s = arrange(
        table(3),
        row=["scary_night", "sand_castle", "starry_sky"],
        hand={0: ["evita_catala", BEA, L1], 1: [L1, L2, L3, SOFIA, BEA], 2: [L1, L1, L1]},
    )
    s = play(s, 0, "remi:scary_night")
    assert set(TITLE.prompts(s)) == {1}  # seat 2 already holds only 3
    with pytest.raises(IllegalMove, match="exactly 3"):
        TITLE.apply(s, 1, [L3, SOFIA], random.Random(0))
    s = play(s, 1, [L3, SOFIA, L2])
    assert sorted(s["seats"][1]["hand"]) == sorted([L3, SOFIA, L2])
    assert sorted(s["seats"][1]["discard"][-2:]) == sorted([L1, BEA])
    assert s["stage"]["kind"] == "main" and 0 in TITLE.prompts(s)


def test_scary_night_with_one_kind_in_hand_asks_nobody():
    s = arrange(
        table(3), row=["scary_night", "sand_castle", "starry_sky"], hand={0: ["evita_catala", BEA], 1: [L1] * 5}
    )
    s = play(s, 0, "remi:scary_night")
    assert s["seats"][1]["hand"] == [L1] * 3 and s["seats"][1]["discard"][-2:] == [L1, L1]


@pytest.mark.parametrize(
    ("remi", "hand", "servings", "love", "employments", "called"),
    [
        ("sand_castle", [BEA, BEA], 1, 0, 1, 2),
        ("shell_necklace", [BEA, L1], 1, 0, 2, 0),
        ("beach_volleyball", ["fea_primrose", L1], 2, 1, 1, 0),
        ("starry_sky", ["evita_catala", "margareta_torrente"], 1, 2, 1, 0),
        ("summer_festival", ["fea_primrose", "evita_catala", BEA], 2, 2, 2, 0),
        ("treasure_hunt", ["lydia_leon", BEA, L1], 1, 0, 1, 3),
    ],
)
def test_gain_reminiscences_give_what_they_say(remi, hand, servings, love, employments, called):
    s = arrange(table(3), row=[remi, "farewell_party", "farewell_party"], hand={0: hand + [L3]}, deck={0: [L1] * 5})
    s = play(s, 0, f"remi:{remi}")
    t = s["turn"]
    assert (t["servings"], t["love"], t["employments"]) == (servings, love, employments)
    assert len(s["seats"][0]["hand"]) == 1 + called
    assert s["seats"][0]["memories"] == [remi]


def test_sunset_promise_puts_a_maid_costing_five_or_less_in_the_kitchen_entrance():
    s = arrange(
        table(3),
        row=["sunset_promise", "farewell_party", "farewell_party"],
        hand={0: ["lydia_leon", "evita_catala", BEA]},
    )
    s = play(s, 0, "remi:sunset_promise")
    ids = option_ids(s, 0)
    assert "lydia_leon" in ids and "clorinde_sea" not in ids and SOFIA not in ids
    s = play(s, 0, "lydia_leon")
    assert s["seats"][0]["discard"][-1] == "lydia_leon"


def test_farewell_party_is_only_points():
    s = arrange(
        table(3),
        row=["farewell_party", "sand_castle", "starry_sky"],
        hand={0: ["clorinde_sea", "lydia_leon", "evita_catala", L1]},
    )
    s = play(s, 0, "remi:farewell_party")
    assert s["seats"][0]["memories"] == ["farewell_party"] and s["seats"][0]["hand"] == [L1]
    assert (s["turn"]["servings"], s["turn"]["love"], s["turn"]["employments"]) == (1, 0, 1)
