"""The card set: seeds/tanto_cuore_rv/*.yaml loaded, validated and normalised into plain data.

A loaded set is JSON data; setup copies its card table into the state so a running game never
changes when a data file is edited.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path, PurePath
from typing import Any

from games.engine import CardDataError
from games.engine.cards import Fields, Reader, SetKind, content_hash, load_yaml, seed_dir

SLUG = "tanto_cuore_rv"

MAID_TYPES = ("maid_chief", "chambermaid_chief", "general_maid")
VP_RULES = ("fixed", "chambermaid_only", "florence", "hyacinth", "margareta", "clorinde")
MAID_EFFECTS = {
    "none": (),
    "free_chambermaids": (),
    "reveal_take": ("n",),
    "others_draw": ("n",),
    "others_bottom": ("min_hand",),
    "return_for_draws": ("extra",),
    "exchange": ("give", "max_cost"),
    "end_serving": (),
    "gain_to_deck_top": ("card",),
    "free_chief": ("max_cost", "draws"),
    "mill_top": ("bonus_servings",),
    "put_back": ("n",),
}
REMI_EFFECTS = {
    "none": (),
    "others_keep": ("n",),
    "gain": (),
    "end_game": (),
    "take_from_town": ("max_cost",),
}
SYMBOLS = ("draws", "love", "servings", "employments")


def _authored(f: Fields) -> list[str]:
    names = f.get("authored", list, default=[])
    for n in names:
        if not isinstance(n, str) or n not in f.card:
            raise f.fail("authored", f"{n!r} is not a field of this card")
    return names


def _effect(f: Fields, table: dict[str, tuple[str, ...]]) -> dict[str, Any]:
    eff = f.get("effect", dict)
    kind = eff.get("kind")
    if kind not in table:
        raise f.fail("effect", f"kind {kind!r} is not one of {sorted(table)}")
    for key in table[kind]:
        if key not in eff:
            raise f.fail("effect", f"{kind} needs {key!r}")
    for key, value in eff.items():
        if key == "kind" or key == "card":
            continue
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise f.fail("effect", f"{key} must be a whole number >= 0")
        if kind == "gain" and key not in SYMBOLS:
            raise f.fail("effect", f"gain takes only {', '.join(SYMBOLS)}")
    return dict(eff)


def _count(f: Fields, field: str, low: int = 0) -> int:
    value = f.get(field, int)
    if value < low:
        raise f.fail(field, f"must be at least {low}")
    return value


def _maid(f: Fields) -> dict[str, Any]:
    sym = f.get("symbols", dict)
    for s in SYMBOLS:
        if not isinstance(sym.get(s), int) or sym[s] < 0:
            raise f.fail("symbols", f"{s} must be a whole number >= 0")
    cm = f.get("chambermaid", (dict, type(None)))
    chamber = None
    start_draws = 0
    if cm is not None:
        chamber = cm.get("serving_cost")
        if chamber not in (1, 2):
            raise f.fail("chambermaid", "serving_cost must be 1 or 2")
        start_draws = cm.get("start_draws", 0)
    return {
        "id": f.get("id", str),
        "name": f.get("name", str),
        "title": f.get("title", str),
        "type": f.get("type", str, choices=MAID_TYPES),
        "cost": _count(f, "cost"),
        "vp": f.get("vp", int),
        "vp_rule": f.get("vp_rule", str, choices=VP_RULES),
        "vp_params": f.get("vp_params", dict, default={}),
        "symbols": [sym[s] for s in SYMBOLS],
        "chamber": chamber,
        "start_draws": start_draws,
        "effect": _effect(f, MAID_EFFECTS),
        "text": f.get("text", str),
        "copies": _count(f, "copies", 1),
        "authored": _authored(f),
    }


def _love(f: Fields) -> dict[str, Any]:
    return {
        "id": f.get("id", str),
        "name": f.get("name", str),
        "type": "love",
        "cost": _count(f, "cost"),
        "love": _count(f, "love", 1),
        "vp": 0,
        "text": f"+{f.card.get('love')} love; no serving needed.",
        "copies": _count(f, "copies", 1),
        "authored": _authored(f),
    }


def _remi(f: Fields) -> dict[str, Any]:
    req = f.get("requires", list)
    if not req or not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in req):
        raise f.fail("requires", "must be a list of employ costs (whole numbers)")
    return {
        "id": f.get("id", str),
        "name": f.get("name", str),
        "type": "reminiscence",
        "cost": None,
        "category": f.get("category", int, choices=(1, 2)),
        "vp": f.get("vp", int),
        "requires": sorted(req, reverse=True),
        "effect": _effect(f, REMI_EFFECTS),
        "text": f.get("text", str),
        "copies": _count(f, "copies", 1),
        "authored": _authored(f),
    }


def _entries(path: Path, data: Any) -> list[Any]:
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise CardDataError(f"{path}: expected a mapping with a 'cards' list")
    return data["cards"]


def build_cardset(folder: PurePath, read: Reader = load_yaml) -> dict[str, Any]:
    """Read and validate the three data files of `folder` into one card set."""
    cards: dict[str, dict[str, Any]] = {}
    groups: dict[str, list[str]] = {"chiefs": [], "general": [], "love": [], "reminiscences": []}

    def add(path: PurePath, card: dict[str, Any]) -> None:
        if card["id"] in cards:
            raise CardDataError(f"{path}: card {card['id']!r}, field 'id': used twice")
        cards[card["id"]] = card

    path = folder / "maids.yaml"
    data = read(path)
    for i, raw in enumerate(_entries(path, data)):
        card = _maid(Fields(path, raw, i))
        add(path, card)
        groups["general" if card["type"] == "general_maid" else "chiefs"].append(card["id"])
    recommended = data.get("recommended_first_game")
    if not isinstance(recommended, list) or len(recommended) != 10 or len(set(recommended)) != 10:
        raise CardDataError(f"{path}: recommended_first_game must list 10 different general maids")
    for r in recommended:
        if r not in groups["general"]:
            raise CardDataError(f"{path}: recommended_first_game: {r!r} is not a general maid")

    path = folder / "love.yaml"
    data = read(path)
    for i, raw in enumerate(_entries(path, data)):
        card = _love(Fields(path, raw, i))
        add(path, card)
        groups["love"].append(card["id"])
    start = data.get("starting_deck")
    if not isinstance(start, dict) or not start:
        raise CardDataError(f"{path}: starting_deck must map card ids to counts")
    for cid, n in start.items():
        if cid not in cards or not isinstance(n, int) or n < 1:
            raise CardDataError(f"{path}: starting_deck: {cid!r}: unknown card or bad count {n!r}")

    path = folder / "reminiscences.yaml"
    for i, raw in enumerate(_entries(path, read(path))):
        card = _remi(Fields(path, raw, i))
        add(path, card)
        groups["reminiscences"].append(card["id"])

    for cid in groups["general"] + groups["chiefs"]:
        eff = cards[cid]["effect"]
        if eff.get("card") is not None and eff["card"] not in groups["love"]:
            raise CardDataError(f"{folder / 'maids.yaml'}: card {cid!r}, field 'effect': unknown card {eff['card']!r}")
    if "beatrice_escudo" not in cards or "sophia_marfil" not in cards:
        raise CardDataError(f"{folder / 'maids.yaml'}: both maid chiefs (sophia_marfil, beatrice_escudo) are needed")
    if len(groups["general"]) < 10:
        raise CardDataError(f"{folder / 'maids.yaml'}: at least 10 general maids are needed")
    cardset = {"slug": SLUG, "cards": cards, **groups, "recommended": recommended, "starting_deck": start}
    cardset["hash"] = content_hash(cardset)
    return cardset


@cache
def _default() -> dict[str, Any]:
    return build_cardset(seed_dir(SLUG))


def load_cardset() -> dict[str, Any]:
    """The default card set (cached; treat it as read-only)."""
    return _default()


# The card set as the upload, the card editor, the preview and the export read it (TITLE.cardset_kind).
CARDSET = SetKind(
    slug=SLUG,
    files=("maids.yaml", "love.yaml", "reminiscences.yaml"),
    lists={"maids.yaml": "cards", "love.yaml": "cards", "reminiscences.yaml": "cards"},
    build=build_cardset,
)
