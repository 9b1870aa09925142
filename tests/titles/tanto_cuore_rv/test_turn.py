"""The turn (rulebook sections 3 and 5): starting, serving, employ and dismiss phases.

Steps with no decision are skipped by the engine (a serving phase with nothing left to serve,
an employ phase with no employment or nothing affordable), so tests follow that flow.
"""

from __future__ import annotations

import random

import pytest

from games.engine import IllegalMove
from games.titles.tanto_cuore_rv import TITLE

from .helpers import BEA, L1, L2, L3, OTHERS, SOFIA, arrange, log_of, option_ids, play, say, table

ROW = ["scary_night", "sand_castle", "starry_sky"]


def test_symbols_first_and_callings_drawn_at_once():
    s = arrange(table(3), hand={0: ["clorinde_sea", L1]}, deck={0: [L1, L1, SOFIA]})
    s = play(s, 0, "serve:clorinde_sea")
    t = s["turn"]
    assert (t["servings"], t["love"], t["employments"]) == (2, 0, 1)
    assert s["seats"][0]["hand"] == [L1, SOFIA]  # called Sofia from the top at once
    assert s["seats"][0]["played"] == ["clorinde_sea"]


def test_a_called_maid_may_serve_in_the_same_serving_phase():
    s = arrange(table(3), hand={0: ["margareta_torrente"]}, deck={0: [L1, "fea_primrose"]})
    s = play(s, 0, "serve:margareta_torrente")  # +1 call, +1 love, +1 serving
    assert "serve:fea_primrose" in option_ids(s, 0)
    s = play(s, 0, "serve:fea_primrose")
    assert s["turn"]["servings"] == 2 and s["turn"]["employments"] == 2 and s["turn"]["love"] == 1


def test_one_serving_a_turn_then_no_more_maids():
    s = arrange(table(3), hand={0: ["cynthia_lakes", "hyacinth_arrow", L3]}, deck={0: [L1] * 4})
    s = play(s, 0, "serve:cynthia_lakes")
    assert s["turn"]["servings"] == 0
    assert s["turn"]["phase"] == "employ"  # nothing left to serve: on to employing by itself
    assert not any(o.startswith(("serve:", "chamber:")) for o in option_ids(s, 0))


def test_serving_a_maid_without_a_serving_is_refused_and_changes_nothing():
    s = arrange(table(3), hand={0: ["caldina_alley", "evita_catala", L3]}, deck={0: [L1, L1, L1]})
    s = play(s, 0, "serve:caldina_alley")
    with pytest.raises(IllegalMove):
        TITLE.apply(s, 0, "serve:evita_catala", random.Random(0))


def test_chambermaiding_costs_the_printed_servings_and_gives_no_bonus():
    s = arrange(table(3), hand={0: [BEA, "hyacinth_arrow", "evita_catala", L1]})
    ids = option_ids(s, 0)
    assert "chamber:hyacinth_arrow" in ids and f"chamber:{BEA}" not in ids  # Beatrice needs 2
    s = play(s, 0, "chamber:hyacinth_arrow")
    assert s["seats"][0]["quarters"] == ["hyacinth_arrow"]
    assert s["turn"]["love"] == 0  # her +1 love symbol is not received


def test_beatrice_chambermaided_with_two_servings():
    s = arrange(table(3), hand={0: ["fea_primrose", BEA]})
    s = play(s, 0, "serve:fea_primrose")
    assert f"chamber:{BEA}" in option_ids(s, 0)
    s = play(s, 0, f"chamber:{BEA}")
    assert s["seats"][0]["quarters"] == [BEA]
    assert "P0 chambermaids Beatrice Escudo (2 servings)." in log_of(s)


def test_non_chambermaids_cannot_be_chambermaided():
    s = arrange(table(3), hand={0: ["evita_catala", SOFIA]})
    with pytest.raises(IllegalMove):
        TITLE.apply(s, 0, "chamber:evita_catala", random.Random(0))


