"""Nothing depends on the order of a dict's keys: PostgreSQL's jsonb gives them back in its own
order, so clubs and the card catalogue are read in the card data's order (README, "Order")."""

from __future__ import annotations

import copy
from typing import Any

from games.engine.cards import load_yaml, seed_dir
from games.titles.cafe_romantica import TITLE, turn
from games.titles.cafe_romantica.cards import KINDS, deck_ids, ids_of
from tests.engine.test_key_order import reversed_keys

from .helpers import CARDS, Dice, acting, drafted, give, said


def test_the_set_lists_every_kind_in_data_file_order():
    for kind in KINDS:
        in_file = [c["id"] for c in load_yaml(seed_dir("cafe_romantica") / f"{kind}.yaml")]
        assert CARDS["ids"][kind] == in_file == list(CARDS[kind])
        assert ids_of(reversed_keys(CARDS), kind) == in_file


def test_a_set_without_its_id_lists_sorts_ids_whatever_its_key_order():
    bare = {k: v for k, v in CARDS.items() if k != "ids"}
    assert ids_of(bare, "hosts") == ids_of(reversed_keys(bare), "hosts") == sorted(CARDS["hosts"])
    assert deck_ids(bare) == deck_ids(reversed_keys(bare))


def test_setup_deals_the_same_from_a_reordered_set():
    fresh = TITLE.setup(["A", "B", "C"], {}, Dice([]))
    again = TITLE.setup(["A", "B", "C"], {"cardset": reversed_keys(copy.deepcopy(CARDS))}, Dice([]))
    assert again["deck"] == fresh["deck"] and again["field"] == fresh["field"]


def test_draft_question_and_default_answer_in_data_order():
    cards = reversed_keys(copy.deepcopy(CARDS))
    ranking = dict(turn.draft_prompt(cards).parts)
    assert [o.id for o in ranking["manager"].options] == CARDS["ids"]["managers"]
    assert [o.id for o in ranking["agendas"].options] == CARDS["ids"]["agendas"]
    state = dict(drafted(3), phase="draft", cards=cards)
    assert turn.default_answer(state, 0) == {"manager": CARDS["ids"]["managers"], "agendas": CARDS["ids"]["agendas"]}


def _club_in_both_orders() -> list[dict[str, Any]]:
    state = give(drafted(3), 0, {"chef": 1, "sleepy": 1}, manager="rin")
    club = state["seats"][0]["club"]
    assert list(club) == ["chef", "sleepy"]
    other = copy.deepcopy(state)
    other["cards"] = CARDS
    other["seats"][0]["club"] = reversed_keys(club)
    return [state, other]


def test_payout_line_names_hosts_in_data_order_whatever_the_club_order():
    lines = []
    for state in _club_in_both_orders():
        turn.begin_turn(state, Dice([6, 1, 1]))  # Sleepy and Chef both shine on a 6
        texts = [said(e["text"], state) for e in state["log"]]
        lines.append(next(t for t in reversed(texts) if t.startswith("P0 earns")))
    assert lines[0] == lines[1]
    assert lines[0].endswith(f"({CARDS['flyer']['name']}, Sleepy and Chef).")  # Sleepy comes first in hosts.yaml


def test_fave_options_and_club_panel_in_data_order_whatever_the_club_order():
    asked, panels = [], []
    for state in _club_in_both_orders():
        state = acting(state, [0, 1, 2], hearts=[10, 0, 0])
        asked.append([o.id for o in turn.action_prompt(state, 0).options if o.id.startswith("fave:")])
        panels.append(TITLE.view(state, 0)["panels"])
    assert asked[0] == asked[1] == ["fave:sleepy", "fave:chef"]
    assert panels[0] == panels[1]
