"""One named test per rule of the Café Baras rulebook, played out on arranged tables."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import IllegalMove, OptionsError
from games.titles.cafe_baras import TITLE
from games.titles.cafe_baras.scoring import CATEGORIES, outcome
from games.titles.cafe_baras.state import cardset_of

from .helpers import arrange, one_serve_from_the_end, rng, said, table


def play(state, seat, answer, n=0):
    return TITLE.apply(state, seat, answer, rng(n))


def finish_turn(state, seat):
    """Answer the refill step (first cards of the display) if there is one."""
    while not state["over"] and state["turn"] == seat and state["phase"] != "main":
        state = play(state, seat, TITLE.default_answer(state, seat))
    return state


def serve(cafe, customer, coins=0, guests=("socialite",)):
    """Coins earned serving `customer` from a café holding `cafe`; returns (state after, coins earned)."""
    s = arrange(table(), s0={"hand": [customer], "cafe": list(cafe), "coins": coins}, guests=list(guests))
    after = play(s, 0, f"serve:{customer}")
    return after, after["seats"][0]["coins"] - coins


# ---------------------------------------------------------------- setup


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_display_of_four_hands_of_four_seven_coins(players):
    s = table(players)
    assert len(s["display"]) == 4
    assert [len(seat["hand"]) for seat in s["seats"]] == [4] * players
    assert [seat["coins"] for seat in s["seats"]] == [7] * players
    assert len(s["deck"]) == 83 - 4 - 4 * players
    TITLE.check_invariants(s)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_special_guests_players_plus_one_face_up_rest_in_box(players):
    s = table(players)
    assert len(s["guests"]) == players + 1
    assert len(s["box"]) == 12 - (players + 1)
    assert not set(s["guests"]) & set(s["box"])


def test_setup_each_player_has_a_counter_providing_coffee_and_tea():
    s = table(4)
    cs = cardset_of(s)
    counters = [seat["counter"] for seat in s["seats"]]
    assert len(set(counters)) == 4  # handed out automatically, one each, in seat order
    assert counters == list(cs.counter_order)
    for c in counters:
        assert sorted(cs.counters[c]["provides"]) == ["Coffee", "Tea"]
    assert all(seat["cafe"] == [] for seat in s["seats"])


def test_setup_start_player_is_drawn_with_the_seeded_rng():
    starts = {table(3, seed=i)["turn"] for i in range(30)}
    assert starts == {0, 1, 2}
    assert table(3, seed=5) == table(3, seed=5)


def test_setup_refuses_wrong_player_count_and_unknown_options():
    with pytest.raises(OptionsError, match="2 to 4 players"):
        TITLE.setup(["a"], {}, random.Random(1))
    with pytest.raises(OptionsError, match="2 to 4 players"):
        TITLE.setup(list("abcde"), {}, random.Random(1))
    with pytest.raises(OptionsError, match="no option"):
        TITLE.setup(["a", "b"], {"speed": 3}, random.Random(1))


# ---------------------------------------------------------------- add


def test_add_pays_the_cost_and_joins_the_end_of_the_row():
    s = arrange(table(), s0={"hand": ["oolong", "espresso", "donut", "bagel"], "cafe": ["croissant"], "coins": 5})
    after = play(s, 0, "add:oolong")
    me = after["seats"][0]
    assert me["coins"] == 3
    assert me["cafe"] == ["croissant", "oolong"]
    assert "oolong" not in me["hand"]
    assert s["seats"][0]["coins"] == 5 and s["seats"][0]["cafe"] == ["croissant"]  # input untouched


def test_add_refused_when_you_cannot_pay():
    s = arrange(table(), s0={"hand": ["matcha", "espresso", "donut", "bagel"], "coins": 2})
    before = json.dumps(s, sort_keys=True)
    with pytest.raises(IllegalMove, match="costs 3 coins and you have 2"):
        play(s, 0, "add:matcha")
    assert json.dumps(s, sort_keys=True) == before
    options = {o.id for o in TITLE.prompts(s)[0].options}
    assert "add:matcha" not in options and "serve:matcha" in options and "add:espresso" in options


def test_add_action_gain_coins():
    s = arrange(table(), s0={"hand": ["lemonade", "espresso", "donut", "bagel"], "coins": 4})
    after = play(s, 0, "add:lemonade")
    assert after["seats"][0]["coins"] == 4 - 1 + 1


def test_add_action_gain_per_counts_the_cafe():
    s = arrange(table(), s0={"hand": ["hot-chocolate", "espresso", "bagel", "oolong"], "cafe": ["donut", "brownie"]})
    s["seats"][0]["coins"] = 5
    after = play(s, 0, "add:hot-chocolate")
    assert after["seats"][0]["coins"] == 5 - 2 + 2  # one coin per Sweet


def test_add_action_draw_takes_the_top_of_the_deck_privately():
    s = arrange(table(), s0={"hand": ["chamomile", "espresso", "donut", "bagel"]})
    top = s["deck"][-1]
    after = play(s, 0, "add:chamomile")
    assert top in after["seats"][0]["hand"]
    line = next(e for e in said(after["log"], after) if "drew" in e["text"])
    name = cardset_of(s).cards[top].name
    assert name not in line["text"] and name in line["private"]["0"]
    assert after["phase"] == "main" and after["turn"] == 1  # hand back to 4: no refill choice


def test_add_action_take_asks_for_a_display_card():
    s = arrange(
        table(),
        s0={"hand": ["coconut-water", "espresso", "donut", "bagel"]},
        display=["matcha", "quiche", "oven", "tip-jar"],
    )
    after = play(s, 0, "add:coconut-water")
    assert after["phase"] == "effect"
    prompt = TITLE.prompts(after)[0]
    assert prompt.kind == "choose_many" and (prompt.min_count, prompt.max_count) == (1, 1)
    assert [o.id for o in prompt.options] == ["matcha", "quiche", "oven", "tip-jar"]
    with pytest.raises(IllegalMove):
        play(after, 0, ["espresso"])
    done = play(after, 0, ["oven"])
    assert "oven" in done["seats"][0]["hand"] and len(done["seats"][0]["hand"]) == 4
    assert "oven" not in done["display"] and len(done["display"]) == 4
    assert done["turn"] == 1


def test_add_action_recycle_discards_then_draws_as_many():
    s = arrange(table(), s0={"hand": ["mochi", "espresso", "donut", "bagel"]})
    top_two = s["deck"][-2:]
    after = play(s, 0, "add:mochi")
    prompt = TITLE.prompts(after)[0]
    assert (prompt.min_count, prompt.max_count) == (0, 2)
    done = play(after, 0, ["espresso", "donut"])
    hand = done["seats"][0]["hand"]
    assert "espresso" not in hand and "donut" not in hand
    assert set(top_two) <= set(hand)
    assert {"espresso", "donut"} <= set(done["discard"])
    kept = play(after, 0, [])
    assert kept["seats"][0]["hand"][:3] == ["espresso", "donut", "bagel"]


def test_add_two_actions_resolve_in_order():
    s = arrange(table(), s0={"hand": ["delivery-bike", "espresso", "donut", "bagel"], "coins": 2})
    after = play(s, 0, "add:delivery-bike")
    assert after["phase"] == "effect" and after["seats"][0]["coins"] == 0
    done = play(after, 0, [after["display"][0]])
    assert done["seats"][0]["coins"] == 1  # the gain after the take


def test_ongoing_discount_lowers_costs():
    s = arrange(
        table(), s0={"hand": ["mocha", "espresso", "wooden-bench", "bagel"], "cafe": ["display-case"], "coins": 2}
    )
    options = {o.id: o.label for o in said(TITLE.prompts(s)[0]).options}
    assert options["add:mocha"] == "Add Mocha for 2 coins"
    assert options["add:wooden-bench"] == "Add Wooden Bench for 1 coin"  # decor: no discount
    s2 = arrange(
        table(), s0={"hand": ["espresso", "mocha", "donut", "bagel"], "cafe": ["display-case", "coffee-grinder"]}
    )
    s2["seats"][0]["coins"] = 0
    after = play(s2, 0, "add:espresso")  # 1 - 1 - 1, never below 0
    assert after["seats"][0]["coins"] == 0 and "espresso" in after["seats"][0]["cafe"]


def test_ongoing_serve_bonus():
    _, coins = serve(["croissant", "barista-machine"], "lemonade")
    assert coins == 3 + 1  # Coffee, Tea, Snack + 1 for serving a wanted Coffee
    _, coins = serve(["croissant", "tip-jar"], "lemonade")
    assert coins == 3 + 1
    _, coins = serve(["tip-jar"], "cappuccino")  # Drink, Sweet, Soup: nothing, so no tip either
    assert coins == 0


def test_ongoing_hand_size_refills_to_five():
    s = arrange(table(), s0={"hand": ["chalkboard-menu", "espresso", "donut", "bagel"]})
    after = play(s, 0, "add:chalkboard-menu")
    assert after["phase"] == "refill"
    assert TITLE.prompts(after)[0].min_count == 2
    done = play(after, 0, after["display"][:2])
    assert len(done["seats"][0]["hand"]) == 5


# ---------------------------------------------------------------- serve


def test_rulebook_serving_example_two_coffees_a_drink_and_a_snack_earns_2():
    # Latte's customer wants any two Coffees, any Drink and any Snack. The café has two Coffees
    # (the counter's and an Espresso) and a Snack (Croissant), but no Drink: it earns 2.
    cs = cardset_of(table())
    wants = [(w.food, w.count) for w in cs.cards["latte"].wants]
    assert wants == [("Coffee", 2), ("Drink", 1), ("Snack", 1)]
    after, coins = serve(["espresso", "croissant"], "latte")
    assert coins == 2
    assert "latte" in after["discard"]


def test_serve_earns_a_coin_per_desired_food_provided():
    _, coins = serve(["croissant"], "lemonade")  # Coffee, Tea (counter) and Snack
    assert coins == 3
    _, coins = serve([], "lemonade")
    assert coins == 2


def test_serve_any_food_of_the_wanted_type_counts():
    _, with_croissant = serve(["croissant"], "lemonade")
    _, with_bagel = serve(["bagel"], "lemonade")
    assert with_croissant == with_bagel == 3


def test_serve_two_of_the_same_food_need_two_symbols():
    # Bagel's customer wants Snack, Snack, Coffee.
    _, one_snack = serve(["croissant"], "bagel")
    _, two_snacks = serve(["croissant", "pretzel"], "bagel")
    assert (one_snack, two_snacks) == (2, 3)


def test_serve_multiple_coffee_want_needs_that_many_and_earns_one():
    # Corn Chowder's customer wants 3 Coffees, a Snack and a Drink.
    _, two_coffees = serve(["espresso"], "corn-chowder")
    _, three_coffees = serve(["espresso", "americano"], "corn-chowder")
    _, four_coffees = serve(["espresso", "americano", "latte"], "corn-chowder")
    assert (two_coffees, three_coffees, four_coffees) == (0, 1, 1)


def test_serve_for_zero_coins_is_allowed():
    after, coins = serve([], "cappuccino", coins=0)  # wants Drink, Sweet, Soup
    assert coins == 0 and "cappuccino" in after["discard"]
    assert "serve:cappuccino" in {o.id for o in TITLE.prompts(arrange(table(), s0={"hand": ["cappuccino"]}))[0].options}


def test_serve_decor_earns_nothing():
    _, coins = serve(["wooden-bench", "brick-wall"], "espresso")  # wants Coffee, Snack, Drink; likes Rustic
    assert coins == 1


def test_serve_heart_want_earns_the_heart_bonus():
    # Cold Brew's customer wants 2 Coffees and a Snack with a heart.
    _, coins = serve(["espresso", "croissant"], "cold-brew")
    assert coins == 1 + 2


# ---------------------------------------------------------------- regulars


def test_regular_needs_every_food_and_one_preferred_decor_and_is_tucked():
    # Lemonade's customer: Coffee, Tea, Snack; likes Rustic.
    after, coins = serve(["croissant", "wooden-bench"], "lemonade")
    assert coins == 3
    assert after["seats"][0]["regulars"] == ["lemonade"]
    assert "lemonade" not in after["discard"]


def test_no_regular_without_the_preferred_decor():
    after, _ = serve(["croissant", "checkered-floor"], "lemonade")  # Retro, not Rustic
    assert after["seats"][0]["regulars"] == [] and "lemonade" in after["discard"]


def test_no_regular_when_a_food_is_missing():
    after, coins = serve(["wooden-bench"], "lemonade")  # no Snack
    assert coins == 2 and after["seats"][0]["regulars"] == []


def test_customer_without_preferred_decor_never_becomes_a_regular():
    # Oolong's customer: Coffee, Drink, Snack and no preferred decor.
    after, coins = serve(["lemonade", "croissant", "wooden-bench", "checkered-floor", "pendant-lamps"], "oolong")
    assert coins == 3 and after["seats"][0]["regulars"] == []


# ---------------------------------------------------------------- special guests


def test_big_eater_claimed_by_the_first_cafe_with_two_snacks():
    s = arrange(
        table(),
        s0={"hand": ["pretzel", "espresso", "donut", "oolong"], "cafe": ["croissant"]},
        guests=["big-eater", "socialite", "tinkerer", "food-critic"],
    )
    after = play(s, 0, "add:pretzel")
    assert after["seats"][0]["guests"] == ["big-eater"]
    assert "big-eater" not in after["guests"]
    assert any("claimed the special guest Big Eater" in e["text"] for e in said(after["log"], after))


def test_guest_claimed_at_the_start_of_your_turn_before_spending():
    s = arrange(
        table(),
        turn=0,
        s0={"hand": ["oolong", "espresso", "donut", "bagel"]},
        s1={"hand": ["matcha", "mocha", "cold-brew", "macarons"], "coins": 12},
        guests=["big-spender", "socialite", "tinkerer", "food-critic"],
    )
    mid = play(s, 0, "serve:oolong")
    assert mid["guests"][0] == "big-spender"  # not on somebody else's turn
    after = finish_turn(mid, 0)
    assert after["turn"] == 1 and after["seats"][1]["guests"] == ["big-spender"]
    spent = play(after, 1, "add:matcha")
    assert spent["seats"][1]["guests"] == ["big-spender"]


def test_guests_are_not_claimed_on_another_players_turn():
    s = arrange(
        table(),
        turn=0,
        s0={"hand": ["oolong", "espresso", "donut", "bagel"]},
        s1={"cafe": ["croissant", "pretzel"]},
        guests=["big-eater", "socialite", "tinkerer", "food-critic"],
    )
    after = play(s, 0, "serve:oolong")
    assert "big-eater" in after["guests"] and after["seats"][1]["guests"] == []


def test_several_guests_claimed_at_once():
    cafe = ["croissant", "wooden-bench", "checkered-floor", "pendant-lamps", "art-print", "vinyl-records", "brick-wall"]
    s = arrange(
        table(),
        s0={"hand": ["pretzel", "espresso", "donut", "oolong"], "cafe": cafe},
        guests=["big-eater", "cafe-hopper", "socialite", "tinkerer"],
    )
    after = play(s, 0, "add:pretzel")
    assert sorted(after["seats"][0]["guests"]) == ["big-eater", "cafe-hopper"]


# ---------------------------------------------------------------- refill


def test_refill_hand_by_choice_then_display_from_the_deck():
    s = arrange(
        table(), s0={"hand": ["oolong", "espresso", "donut", "bagel"]}, display=["matcha", "quiche", "oven", "tip-jar"]
    )
    top = s["deck"][-1]
    mid = play(s, 0, "serve:oolong")
    assert mid["phase"] == "refill" and mid["turn"] == 0
    prompt = TITLE.prompts(mid)[0]
    assert (prompt.min_count, prompt.max_count) == (1, 1)
    with pytest.raises(IllegalMove, match="exactly 1"):
        play(mid, 0, ["matcha", "oven"])
    with pytest.raises(IllegalMove, match="not in the display"):
        play(mid, 0, ["espresso"])
    after = play(mid, 0, ["oven"])
    assert "oven" in after["seats"][0]["hand"]
    assert after["display"] == ["matcha", "quiche", "tip-jar", top]
    assert after["turn"] == 1 and after["phase"] == "main"


def test_refill_without_a_choice_is_not_asked():
    s = arrange(table(), s0={"hand": ["oolong", "espresso", "donut", "bagel"]}, display=["matcha"], deck=[])
    after = play(s, 0, "serve:oolong")
    assert "matcha" in after["seats"][0]["hand"] and after["turn"] == 1


def test_deck_runs_out_then_the_discard_is_shuffled_into_a_new_deck():
    s = arrange(arrange(table(), s0={"hand": ["oolong", "espresso", "donut", "bagel"]}), deck=[])
    discard = list(s["discard"])
    assert discard  # arrange moved the old deck there
    after = finish_turn(play(s, 0, "serve:oolong"), 0)
    assert after["reshuffles"] == 1 and after["discard"] == []
    assert len(after["display"]) == 4
    assert any("shuffled into a new deck" in e["text"] for e in said(after["log"], after))
    TITLE.check_invariants(after)


def test_deck_and_discard_both_empty_leave_gaps_until_a_card_is_discarded():
    s = arrange(table(), s0={"hand": ["oolong", "espresso", "donut", "bagel"]})
    s = arrange(s, s2={"cafe": s["deck"] + s["discard"]})
    assert s["deck"] == [] and s["discard"] == []
    mid = play(s, 0, "serve:oolong")
    assert mid["discard"] == ["oolong"]
    after = finish_turn(mid, 0)
    # the served customer is the only card to reshuffle: it refills the display's gap
    assert after["display"].count("oolong") == 1 and len(after["display"]) == 4
    assert after["deck"] == [] and after["discard"] == []
    TITLE.check_invariants(after)
    s = arrange(after, turn=1, s1={"hand": ["matcha", "cold-brew", "macarons", "mocha"]})
    s = arrange(s, turn=1, s2={"cafe": s["seats"][2]["cafe"] + s["deck"] + s["discard"]})
    nxt = finish_turn(play(s, 1, "add:matcha"), 1)
    assert len(nxt["display"]) == 3  # nothing left to fill the gap: the game goes on with a gap
    TITLE.check_invariants(nxt)


def test_no_cards_anywhere_means_pass_and_the_game_ends_when_everyone_passes():
    s = table(2)
    everything = list(cardset_of(s).order)
    s = arrange(
        s,
        display=[],
        deck=[],
        discard=[],
        s0={"hand": [], "cafe": everything[:40]},
        s1={"hand": [], "cafe": everything[40:], "guests": ["tinkerer"]},
        guests=["socialite", "big-spender"],
    )
    prompt = TITLE.prompts(s)[0]
    assert [o.id for o in prompt.options] == ["pass"]
    with pytest.raises(IllegalMove):
        play(s, 0, "serve:oolong")
    s = play(s, 0, "pass")
    assert not s["over"] and s["turn"] == 1
    s = play(s, 1, "pass")
    assert s["over"] and outcome(s) is not None
    assert "nobody has a card left" in said(s["end_reason"], s)


def test_passing_with_cards_in_hand_is_refused():
    s = arrange(table(), s0={"hand": ["oolong", "espresso", "donut", "bagel"]})
    with pytest.raises(IllegalMove, match="still have cards"):
        play(s, 0, "pass")


# ---------------------------------------------------------------- game end


def test_third_regular_triggers_the_end_then_each_other_player_has_one_turn():
    s = one_serve_from_the_end(
        ["socialite", "tinkerer", "food-critic", "interior-critic"],
        s1={"hand": ["oolong", "matcha", "cold-brew", "macarons"]},
        s2={"hand": ["cappuccino", "mocha", "quiche", "pretzel"]},
    )
    s = finish_turn(play(s, 0, "serve:lemonade"), 0)
    assert s["end"]["by"] == 0 and s["end"]["left"] == 2 and not s["over"]
    s = finish_turn(play(s, 1, "serve:oolong"), 1)
    assert not s["over"] and s["turn"] == 2
    s = finish_turn(play(s, 2, "serve:cappuccino"), 2)
    assert s["over"] and s["phase"] == "over" and TITLE.prompts(s) == {}
    assert outcome(s) is not None and "third regular" in said(s["end_reason"], s)


def test_two_players_need_a_fourth_regular():
    base = dict(
        turn=0,
        s1={"hand": ["oolong", "matcha", "cold-brew", "macarons"]},
        guests=["tinkerer", "food-critic", "interior-critic"],
    )
    s = arrange(
        table(2),
        s0={
            "hand": ["lemonade", "espresso", "donut", "bagel"],
            "cafe": ["croissant", "wooden-bench"],
            "regulars": ["tomato-soup", "log-fireplace"],
        },
        **base,
    )
    s = finish_turn(play(s, 0, "serve:lemonade"), 0)
    assert len(s["seats"][0]["regulars"]) == 3 and s["end"] is None
    s = arrange(
        table(2),
        s0={
            "hand": ["lemonade", "espresso", "donut", "bagel"],
            "cafe": ["croissant", "wooden-bench"],
            "regulars": ["tomato-soup", "log-fireplace", "hanging-plants"],
        },
        **base,
    )
    s = finish_turn(play(s, 0, "serve:lemonade"), 0)
    assert s["end"] is not None and "fourth regular" in said(s["end"]["reason"], s)
    s = finish_turn(play(s, 1, "serve:oolong"), 1)
    assert s["over"]


def test_claiming_the_last_special_guest_triggers_the_end():
    s = arrange(
        table(3),
        turn=0,
        s0={"hand": ["pretzel", "espresso", "donut", "oolong"], "cafe": ["croissant"]},
        s1={"guests": ["socialite", "tinkerer"]},
        s2={"guests": ["food-critic"]},
        guests=["big-eater"],
    )
    s = play(s, 0, "add:pretzel")
    assert s["guests"] == [] and s["trigger"] == ["guest"]
    s = finish_turn(s, 0)
    assert said(s["end"], s) == {"by": 0, "reason": "P0 claimed the last special guest", "left": 2}


def test_end_is_triggered_once_even_if_someone_else_qualifies_in_the_last_round():
    s = arrange(
        table(3),
        turn=0,
        s0={
            "hand": ["lemonade", "espresso", "donut", "bagel"],
            "cafe": ["croissant", "wooden-bench"],
            "regulars": ["tomato-soup", "log-fireplace"],
        },
        s1={
            "hand": ["yuzu-soda", "matcha", "cold-brew", "macarons"],
            "cafe": ["quiche", "checkered-floor"],
            "regulars": ["earl-grey", "brownie"],
        },
        guests=["socialite", "tinkerer", "food-critic", "interior-critic"],
    )
    s = finish_turn(play(s, 0, "serve:lemonade"), 0)
    assert s["end"]["left"] == 2
    s = finish_turn(play(s, 1, "serve:yuzu-soda"), 1)  # P1's third regular too
    assert len(s["seats"][1]["regulars"]) == 3
    assert s["end"]["by"] == 0 and s["end"]["left"] == 1 and not s["over"]


def test_moves_out_of_turn_are_refused():
    s = arrange(table(), turn=0, s0={"hand": ["oolong", "espresso", "donut", "bagel"]})
    with pytest.raises(IllegalMove, match="not your turn"):
        play(s, 1, "serve:oolong")
    with pytest.raises(IllegalMove, match="not in your hand"):
        play(s, 0, "serve:matcha")
    for bad in ("", "eat:oolong", 7, None, ["serve:oolong"]):
        with pytest.raises(IllegalMove):
            play(s, 0, bad)


# ---------------------------------------------------------------- scoring


def test_scoring_by_the_rulebook_categories():
    s = arrange(
        table(2),
        s0={
            "cafe": ["flat-white", "espresso", "cheesecake", "piggy-bank"],
            "regulars": ["lemonade", "tomato-soup"],
            "coins": 9,
            "guests": ["big-eater", "socialite"],
        },
        s1={"cafe": ["soup-pot", "miso-soup"], "coins": 3},
        guests=["tinkerer"],
    )
    s["over"], s["phase"] = True, "over"
    result = outcome(s)
    labels = [label for label, _ in result.breakdown[0]]
    assert labels == list(CATEGORIES)
    # coins 9 -> 4; Flat White 1 per Coffee (counter, Flat White, Espresso) = 3, Espresso 1,
    # Cheesecake 0 (3 food types, not 5), Piggy Bank 0 (9 coins, not 10); 2 regulars = 8; guests 4 + 4.
    names = [said(c) for c in CATEGORIES]
    assert dict(said(result.breakdown[0])) == {names[0]: 4, names[1]: 4, names[2]: 8, names[3]: 8}
    assert result.scores[0] == 24
    # Soup Pot: 2 per Soup (max 6) = 2, Miso Soup 2; coins 3 -> 1.
    assert result.scores[1] == 1 + 4
    assert result.winners == [0] and result.tiebreak == ""


def test_conditional_scores_reach_their_threshold_and_cap():
    s = arrange(
        table(2),
        s0={
            "cafe": [
                "cheesecake",
                "lemonade",
                "croissant",
                "tomato-soup",
                "piggy-bank",
                "soup-pot",
                "miso-soup",
                "pumpkin-soup",
                "minestrone",
            ],
            "coins": 10,
        },
        guests=["tinkerer"],
    )
    s["over"], s["phase"] = True, "over"
    cards = dict(outcome(s).extra["card_points"][0])
    assert cards["Cheesecake"] == 5  # Coffee, Tea, Sweet, Drink, Snack, Soup
    assert cards["Piggy Bank"] == 4
    assert cards["Soup Pot"] == 6  # 4 Soups x 2, capped at 6


def test_tied_scores_share_the_win():
    s = arrange(
        table(2),
        s0={"cafe": ["espresso"], "coins": 4},
        s1={"cafe": ["americano"], "coins": 5},
        guests=["tinkerer", "socialite", "food-critic"],
    )
    s["over"], s["phase"] = True, "over"
    result = outcome(s)
    assert result.scores == {0: 3, 1: 3}
    assert result.winners == [0, 1] and said(result.tiebreak) == "shared win"
