"""The Café Baras card set: what ships, and how a malformed replacement set is refused."""

from __future__ import annotations

import copy
import random
import shutil
from pathlib import Path

import pytest
import yaml

from games.engine import CardDataError, OptionsError
from games.engine.cards import seed_dir
from games.titles.cafe_baras import TITLE, load_cardset
from games.titles.cafe_baras.cards import compiled, content_hash

SEEDS = seed_dir("cafe_baras")


def test_the_shipped_set_has_the_published_shape():
    cs = load_cardset()
    assert len(cs["cards"]) == 83
    assert len(cs["guests"]) == 12
    assert len(cs["counters"]) == 4
    kinds = {k: sum(1 for c in cs["cards"] if c["kind"] == k) for k in ("food", "decor", "equipment")}
    assert all(kinds.values()) and sum(kinds.values()) == 83
    assert all(sorted(c["provides"]) == ["Coffee", "Tea"] for c in cs["counters"])
    assert {"Coffee", "Tea", "Drink", "Snack"} <= set(cs["food_types"])
    assert "Rustic" in cs["decor_types"]
    assert cs["regular_points"] == 4


def test_big_eater_is_two_snacks():
    guests = {g["id"]: g for g in load_cardset()["guests"]}
    assert guests["big-eater"]["name"] == "Big Eater"
    assert guests["big-eater"]["needs"] == [{"food": "Snack", "at_least": 2}]


def test_every_authored_value_is_marked_as_the_projects_own():
    cs = load_cardset()
    assert {c["origin"] for c in cs["cards"]} == {"project"}
    assert {g["origin"] for g in cs["guests"] if g["id"] != "big-eater"} == {"project"}
    assert all("project" in c["origin"] for c in cs["counters"])


def test_customers_include_ones_without_preferred_decor_and_multi_coffee_wants():
    cards = load_cardset()["cards"]
    assert any(c["customer"]["decor"] is None for c in cards)
    assert any(w["food"] == "Coffee" and w["count"] > 1 for c in cards for w in c["customer"]["wants"])


def test_names_are_unique_and_none_hides_inside_another():
    """The view tests look for hidden cards by name, so no name may be part of another."""
    cs = load_cardset()
    names = [c["name"] for c in cs["cards"]] + [g["name"] for g in cs["guests"]] + [c["name"] for c in cs["counters"]]
    assert len(set(names)) == len(names)
    for a in names:
        for b in names:
            assert a == b or a not in b, (a, b)
    for t in cs["food_types"] + cs["decor_types"]:
        assert t not in names


def test_hash_names_the_content():
    cs = load_cardset()
    assert cs["hash"] == content_hash({k: v for k, v in cs.items() if k != "hash"})
    assert load_cardset(SEEDS)["hash"] == cs["hash"]


def _copy_set(tmp_path: Path) -> Path:
    target = tmp_path / "set"
    shutil.copytree(SEEDS, target)
    return target


def _edit(folder: Path, file: str, change) -> None:
    path = folder / file
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def _card(data, cid):
    return next(c for c in data["cards"] if c["id"] == cid)


def _guest(data, gid):
    return next(g for g in data["guests"] if g["id"] == gid)


def test_a_replacement_set_loads_from_a_directory_and_a_game_keeps_its_own(tmp_path):
    folder = _copy_set(tmp_path)
    _edit(folder, "cafe_cards.yaml", lambda d: _card(d, "latte").update(cost=4))
    other = load_cardset(folder)
    assert other["hash"] != load_cardset()["hash"]
    state = TITLE.setup(["a", "b"], {"cardset": other}, random.Random(1))
    assert state["cardset"]["hash"] == other["hash"]
    assert compiled(state["cardset"]).cards["latte"].cost == 4
    _edit(folder, "cafe_cards.yaml", lambda d: _card(d, "latte").update(cost=1))
    edited = load_cardset(folder)  # the edit is seen by new games...
    assert compiled(edited).cards["latte"].cost == 1
    assert compiled(state["cardset"]).cards["latte"].cost == 4  # ...never by the running one


def test_setup_refuses_a_set_changed_after_loading():
    tampered = copy.deepcopy(load_cardset())
    tampered["cards"][0]["cost"] = 0
    with pytest.raises(OptionsError, match="changed after loading"):
        TITLE.setup(["a", "b"], {"cardset": tampered}, random.Random(1))


