"""One named test per rule the title plays: setup, draft, roll and shine, actions, end of turn, win."""

from __future__ import annotations

import copy
import json
import random

import pytest

from games.engine import IllegalMove, OptionsError
from games.titles.cafe_romantica import TITLE, game, turn
from games.titles.cafe_romantica.cards import deck_ids

from .helpers import AGENDAS, CARDS, MANAGERS, acting, drafted, give, put_in_field, rng, seat


class Dice(random.Random):
    """A generator whose die rolls are scripted (shuffles stay seeded)."""

    def __init__(self, rolls: list[int]):
        super().__init__("dice")
        self.rolls = list(rolls)

    def randint(self, a: int, b: int) -> int:
        return self.rolls.pop(0)


def illegal(state, seat_, answer) -> str:
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalMove) as e:
        TITLE.apply(state, seat_, answer, rng())
    assert json.dumps(state, sort_keys=True) == before
    return str(e.value)


# ---------------------------------------------------------------- setup and options


def test_setup_player_counts():
    for n in (2, 3, 4):
        assert len(TITLE.setup([f"P{i}" for i in range(n)], {}, rng())["seats"]) == n
    for n in (1, 5):
        with pytest.raises(OptionsError):
            TITLE.setup([f"P{i}" for i in range(n)], {}, rng())


def test_setup_options_validated():
    for bad in ({"turn_cap": -1}, {"turn_cap": "10"}, {"pooling": "yes"}, {"colour": "pink"}):
        with pytest.raises(OptionsError):
            TITLE.setup(["A", "B"], bad, rng())
    assert {f.name for f in TITLE.options_schema} == {"turn_cap", "pooling"}


def test_setup_deck_of_hosts_and_focus_shuffled_field_of_eight():
    state = TITLE.setup(["A", "B", "C"], {}, rng())
    assert len(state["field"]) == 8 and None not in state["field"]
    assert sorted(state["deck"] + state["field"]) == sorted(deck_ids(CARDS))
    other = TITLE.setup(["A", "B", "C"], {}, rng(9))
    assert other["deck"] != state["deck"]


def test_setup_takes_the_cardset_from_options():
    cards = copy.deepcopy(CARDS)
    cards["flyer"] = dict(cards["flyer"], hearts=5)
    state = TITLE.setup(["A", "B"], {"cardset": cards}, rng())
    assert state["cards"]["flyer"]["hearts"] == 5


def test_setup_state_is_json():
    state = drafted(4)
    assert json.loads(json.dumps(state)) == state


# ---------------------------------------------------------------- draft


def test_draft_one_round_trip_all_seats_at_once():
    state = TITLE.setup(["A", "B", "C"], {}, rng())
    prompts = TITLE.prompts(state)
    assert set(prompts) == {0, 1, 2} and prompts[0].kind == "composite"
    assert [name for name, _ in prompts[0].parts] == ["manager", "agendas"]


def test_draft_managers_in_choosing_order():
    state = TITLE.setup(["A", "B", "C"], {}, rng())
    state["choose_order"] = [2, 0, 1]
    everyone = {"manager": MANAGERS, "agendas": AGENDAS}
    for s in range(3):
        state = TITLE.apply(state, s, everyone, rng(s))
    assert [state["seats"][s]["manager"] for s in (2, 0, 1)] == MANAGERS[:3]


def test_draft_agendas_snake_from_end_of_choosing_order():
    state = TITLE.setup(["A", "B", "C"], {}, rng())
    state["choose_order"] = [2, 0, 1]
    everyone = {"manager": MANAGERS, "agendas": AGENDAS}
    for s in range(3):
        state = TITLE.apply(state, s, everyone, rng(s))
    # picks: 1,0,2 then 2,0,1 then 1,0,2
    assert state["seats"][1]["agendas"] == [AGENDAS[0], AGENDAS[5], AGENDAS[6]]
    assert state["seats"][0]["agendas"] == [AGENDAS[1], AGENDAS[4], AGENDAS[7]]
    assert state["seats"][2]["agendas"] == [AGENDAS[2], AGENDAS[3], AGENDAS[8]]


def test_draft_preferences_sealed_until_resolved():
    state = TITLE.setup(["A", "B"], {}, rng())
    state = TITLE.apply(state, 0, {"manager": MANAGERS[::-1], "agendas": AGENDAS[::-1]}, rng())
    assert set(TITLE.prompts(state)) == {1}
    blob = json.dumps(TITLE.view(state, 1), ensure_ascii=False)
    assert CARDS["managers"][MANAGERS[-1]]["name"] not in blob
    assert TITLE.view(state, 0)["data"]["my_sealed"]["manager"][0] == MANAGERS[-1]