def test_maids_that_would_do_nothing_are_not_offered_for_serving():
    s = arrange(table(3), hand={0: [SOFIA, BEA, "evita_catala", L1]})
    ids = option_ids(s, 0)
    assert f"serve:{SOFIA}" not in ids and f"serve:{BEA}" not in ids and "serve:evita_catala" in ids
    with pytest.raises(IllegalMove):
        TITLE.apply(s, 0, f"serve:{SOFIA}", random.Random(0))
    # a hand of chiefs and love alone holds no serving decision: straight to employing
    s = arrange(table(3), hand={0: [SOFIA, BEA, L1]}, auto=True)
    assert s["turn"]["phase"] == "employ"


def test_reminiscence_acquired_from_the_hand_refilled_and_applied():
    s = arrange(table(3), row=ROW, hand={0: ["evita_catala", BEA, L1]})
    top = s["remi_deck"][-1]
    s = play(s, 0, "remi:scary_night")
    z = s["seats"][0]
    assert z["memories"] == ["scary_night"]
    assert sorted(z["discard"]) == sorted(["evita_catala", BEA])
    assert s["remi_row"] == ["sand_castle", "starry_sky", top]
    assert s["turn"]["servings"] == 1  # acquiring costs no serving


def test_only_one_reminiscence_a_turn():
    s = arrange(table(3), row=["sand_castle", "shell_necklace", "starry_sky"], hand={0: [BEA, BEA, BEA, L1, L1]})
    s = play(s, 0, "remi:sand_castle")  # two Beatrice; calls 2
    assert s["turn"]["remi_done"]
    assert not any(o.startswith("remi:") for o in option_ids(s, 0))
    with pytest.raises(IllegalMove):
        TITLE.apply(s, 0, "remi:shell_necklace", random.Random(0))


def test_served_maids_do_not_count_toward_a_requirement():
    s = arrange(table(3), row=ROW, hand={0: ["evita_catala", BEA, "hyacinth_arrow"]})
    assert "remi:scary_night" in option_ids(s, 0)
    s = play(s, 0, "serve:evita_catala")  # Evita is in the play area now, not by his side
    s = play(s, 0, "seat:1") if s["stage"]["kind"] == "mill" else s
    assert "remi:scary_night" not in option_ids(s, 0)


def test_reminiscence_payment_chosen_when_several_kinds_fit():
    s = arrange(table(3), row=ROW, hand={0: ["evita_catala", "margareta_torrente", BEA]})
    s = play(s, 0, "remi:scary_night")
    assert s["stage"]["kind"] == "remi_pay"
    with pytest.raises(IllegalMove, match="cost 3 \\+ cost 2"):
        TITLE.apply(s, 0, ["evita_catala", "margareta_torrente"], random.Random(0))
    back = play(s, 0, [])  # changed my mind
    assert back["stage"]["kind"] == "main" and not back["turn"]["remi_done"]
    s = play(s, 0, ["margareta_torrente", BEA])
    assert s["seats"][0]["hand"] == ["evita_catala"] and s["seats"][0]["memories"] == ["scary_night"]


def test_no_reminiscence_in_the_employ_phase():
    s = arrange(table(3), row=ROW, hand={0: ["evita_catala", BEA, L3]})
    s = play(s, 0, "end")
    assert s["turn"]["phase"] == "employ"
    assert not any(o.startswith("remi:") for o in option_ids(s, 0))


def test_love_cards_are_played_as_needed_when_employing_wasting_least():
    s = arrange(table(3), hand={0: [L3, L1, L2, L1]}, auto=True)
    assert s["turn"]["phase"] == "employ"
    s = play(s, 0, "employ:evita_catala")  # cost 3: the 3 Love alone
    assert "P0 plays 3 Love." in log_of(s)
    # employed staff go to the kitchen entrance; the dismiss phase then puts hand and played staff on top
    assert s["seats"][0]["discard"] == ["evita_catala", L1, L2, L1, L3]


