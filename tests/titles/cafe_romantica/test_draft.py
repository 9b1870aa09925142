"""The manager and agenda draft: one round trip from ranked preference lists."""

from __future__ import annotations

import json

from games.titles.cafe_romantica import TITLE

from .helpers import (
    AGENDAS,
    CARDS,
    MANAGERS,
    drafted,
    illegal,
    rng,
)

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