def test_draft_needs_a_complete_ranking():
    state = TITLE.setup(["A", "B"], {}, rng())
    illegal(state, 0, {"manager": MANAGERS[:3], "agendas": AGENDAS})
    illegal(state, 0, {"manager": MANAGERS})


def test_draft_each_seat_gets_a_flyer_manager_three_agendas_and_the_turn_starts():
    state = drafted(4)
    assert all(s["manager"] and len(s["agendas"]) == 3 and not s["done"] for s in state["seats"])
    assert state["turn"] == 1 and state["phase"] in ("auction", "actions")
    assert all(s["hearts"] >= CARDS["flyer"]["hearts"] for s in state["seats"])


# ---------------------------------------------------------------- roll and shine


def _begin(state, rolls, pooling=False):
    state = copy.deepcopy(state)
    state["cards"] = CARDS
    state["options"]["pooling"] = pooling
    turn.begin_turn(state, Dice(rolls))
    return state


def test_roll_every_die_rolled_and_shown():
    state = _begin(drafted(3), [1, 4, 6])
    assert state["dice"] == [1, 4, 6]
    assert "Rolls: P0 1; P1 4; P2 6." in TITLE.view(state, None)["log"][-4]


def test_roll_cards_on_that_face_shine_and_earn():
    state = give(drafted(3), 0, {"gentleman": 2, "shy": 1}, manager="rin")
    state = _begin(state, [4, 4, 4])
    assert state["seats"][0]["hearts"] == CARDS["flyer"]["hearts"] + 6


def test_roll_again_when_no_host_shines_sora():
    state = give(drafted(3), 0, {"gentleman": 1}, manager="sora")
    after = _begin(state, [2, 5, 6, 4])  # Sora's 2 shines no host: she rolls a 4, Gentleman shines
    assert after["rolls"][0] == [2, 4] and after["dice"][0] == 4
    assert after["seats"][0]["hearts"] == CARDS["flyer"]["hearts"] + 3
    assert "P0 2, rolled again 4;" in "\n".join(TITLE.view(after, 1)["log"])
    kept = _begin(state, [4, 5, 6])  # Gentleman shines on the first roll: no second die
    assert kept["rolls"][0] == [4] and kept["dice"][0] == 4


def test_roll_rival_takes_hearts_never_below_zero():
    state = give(drafted(3), 0, {"delinquent": 1}, manager="rin")
    cards = copy.deepcopy(CARDS)
    cards["hosts"]["delinquent"] = dict(cards["hosts"]["delinquent"], ability={"kind": "rival", "amount": 5})
    state["cards"] = cards
    turn.begin_turn(state, Dice([1, 1, 3]))
    flyer = CARDS["flyer"]["hearts"]
    assert state["seats"][1]["hearts"] == 0
    assert state["seats"][0]["hearts"] == flyer + 1 + flyer
    assert state["seats"][2]["hearts"] == flyer
    assert "P0 takes 2 ♥ from P1, who rolled the same number." in TITLE.view(state, 2)["log"][-1]


def _no_income(state):
    for i, m in enumerate(["rin", "aoi", "mei"]):
        state = seat(state, i, manager=m)
    return state


def test_hearts_lost_at_end_of_turn():
    state = acting(_no_income(drafted(3)), [0, 1, 2], hearts=[1, 1, 1])
    state = TITLE.apply(state, 0, "pass", rng())
    state = TITLE.apply(state, 1, "pass", rng())
    state = TITLE.apply(state, 2, "pass", Dice([3, 3, 3]))
    assert state["turn"] == 2 and all(s["hearts"] == CARDS["flyer"]["hearts"] for s in state["seats"])


def test_pooling_keeps_hearts():
    state = _no_income(drafted(3, {"pooling": True}))
    state = acting(state, [0, 1, 2], hearts=[1, 1, 1])
    for s in (0, 1):
        state = TITLE.apply(state, s, "pass", rng())
    state = TITLE.apply(state, 2, "pass", Dice([3, 3, 3]))
    assert all(s["hearts"] == 1 + CARDS["flyer"]["hearts"] for s in state["seats"])


# ---------------------------------------------------------------- actions


def _field_state(card="gentleman-1", hearts=(5, 5, 5)):
    state = put_in_field(drafted(3), 4, card)
    return acting(state, [0, 1, 2], hearts=list(hearts))


def test_recruit_host_from_field_pays_cost():
    state = _field_state()
    state = TITLE.apply(state, 0, "gentleman-1", rng())
    me = state["seats"][0]
    assert me["club"]["gentleman"] == ["gentleman-1"] and me["hearts"] == 5 - 3
    assert "gentleman-1" not in state["field"]
    assert state["order"][state["acting"]] == 1  # one action per turn