def test_love_cards_count_without_a_serving():
    s = arrange(table(3), hand={0: ["cynthia_lakes", L2, L1]}, deck={0: [L1] * 4})
    s = play(s, 0, "serve:cynthia_lakes")
    assert s["turn"]["servings"] == 0 and "employ:love_2" in option_ids(s, 0)


def test_one_employment_a_turn_unless_maids_add_more():
    s = arrange(table(3), hand={0: [L3, L3, L1, BEA]})
    s = play(s, 0, "end")
    s = play(s, 0, "employ:hyacinth_arrow")
    assert s["turns"] == 1 and s["turn"]["seat"] == 1  # no employment left: the turn ended
    s = arrange(table(3), hand={0: ["fea_primrose", L3, L3, L1]})
    s = play(s, 0, "serve:fea_primrose")  # +2 servings, +1 employment; nothing left to serve
    s = play(s, 0, "employ:hyacinth_arrow")
    assert s["turn"]["seat"] == 0 and s["turn"]["employments"] == 1
    s = play(s, 0, "employ:evita_catala")
    assert s["turn"]["seat"] == 1


def test_employing_needs_enough_love():
    s = arrange(table(3), hand={0: [L1, L1, BEA]})
    s = play(s, 0, "end")
    ids = option_ids(s, 0)
    assert "employ:hyacinth_arrow" in ids and "employ:evita_catala" not in ids
    with pytest.raises(IllegalMove):
        TITLE.apply(s, 0, "employ:evita_catala", random.Random(0))


def test_dismiss_phase_hand_and_served_to_kitchen_quarters_stay_call_five():
    s = arrange(
        table(3),
        hand={0: ["fea_primrose", "hyacinth_arrow", L1]},
        deck={0: [L1] * 6},
        discard={0: []},
        quarters={0: [BEA]},
    )
    s = play(s, 0, "serve:fea_primrose")
    s = play(s, 0, "chamber:hyacinth_arrow")
    s = play(s, 0, "end")  # employ phase: end the turn
    z = s["seats"][0]
    assert sorted(z["quarters"]) == sorted([BEA, "hyacinth_arrow"])
    assert z["discard"] == [L1, "fea_primrose"]  # hand first, served staff on top
    assert len(z["hand"]) == 5 and len(z["deck"]) == 1
    assert s["turn"]["seat"] == 1


def test_kitchen_entrance_reshuffled_only_when_a_call_finds_the_waiting_room_empty():
    s = arrange(table(3), hand={0: ["evita_catala", L3]}, deck={0: [L1, L1, L1]}, discard={0: [BEA] * 4})
    s = play(s, 0, "serve:evita_catala")
    s = play(s, 0, "seat:0")  # Evita: my own top card (1 Love) to my kitchen entrance: +1 serving
    assert s["seats"][0]["deck"] == [L1, L1] and len(s["seats"][0]["discard"]) == 5  # no reshuffle yet
    s = play(s, 0, "end")  # employ phase (nothing left to serve): end the turn
    z = s["seats"][0]
    # 2 called from the waiting room, then the whole kitchen entrance shuffled in for the other 3
    assert len(z["hand"]) == 5 and z["discard"] == [] and len(z["deck"]) == 4
    assert "P0's kitchen entrance rushes into the waiting room (shuffled)." in log_of(s)


def test_love_servings_and_employments_do_not_carry_over():
    s = arrange(table(3), hand={0: ["fea_primrose", L3]}, deck={0: [L1] * 5})
    s = play(s, 0, "serve:fea_primrose")
    assert (s["turn"]["servings"], s["turn"]["employments"]) == (2, 2)
    s = play(s, 0, "end")
    assert s["turn"]["seat"] == 1
    assert (s["turn"]["servings"], s["turn"]["love"], s["turn"]["employments"]) == (1, 0, 1)


