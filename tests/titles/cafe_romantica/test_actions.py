"""The one action a turn: recruit, bond, buy, fave, complete an agenda, pass; refusals."""

from __future__ import annotations

from games.engine import IllegalMove
from games.titles.cafe_romantica import TITLE
from games.titles.cafe_romantica.actions import candidates

from .helpers import (
    CARDS,
    acting,
    drafted,
    field_state,
    give,
    illegal,
    log_of,
    put_in_field,
    rng,
)

# ---------------------------------------------------------------- actions


def test_recruit_host_from_field_pays_cost():
    state = field_state()
    state = TITLE.apply(state, 0, "gentleman-1", rng())
    me = state["seats"][0]
    assert me["club"]["gentleman"] == ["gentleman-1"] and me["hearts"] == 5 - 3
    assert "gentleman-1" not in state["field"]
    assert state["order"][state["acting"]] == 1  # one action per turn


def test_recruit_second_copy_bonds_under_him():
    state = give(field_state(), 0, {"gentleman": 1})
    mine = state["seats"][0]["club"]["gentleman"][0]
    other = next(c for c in state["deck"] if c.startswith("gentleman-"))
    state = put_in_field(state, 5, other)
    state = TITLE.apply(state, 0, other, rng())
    assert state["seats"][0]["club"] == {"gentleman": [mine, other]}


def test_buy_focus_card_instead_of_recruiting():
    state = field_state("rose_bouquet-1")
    state = TITLE.apply(state, 0, "rose_bouquet-1", rng())
    assert state["seats"][0]["focus"] == ["rose_bouquet-1"] and state["seats"][0]["hearts"] == 2


def test_recruit_energetic_costs_three_every_copy():
    state = field_state("energetic-1")
    for c in range(1, 7):
        assert CARDS["hosts"]["energetic"]["cost"] == 3
        s2 = put_in_field(state, 6, f"energetic-{c}")
        after = TITLE.apply(s2, 0, f"energetic-{c}", rng())
        assert after["seats"][0]["hearts"] == 5 - 3


def test_recruit_unaffordable_is_refused_and_changes_nothing():
    state = field_state(hearts=(2, 5, 5))
    assert "costs 3 ♥ and you have 2 ♥" in illegal(state, 0, "gentleman-1")
    assert "gentleman-1" not in [o.id for o in TITLE.prompts(state)[0].options]


def test_recruit_card_gone_is_refused():
    state = field_state()
    state = TITLE.apply(state, 0, "gentleman-1", rng())
    assert "no longer in the field" in illegal(state, 1, "gentleman-1")


def test_not_your_turn_is_refused():
    assert "turn to act" in illegal(field_state(), 2, "pass")


def test_fave_host_pays_his_recruit_cost():
    state = give(field_state(), 0, {"prince": 1})
    state = TITLE.apply(state, 0, "fave:prince", rng())
    assert state["seats"][0]["fave"] == "prince" and state["seats"][0]["hearts"] == 5 - 4


def test_fave_only_a_boy_in_your_club():
    assert "in your club" in illegal(field_state(), 0, "fave:prince")


def test_fave_discount_is_one_heart_on_bonding():
    state = give(field_state(), 0, {"gentleman": 1}, fave="gentleman")
    other = next(c for c in state["deck"] if c.startswith("gentleman-"))
    state = put_in_field(state, 5, other)
    state = TITLE.apply(state, 0, other, rng())
    assert state["seats"][0]["hearts"] == 5 - (3 - CARDS["fave_discount"]) and CARDS["fave_discount"] == 1


def test_fave_discount_minimum_one():
    state = give(field_state(), 0, {"shy": 1}, fave="shy")
    other = next(c for c in state["deck"] if c.startswith("shy-"))
    state = put_in_field(state, 5, other)
    state = TITLE.apply(state, 0, other, rng())
    assert state["seats"][0]["hearts"] == 4


def test_fave_only_one_favourite_at_a_time():
    state = give(field_state(hearts=(9, 5, 5)), 0, {"prince": 1, "shy": 1}, fave="shy")
    assert "already your favourite" in illegal(state, 0, "fave:shy")
    state = TITLE.apply(state, 0, "fave:prince", rng())
    assert state["seats"][0]["fave"] == "prince"


def test_complete_agenda_pays_cost_flips_and_benefit_applies():
    state = field_state(hearts=(20, 5, 5))
    mine = state["seats"][0]["agendas"][0]
    cost = CARDS["agendas"][mine]["cost"] - (1 if state["seats"][0]["manager"] == "aoi" else 0)
    state = TITLE.apply(state, 0, f"agenda:{mine}", rng())
    assert state["seats"][0]["done"] == [mine] and state["seats"][0]["hearts"] == 20 - cost
    assert CARDS["agendas"][mine]["name"] in "\n".join(log_of(state, 2))
    assert "already completed" in illegal(acting(state, [0, 1, 2]), 0, f"agenda:{mine}")


def test_complete_someone_elses_agenda_is_refused():
    state = field_state(hearts=(20, 5, 5))
    theirs = state["seats"][1]["agendas"][0]
    assert "not one of your agendas" in illegal(state, 0, f"agenda:{theirs}")


def test_pass_does_nothing():
    state = field_state()
    after = TITLE.apply(state, 0, "pass", rng())
    assert after["seats"][0] == state["seats"][0] and after["acting"] == 1


def test_rule_hearts_are_spent_the_turn_they_are_earned_a_seat_that_can_afford_nothing_passes():
    """A seat with 1 ♥ and nothing that cheap passes unasked, and the log says it had 1 ♥ (not "no ♥")."""
    state = field_state(hearts=(5, 1, 5))
    cheap = {a.id for a in candidates(state, 1) if a.kind != "pass" and a.cost <= 1}
    state["field"] = [None if c in cheap else c for c in state["field"]]  # nothing on offer costs 1 ♥
    state["deck"] = state["deck"] + sorted(cheap)
    state = TITLE.apply(state, 0, "pass", rng())
    log = log_of(state, 0)
    assert state["order"][state["acting"]] == 2
    assert "P1 has 1 ♥, too few for anything on offer, and passes (unspent ♥ are lost)." in log
    assert not any("P1 has no ♥" in line for line in log)


def test_rule_with_pooling_a_seat_that_can_afford_nothing_passes_and_keeps_its_hearts():
    """The pooling option (README house rule): unspent ♥ carry over, and the pass line says so."""
    state = field_state(hearts=(5, 1, 5))
    state["options"] = dict(state["options"], pooling=True)
    cheap = {a.id for a in candidates(state, 1) if a.kind != "pass" and a.cost <= 1}
    state["field"] = [None if c in cheap else c for c in state["field"]]
    state["deck"] = state["deck"] + sorted(cheap)
    state = TITLE.apply(state, 0, "pass", rng())
    log = log_of(state, 0)
    assert state["order"][state["acting"]] == 2 and state["seats"][1]["hearts"] == 1
    assert "P1 has 1 ♥, too few for anything on offer, and passes (they carry over)." in log
    assert not any("unspent ♥ are lost" in line for line in log)


def test_seat_that_can_only_pass_is_not_asked():
    state = field_state(hearts=(5, 0, 5))
    state = TITLE.apply(state, 0, "pass", rng())
    assert state["order"][state["acting"]] == 2 and "P1 has no ♥ to spend." in log_of(state, 0)


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