def test_recruit_second_copy_bonds_under_him():
    state = give(_field_state(), 0, {"gentleman": 1})
    mine = state["seats"][0]["club"]["gentleman"][0]
    other = next(c for c in state["deck"] if c.startswith("gentleman-"))
    state = put_in_field(state, 5, other)
    state = TITLE.apply(state, 0, other, rng())
    assert state["seats"][0]["club"] == {"gentleman": [mine, other]}


def test_buy_focus_card_instead_of_recruiting():
    state = _field_state("rose_bouquet-1")
    state = TITLE.apply(state, 0, "rose_bouquet-1", rng())
    assert state["seats"][0]["focus"] == ["rose_bouquet-1"] and state["seats"][0]["hearts"] == 2


def test_recruit_energetic_costs_three_every_copy():
    state = _field_state("energetic-1")
    for c in range(1, 7):
        assert CARDS["hosts"]["energetic"]["cost"] == 3
        s2 = put_in_field(state, 6, f"energetic-{c}")
        after = TITLE.apply(s2, 0, f"energetic-{c}", rng())
        assert after["seats"][0]["hearts"] == 5 - 3


def test_recruit_unaffordable_is_refused_and_changes_nothing():
    state = _field_state(hearts=(2, 5, 5))
    assert "costs 3 ♥ and you have 2 ♥" in illegal(state, 0, "gentleman-1")
    assert "gentleman-1" not in [o.id for o in TITLE.prompts(state)[0].options]


def test_recruit_card_gone_is_refused():
    state = _field_state()
    state = TITLE.apply(state, 0, "gentleman-1", rng())
    assert "no longer in the field" in illegal(state, 1, "gentleman-1")


def test_not_your_turn_is_refused():
    assert "turn to act" in illegal(_field_state(), 2, "pass")


def test_fave_host_pays_his_recruit_cost():
    state = give(_field_state(), 0, {"prince": 1})
    state = TITLE.apply(state, 0, "fave:prince", rng())
    assert state["seats"][0]["fave"] == "prince" and state["seats"][0]["hearts"] == 5 - 4


def test_fave_only_a_boy_in_your_club():
    assert "in your club" in illegal(_field_state(), 0, "fave:prince")


def test_fave_discount_is_one_heart_on_bonding():
    state = give(_field_state(), 0, {"gentleman": 1}, fave="gentleman")
    other = next(c for c in state["deck"] if c.startswith("gentleman-"))
    state = put_in_field(state, 5, other)
    state = TITLE.apply(state, 0, other, rng())
    assert state["seats"][0]["hearts"] == 5 - (3 - CARDS["fave_discount"]) and CARDS["fave_discount"] == 1


def test_fave_discount_minimum_one():
    state = give(_field_state(), 0, {"shy": 1}, fave="shy")
    other = next(c for c in state["deck"] if c.startswith("shy-"))
    state = put_in_field(state, 5, other)
    state = TITLE.apply(state, 0, other, rng())
    assert state["seats"][0]["hearts"] == 4


def test_fave_only_one_favourite_at_a_time():
    state = give(_field_state(hearts=(9, 5, 5)), 0, {"prince": 1, "shy": 1}, fave="shy")
    assert "already your favourite" in illegal(state, 0, "fave:shy")
    state = TITLE.apply(state, 0, "fave:prince", rng())
    assert state["seats"][0]["fave"] == "prince"


def test_complete_agenda_pays_cost_flips_and_benefit_applies():
    state = _field_state(hearts=(20, 5, 5))
    mine = state["seats"][0]["agendas"][0]
    cost = CARDS["agendas"][mine]["cost"] - (1 if state["seats"][0]["manager"] == "aoi" else 0)
    state = TITLE.apply(state, 0, f"agenda:{mine}", rng())
    assert state["seats"][0]["done"] == [mine] and state["seats"][0]["hearts"] == 20 - cost
    assert CARDS["agendas"][mine]["name"] in "\n".join(TITLE.view(state, 2)["log"])
    assert "already completed" in illegal(acting(state, [0, 1, 2]), 0, f"agenda:{mine}")


def test_complete_someone_elses_agenda_is_refused():
    state = _field_state(hearts=(20, 5, 5))
    theirs = state["seats"][1]["agendas"][0]
    assert "not one of your agendas" in illegal(state, 0, f"agenda:{theirs}")


def test_pass_does_nothing():
    state = _field_state()
    after = TITLE.apply(state, 0, "pass", rng())
    assert after["seats"][0] == state["seats"][0] and after["acting"] == 1