MALFORMED = [
    ("cafe_cards.yaml", lambda d: _card(d, "latte").update(cost="two"), "latte", "cost"),
    ("cafe_cards.yaml", lambda d: _card(d, "latte").update(cost=-1), "latte", "cost"),
    ("cafe_cards.yaml", lambda d: _card(d, "latte").update(kind="drink"), "latte", "kind"),
    ("cafe_cards.yaml", lambda d: _card(d, "espresso").update(food="Juice"), "espresso", "food"),
    ("cafe_cards.yaml", lambda d: _card(d, "wooden-bench").update(food="Coffee"), "wooden-bench", "food"),
    (
        "cafe_cards.yaml",
        lambda d: _card(d, "bagel")["customer"]["wants"][1].update(food="Pizza"),
        "bagel",
        "customer.wants[2].food",
    ),
    ("cafe_cards.yaml", lambda d: _card(d, "bagel")["customer"].update(wants=[]), "bagel", "customer.wants"),
    ("cafe_cards.yaml", lambda d: _card(d, "bagel")["customer"].update(decor="Gothic"), "bagel", "customer.decor"),
    ("cafe_cards.yaml", lambda d: _card(d, "mocha").pop("customer"), "mocha", "customer"),
    ("cafe_cards.yaml", lambda d: _card(d, "mocha").update(cots=3), "mocha", "cots"),
    ("cafe_cards.yaml", lambda d: _card(d, "lemonade").update(action=[{"teleport": 1}]), "lemonade", "action[1]"),
    (
        "cafe_cards.yaml",
        lambda d: _card(d, "tip-jar").update(ongoing=[{"serve_bonus": 0}]),
        "tip-jar",
        "ongoing[1].serve_bonus",
    ),
    (
        "cafe_cards.yaml",
        lambda d: _card(d, "flat-white").update(score={"per": {"food": "Tofu"}}),
        "flat-white",
        "score.per.food",
    ),
    (
        "cafe_cards.yaml",
        lambda d: _card(d, "cheesecake").update(score={"if": {"count": "distinct_food"}}),
        "cheesecake",
        "score.at_least",
    ),
    ("cafe_cards.yaml", lambda d: _card(d, "oolong").update(origin="invented"), "oolong", "origin"),
    ("cafe_cards.yaml", lambda d: _card(d, "oolong").update(id="latte"), "latte", "id"),
    ("cafe_cards.yaml", lambda d: _card(d, "oolong").update(name="Latte"), "oolong", "name"),
    ("guests.yaml", lambda d: _guest(d, "big-eater")["needs"][0].update(food="Cake"), "big-eater", "needs[1].food"),
    ("guests.yaml", lambda d: _guest(d, "tinkerer").update(points="many"), "tinkerer", "points"),
    ("guests.yaml", lambda d: _guest(d, "socialite")["needs"][0].pop("at_least"), "socialite", "needs[1].at_least"),
    ("counters.yaml", lambda d: d["counters"][0].update(provides=["Coffee", "Milk"]), "oak-counter", "provides[2]"),
]


@pytest.mark.parametrize(("file", "change", "card", "field"), MALFORMED, ids=[f"{m[0]}:{m[3]}" for m in MALFORMED])
def test_a_malformed_set_is_refused_naming_file_card_and_field(tmp_path, file, change, card, field):
    folder = _copy_set(tmp_path)
    _edit(folder, file, change)
    with pytest.raises(CardDataError) as err:
        load_cardset(folder)
    message = str(err.value)
    assert str(folder / file) in message
    assert f"card {card!r}" in message
    assert f"field {field!r}" in message


def test_broken_yaml_and_missing_files_name_the_file(tmp_path):
    folder = _copy_set(tmp_path)
    (folder / "guests.yaml").write_text("guests: [unclosed\n", encoding="utf-8")
    with pytest.raises(CardDataError, match="guests.yaml: not valid YAML"):
        load_cardset(folder)
    folder = _copy_set(tmp_path / "again")
    (folder / "counters.yaml").unlink()
    with pytest.raises(CardDataError, match="counters.yaml: file not found"):
        load_cardset(folder)
    with pytest.raises(CardDataError, match="not a directory"):
        load_cardset(tmp_path / "nowhere")


def test_set_level_fields_are_checked(tmp_path):
    folder = _copy_set(tmp_path)
    _edit(folder, "set.yaml", lambda d: d.update(regular_points="four"))
    with pytest.raises(CardDataError, match=r"set.yaml: field 'regular_points'"):
        load_cardset(folder)
    folder = _copy_set(tmp_path / "b")
    _edit(folder, "cafe_cards.yaml", lambda d: d.update(cards=d["cards"][:10]))
    with pytest.raises(CardDataError, match="10 café cards; a game needs at least 20"):
        load_cardset(folder)