def test_valencia_chambermaid_bonus_is_optional_at_the_start_of_the_turn():
    s = arrange(table(3, stacks=OTHERS), hand={0: [L1]}, deck={0: [L1] * 4}, quarters={0: ["valencia_pretre"] * 2})
    assert s["turn"]["phase"] == "start"
    assert option_ids(s, 0) == ["start:valencia_pretre", "skip"]
    s2 = play(s, 0, "start:valencia_pretre")
    z = s2["seats"][0]
    assert z["quarters"] == ["valencia_pretre"] and z["discard"][-1] == "valencia_pretre" and len(z["hand"]) == 3
    s2 = play(s2, 0, "start:valencia_pretre")  # several Valencias: 2 cards each
    assert s2["seats"][0]["quarters"] == [] and len(s2["seats"][0]["hand"]) == 5
    s3 = play(s, 0, "skip")
    assert s3["seats"][0]["quarters"] == ["valencia_pretre"] * 2 and s3["turn"]["phase"] != "start"


def test_game_ends_after_the_turn_when_two_maid_stacks_are_empty():
    s = table(3)
    s["town"]["clorinde_sea"] = 0
    s["town"]["evita_catala"] = 1
    s = arrange(s, hand={0: [L3, L3, "fea_primrose"]}, deck={0: [L1] * 5})
    s = play(s, 0, "serve:fea_primrose")
    s = play(s, 0, "employ:evita_catala")
    assert not s["over"] and s["turn"]["seat"] == 0  # the turn goes on (one employment left)
    s = play(s, 0, "end")
    assert s["over"] and TITLE.outcome(s) is not None
    assert "Clorinde Sea" in say(s["end_reason"]) and "Evita Catala" in say(s["end_reason"])


def test_five_players_need_three_empty_stacks():
    for emptied, over in ((["clorinde_sea"], False), (["clorinde_sea", "lydia_leon"], True)):
        s = table(5)
        for stack in emptied:
            s["town"][stack] = 0
        s["town"]["evita_catala"] = 1
        s = arrange(s, hand={0: [L3, L3]}, deck={0: [L1] * 5}, auto=True)
        s = play(s, 0, "employ:evita_catala")
        assert s["over"] is over


def test_love_and_reminiscence_stacks_do_not_end_the_game():
    s = table(3)
    s["town"]["love_3"] = 0
    s["town"]["love_2"] = 0
    s["town"]["clorinde_sea"] = 0
    s = arrange(s, hand={0: [L1]}, deck={0: [L1] * 5}, auto=True)
    assert not s["over"]


def test_camp_fire_ends_the_game_at_once():
    s = arrange(
        table(3, stacks=OTHERS),
        row=["camp_fire", "sand_castle", "starry_sky"],
        hand={0: ["lydia_leon", "chinatsu_kooriyama", "evita_catala", L1]},
    )
    s = play(s, 0, "remi:camp_fire")
    assert s["over"] and "Camp Fire" in say(s["end_reason"])
    assert TITLE.prompts(s) == {}
    with pytest.raises(IllegalMove, match="over"):
        TITLE.apply(s, 0, "end", random.Random(0))


def test_answers_from_the_wrong_seat_or_malformed_are_refused():
    s = arrange(table(3), hand={0: ["evita_catala", L1]})
    for seat, answer in [(1, "end"), (0, "serve:sophia_marfil"), (0, 3), (0, ["end"]), (0, "employ:evita_catala")]:
        with pytest.raises(IllegalMove):
            TITLE.apply(s, seat, answer, random.Random(0))


def test_turn_passes_clockwise_and_is_counted():
    s = arrange(table(3), hand={0: [L1, BEA]}, deck={0: [L1] * 5})
    s = play(s, 0, "end")
    s = play(s, 0, "end")
    assert s["turn"]["seat"] == 1 and TITLE.turns_played(s) == 1