def test_seat_that_can_only_pass_is_not_asked():
    state = _field_state(hearts=(5, 0, 5))
    state = TITLE.apply(state, 0, "pass", rng())
    assert state["order"][state["acting"]] == 2 and "P1 has no ♥ to spend." in TITLE.view(state, 0)["log"]


def test_conditional_answers_use_stable_ids():
    """A later seat's list ("recruit X; if gone, Y; else fave Z") tried in order by the service."""
    state = put_in_field(put_in_field(drafted(3), 4, "gentleman-1"), 5, "cool-1")
    state = give(acting(state, [0, 1, 2], hearts=[5, 5, 5]), 1, {"shy": 1})
    state = TITLE.apply(state, 0, "gentleman-1", rng())
    plan = ["gentleman-1", "cool-1", "fave:shy"]
    for answer in plan:
        try:
            state = TITLE.apply(state, 1, answer, rng())
            break
        except IllegalMove:
            continue
    assert state["seats"][1]["club"].get("cool") == ["cool-1"]
    options = {o.id for o in TITLE.prompts(acting(state, [1, 0, 2]))[1].options}
    assert {"fave:shy", "pass"} <= options


# ---------------------------------------------------------------- end of turn and the win


def test_end_of_turn_field_moves_down_and_refills():
    state = acting(drafted(3), [0, 1, 2], hearts=[0, 0, 0])
    field = list(state["field"])
    deck = list(state["deck"])
    state["field"][1] = None  # a card taken from the top row this turn
    turn.end_turn(state, Dice([]))
    assert state["field"][:4] == deck[0:4]  # refilled top row first, left to right
    assert state["field"][4:] == [field[0], deck[4], field[2], field[3]]
    assert sorted(state["deck"][-4:]) == sorted(field[4:])  # bottom row under the deck
    assert state["deck"][: len(deck) - 5] == deck[5:]


def test_win_at_start_of_turn_with_three_agendas():
    state = acting(drafted(3), [0, 1, 2], hearts=[30, 0, 0])
    state = seat(state, 0, done=state["seats"][0]["agendas"][:2])
    last = state["seats"][0]["agendas"][2]
    state = TITLE.apply(state, 0, f"agenda:{last}", rng())
    assert state["phase"] == "over" and TITLE.outcome(state).winners == [0]
    assert TITLE.turns_played(state) == 1
    assert TITLE.prompts(state) == {}
    assert "over" in illegal(state, 1, "pass")


def test_win_shared_when_several_begin_the_turn_with_three():
    state = acting(drafted(3), [0, 1, 2], hearts=[0, 0, 0])
    state = seat(state, 0, done=state["seats"][0]["agendas"])
    state = seat(state, 2, done=state["seats"][2]["agendas"])
    state["acting"] = 3
    game.settle(state, rng())
    out = TITLE.outcome(state)
    assert out.winners == [0, 2] and "shared" in out.tiebreak


def test_turn_cap_scores_agendas_then_club_value():
    state = drafted(3, {"turn_cap": 1})
    state = acting(state, [0, 1, 2], hearts=[0, 0, 0])
    state = seat(state, 1, done=state["seats"][1]["agendas"][:1])
    state = seat(state, 2, done=state["seats"][2]["agendas"][:1])
    state = give(state, 2, {"gentleman": 1})
    state["acting"] = 3
    game.settle(state, rng())
    out = TITLE.outcome(state)
    assert out.winners == [2] and out.scores == {0: 0, 1: 1, 2: 1} and "club ♥" in out.tiebreak


def test_turn_cap_off_by_default():
    assert drafted(2)["options"]["turn_cap"] == 0


# ---------------------------------------------------------------- protocol duties


def test_apply_does_not_change_its_input():
    state = _field_state()
    before = json.dumps(state, sort_keys=True)
    TITLE.apply(state, 0, "gentleman-1", rng())
    state2 = drafted(3)
    before2 = json.dumps(state2, sort_keys=True)
    if state2["phase"] == "auction":
        for s in TITLE.prompts(state2):
            TITLE.apply(state2, s, TITLE.default_answer(state2, s), rng())
    assert json.dumps(state, sort_keys=True) == before and json.dumps(state2, sort_keys=True) == before2


def test_default_answers_are_legal_in_every_phase():
    state = TITLE.setup(["A", "B", "C"], {}, rng())
    for _ in range(200):
        if TITLE.outcome(state):
            break
        prompts = TITLE.prompts(state)
        s = min(prompts)
        prompts[s].validate(TITLE.default_answer(state, s))
        state = TITLE.apply(state, s, TITLE.default_answer(state, s), rng(_))
    assert state["turn"] > 5


def test_bad_seat_is_refused():
    assert "no such seat" in illegal(_field_state(), 7, "pass")
