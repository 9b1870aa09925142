"""The card data: the published box shape, the errata, every value marked, clear errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from games.engine import CardDataError
from games.engine.cards import seed_dir
from games.titles.cafe_romantica.cards import build_cardset, deck_ids, load_cardset

SEEDS = seed_dir("cafe_romantica")


def test_default_set_has_the_published_shape():
    cards = load_cardset()
    assert sum(h["copies"] for h in cards["hosts"].values()) == 78
    assert sum(f["copies"] for f in cards["focus"].values()) == 12
    assert len(cards["managers"]) == 8 and len(cards["agendas"]) == 12
    assert len(cards["turn_order"]) == 4 and cards["flyer"]["copies"] == 4
    assert len(deck_ids(cards)) == len(set(deck_ids(cards))) == 90


def test_errata_energetic_costs_three_in_every_copy():
    cards = load_cardset()
    assert cards["hosts"]["energetic"]["cost"] == 3 and cards["hosts"]["energetic"]["copies"] == 6
    assert cards["hosts"]["energetic"]["source"]["cost"] == "errata"


def test_every_card_marks_its_source():
    cards = load_cardset()
    for kind in ("hosts", "focus", "managers", "agendas"):
        for card in cards[kind].values():
            assert card["source"] == "authored" or isinstance(card["source"], dict), card["id"]


def test_agenda_costs_do_not_name_an_agenda():
    costs = [a["cost"] for a in load_cardset()["agendas"].values()]
    assert all(costs.count(c) >= 2 for c in costs)


def test_every_manager_has_its_own_ability():
    effects = [str(m["effect"]) for m in load_cardset()["managers"].values()]
    assert len(set(effects)) == len(effects)


def test_cardset_is_json_with_a_content_hash():
    cards = load_cardset()
    assert len(cards["hash"]) == 64


@pytest.fixture
def data(tmp_path: Path) -> Path:
    for f in SEEDS.glob("*.yaml"):
        shutil.copy(f, tmp_path / f.name)
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_bad_value_names_file_card_and_field(data: Path):
    _edit(data / "hosts.yaml", "faces: [3]", "faces: [7]")
    with pytest.raises(CardDataError, match=r"hosts\.yaml: card 'cool', field 'faces'"):
        build_cardset(data)


def test_unknown_ability_kind_is_refused(data: Path):
    _edit(data / "focus.yaml", "kind: income", "kind: teleport")
    with pytest.raises(CardDataError, match=r"focus\.yaml: card 'seasonal_menu', field 'effect'"):
        build_cardset(data)


def test_buddy_must_name_another_host(data: Path):
    _edit(data / "hosts.yaml", "with: cool", "with: nobody")
    with pytest.raises(CardDataError, match="bookworm"):
        build_cardset(data)


def test_unmarked_value_is_refused(data: Path):
    _edit(data / "agendas.yaml", "  source: authored\n", "  source: guessed\n")
    with pytest.raises(CardDataError, match=r"agendas\.yaml: card 'flyer_campaign', field 'source'"):
        build_cardset(data)


def test_errata_is_enforced(data: Path):
    _edit(data / "hosts.yaml", "cost: 3", "cost: 2")
    with pytest.raises(CardDataError, match="errata"):
        build_cardset(data)


def test_box_counts_are_enforced(data: Path):
    _edit(data / "hosts.yaml", "copies: 6", "copies: 5")
    with pytest.raises(CardDataError, match="78"):
        build_cardset(data)
