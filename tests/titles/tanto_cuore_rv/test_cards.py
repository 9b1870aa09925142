"""The card data: published totals, the facts that are known, authored values marked, validation."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from games.engine import CardDataError
from games.engine.cards import seed_dir
from games.titles.tanto_cuore_rv import load_cardset
from games.titles.tanto_cuore_rv.cards import build_cardset


def test_published_totals():
    cs = load_cardset()
    cards = cs["cards"]
    assert len(cs["general"]) == 18
    assert sum(cards[c]["copies"] for c in cs["general"]) == 174
    assert sum(cards[c]["copies"] for c in cs["chiefs"]) == 32
    assert sum(cards[c]["copies"] for c in cs["love"]) == 56
    assert sum(cards[c]["copies"] for c in cs["reminiscences"]) == 16
    assert len(cs["reminiscences"]) == 10
    # each of 4 players starts with 7 "1 Love" and 3 Beatrice
    assert cards["love_1"]["copies"] >= 28 and cards["beatrice_escudo"]["copies"] >= 12


def test_known_facts_from_the_printed_cards():
    cards = load_cardset()["cards"]
    assert cards["clorinde_sea"]["symbols"] == [1, 0, 2, 0]  # 1 calling, 2 servings (rulebook example)
    assert cards["sophia_marfil"]["cost"] == 8 and cards["sophia_marfil"]["vp"] == 5
    assert cards["beatrice_escudo"]["chamber"] == 2
    assert cards["nonnette_soyeux"]["symbols"] == [2, 0, 0, 1]
    assert cards["evita_catala"]["symbols"] == [0, 1, 1, 0]
    assert cards["scary_night"]["requires"] == [3, 2] and cards["scary_night"]["vp"] == 3
    assert cards["scary_night"]["copies"] == 3
    assert cards["camp_fire"]["effect"]["kind"] == "end_game"
    assert {c for c in load_cardset()["general"] if cards[c]["chamber"]} == {
        "florence_spring",
        "valencia_pretre",
        "hyacinth_arrow",
    }


def test_authored_values_are_marked():
    cs = load_cardset()
    for cid, card in cs["cards"].items():
        assert "copies" in card["authored"] or cid == "scary_night", cid
    for rid in cs["reminiscences"]:
        if rid not in ("scary_night", "camp_fire"):
            assert {"name", "category", "vp", "requires", "effect", "copies"} <= set(cs["cards"][rid]["authored"])
    assert "category" in cs["cards"]["scary_night"]["authored"]


def test_category_one_is_cheaper_and_weaker():
    cs = load_cardset()
    cards = cs["cards"]
    cat1 = [cards[r] for r in cs["reminiscences"] if cards[r]["category"] == 1]
    cat2 = [cards[r] for r in cs["reminiscences"] if cards[r]["category"] == 2]
    assert max(r["vp"] for r in cat1) < min(r["vp"] for r in cat2)
    assert max(sum(r["requires"]) for r in cat1) < min(sum(r["requires"]) for r in cat2)
    assert cards["camp_fire"]["category"] == 2


def test_recommended_first_game_set():
    cs = load_cardset()
    assert len(cs["recommended"]) == 10
    assert "clorinde_sea" in cs["recommended"] and "laura" not in cs["recommended"]


def _broken(tmp_path: Path, file: str, old: str, new: str) -> Path:
    folder = tmp_path / "seeds"
    shutil.copytree(seed_dir("tanto_cuore_rv"), folder)
    text = (folder / file).read_text()
    assert old in text
    (folder / file).write_text(text.replace(old, new, 1))
    return folder


@pytest.mark.parametrize(
    ("file", "old", "new", "words"),
    [
        ("maids.yaml", "cost: 7\n", "cost: seven\n", ["maids.yaml", "fryda_viento", "'cost'"]),
        ("maids.yaml", "vp_rule: clorinde", "vp_rule: sometimes", ["clorinde_sea", "'vp_rule'"]),
        ("maids.yaml", "effect: {kind: reveal_take, n: 5}", "effect: {kind: reveal_take}", ["lydia_leon", "'effect'"]),
        ("reminiscences.yaml", "requires: [3, 2]", "requires: [three]", ["scary_night", "'requires'"]),
        ("reminiscences.yaml", "category: 1", "category: 4", ["scary_night", "'category'"]),
        ("love.yaml", "authored: [copies]", "authored: [colour]", ["love_1", "'authored'"]),
    ],
)
def test_validation_names_file_card_and_field(tmp_path, file, old, new, words):
    folder = _broken(tmp_path, file, old, new)
    with pytest.raises(CardDataError) as err:
        build_cardset(folder)
    for w in words:
        assert w in str(err.value)


def test_invalid_yaml_names_the_file(tmp_path):
    folder = _broken(tmp_path, "love.yaml", "cards:", "cards: [")
    with pytest.raises(CardDataError, match="love.yaml"):
        build_cardset(folder)
