"""The card set: complete, authored, balanced across colours, and validated with clear errors."""

from __future__ import annotations

import shutil
from collections import Counter

import pytest
import yaml

from games.engine import CardDataError
from games.engine.cards import seed_dir
from games.titles.cafe import load_cardset
from games.titles.cafe.cards import COLOURS

from .helpers import CARDSET


def test_the_set_has_48_plan_cards_8_with_a_star_and_4_initial_cards():
    assert len(CARDSET["plan"]) == 48 and len(set(CARDSET["plan"])) == 48
    assert sum(CARDSET["cards"][c]["star"] for c in CARDSET["plan"]) == 8
    assert len(CARDSET["initial"]) == 4


def test_every_card_and_solo_rank_is_marked_authored():
    for name in ("plan_cards.yaml", "initial_cards.yaml"):
        data = yaml.safe_load((seed_dir("cafe") / name).read_text())
        assert all(card["source"] == "authored" for card in data["cards"])
    ranks = yaml.safe_load((seed_dir("cafe") / "solo.yaml").read_text())["ranks"]
    assert all(r["source"] == "authored" for r in ranks)


def test_plan_cards_have_six_squares_and_shops_of_one_or_two_squares():
    kinds = Counter()
    for cid in CARDSET["plan"]:
        card = CARDSET["cards"][cid]
        assert len(card["squares"]) == 6
        for sid, shop in card["shops"].items():
            assert shop["size"] in (1, 2) and card["squares"].count(f"shop:{sid}") == shop["size"]
        kinds.update(code.split(":")[0] for code in card["squares"])
    assert {"bean", "dry", "roast", "roast*", "shop", "cup", "ship", "blank"} <= set(kinds)


def test_initial_cards_show_every_action_square_and_one_cup():
    for cid in CARDSET["initial"]:
        squares = CARDSET["cards"][cid]["squares"]
        assert squares.count("cup") == 1
        assert any(s.startswith("bean:") for s in squares) and "dry" in squares
        assert any(s.startswith("roast") for s in squares) and any(s.startswith("shop:") for s in squares)


def test_the_colours_are_balanced():
    beans = Counter()
    needs = Counter()
    for cid in CARDSET["plan"]:
        card = CARDSET["cards"][cid]
        beans.update(s[5:] for s in card["squares"] if s.startswith("bean:"))
        for shop in card["shops"].values():
            needs.update(shop["need"])
    assert len(set(beans[c] for c in COLOURS)) == 1
    assert len(set(needs[c] for c in COLOURS)) == 1


@pytest.fixture
def copy_of_set(tmp_path):
    for f in seed_dir("cafe").glob("*.yaml"):
        shutil.copy(f, tmp_path / f.name)
    return tmp_path


def _edit(path, fn):
    data = yaml.safe_load(path.read_text())
    fn(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True))


def test_a_bad_square_names_the_file_the_card_and_the_field(copy_of_set):
    _edit(copy_of_set / "plan_cards.yaml", lambda d: d["cards"][4]["squares"].__setitem__(2, "teapot"))
    with pytest.raises(CardDataError, match=r"plan_cards.yaml: card 'card5', field 'squares'.*teapot"):
        load_cardset(copy_of_set)


def test_a_card_with_five_squares_is_refused(copy_of_set):
    _edit(copy_of_set / "plan_cards.yaml", lambda d: d["cards"][0]["squares"].pop())
    with pytest.raises(CardDataError, match=r"card 'card1', field 'squares': a card has 6 squares"):
        load_cardset(copy_of_set)


def test_a_shop_without_need_and_points_is_refused(copy_of_set):
    _edit(copy_of_set / "plan_cards.yaml", lambda d: d["cards"][16]["shops"]["a"].pop("vp"))
    with pytest.raises(CardDataError, match=r"card 'card17', field 'shops'.*vp"):
        load_cardset(copy_of_set)


def test_a_card_not_marked_authored_is_refused(copy_of_set):
    _edit(copy_of_set / "initial_cards.yaml", lambda d: d["cards"][0].__setitem__("source", "publisher"))
    with pytest.raises(CardDataError, match=r"initial_cards.yaml: card 'start1', field 'source'"):
        load_cardset(copy_of_set)


def test_the_star_count_is_checked(copy_of_set):
    _edit(copy_of_set / "plan_cards.yaml", lambda d: d["cards"][0].__setitem__("star", True))
    with pytest.raises(CardDataError, match="8 plan cards carry the player-count star, found 9"):
        load_cardset(copy_of_set)


def test_the_set_hash_is_stable_and_a_game_keeps_its_own_set():
    assert load_cardset()["hash"] == CARDSET["hash"]
    import random

    from games.titles.cafe import TITLE

    custom = dict(CARDSET)
    state = TITLE.setup(["A"], {"cardset": custom}, random.Random(1))
    assert state["cardset_hash"] == CARDSET["hash"] and state["cards"] is CARDSET["cards"]
