"""Café card data: loading and validating seeds/cafe/*.yaml into plain JSON data.

A card is 3 x 2 squares, listed row-major for the landscape orientation. In the state a square is
a short code string so the rules never look anything up while scanning the grid:
"bean:red", "dry", "roast", "roast*", "cup", "ship", "blank", "shop:<card>.<letter>".
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path, PurePath
from typing import Any

from games.engine.cards import Fields, Reader, SetKind, content_hash, load_yaml, seed_dir
from games.engine.errors import CardDataError

COLOURS = ("yellow", "brown", "green", "red")
CUBES_PER_COLOUR = 35
PLAN_CARDS = 48
STAR_CARDS = 8

# YAML square word -> state code (shops are handled apart: "shop-a" -> "shop:<card>.a")
SQUARE_WORDS = {
    "dry": "dry",
    "roast": "roast",
    "roast-star": "roast*",
    "cup": "cup",
    "ship": "ship",
    "blank": "blank",
    **{f"bean-{c}": f"bean:{c}" for c in COLOURS},
}

# offsets (row, col) of square index 0..5 for each rotation (clockwise), and the footprint size
ROTATIONS = (0, 90, 180, 270)
OFFSETS: dict[int, tuple[tuple[int, int], ...]] = {
    0: tuple((i // 3, i % 3) for i in range(6)),
    90: tuple((i % 3, 1 - i // 3) for i in range(6)),
    180: tuple((1 - i // 3, 2 - i % 3) for i in range(6)),
    270: tuple((2 - i % 3, i // 3) for i in range(6)),
}
FOOTPRINT = {0: (2, 3), 90: (3, 2), 180: (2, 3), 270: (3, 2)}


def by_colour(counts: Mapping[str, int]) -> dict[str, int]:
    """The colours present in `counts`, in COLOURS order.

    A stored state's dicts do not keep their key order (PostgreSQL's jsonb sorts keys), so anything
    a player or the bot sees reads colours in this order (also the order a fresh game writes them).
    """
    return {c: counts[c] for c in COLOURS if c in counts}


def card_shops(card: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """A card's shops as (id, data) in letter order: a, b are also their order on the card and in
    the card data, whatever order the stored dict has."""
    return sorted(card["shops"].items())


def _adjacent(a: int, b: int) -> bool:
    ra, ca, rb, cb = a // 3, a % 3, b // 3, b % 3
    return abs(ra - rb) + abs(ca - cb) == 1


def _card(path: Path, raw: Any, index: int, kind: str) -> dict[str, Any]:
    f = Fields(path, raw, index)
    cid = f.get("id", str)
    if kind == "plan" and not (cid.startswith("card") and cid[4:].isdigit()):
        raise f.fail("id", "plan card ids are 'card' and a number, e.g. card17")
    if f.get("source", str) != "authored":
        raise f.fail("source", "every card of this set is the project's own: write 'source: authored'")
    words = f.get("squares", list)
    if len(words) != 6:
        raise f.fail("squares", f"a card has 6 squares (3 x 2), got {len(words)}")
    shops_raw = f.get("shops", dict, default={})
    squares: list[str] = []
    shop_cells: dict[str, list[int]] = {}
    for i, w in enumerate(words):
        if not isinstance(w, str):
            raise f.fail("squares", f"square {i + 1} is not a word: {w!r}")
        if w.startswith("shop-"):
            letter = w[5:]
            if letter not in shops_raw:
                raise f.fail("shops", f"square {i + 1} is shop {letter!r} but 'shops' does not describe it")
            shop_cells.setdefault(letter, []).append(i)
            squares.append(f"shop:{cid}.{letter}")
        elif w in SQUARE_WORDS:
            squares.append(SQUARE_WORDS[w])
        else:
            raise f.fail("squares", f"square {i + 1}: {w!r} is not one of {sorted(SQUARE_WORDS)} or shop-<letter>")
    shops: dict[str, Any] = {}
    for letter, spec in shops_raw.items():
        if letter not in shop_cells:
            raise f.fail("shops", f"shop {letter!r} is described but no square shows it")
        cells = shop_cells[letter]
        if len(cells) > 2 or (len(cells) == 2 and not _adjacent(*cells)):
            raise f.fail("squares", f"shop {letter!r} must be one square or two side-by-side squares")
        if not isinstance(spec, dict):
            raise f.fail("shops", f"shop {letter!r} must have 'need' and 'vp'")
        need = spec.get("need")
        vp = spec.get("vp")
        if not isinstance(need, dict) or not need:
            raise f.fail("shops", f"shop {letter!r}: 'need' must map colours to counts")
        for colour, n in need.items():
            if colour not in COLOURS or not isinstance(n, int) or isinstance(n, bool) or n < 1:
                raise f.fail("shops", f"shop {letter!r}: need {colour!r}: {n!r} is not a colour and a count >= 1")
        if not isinstance(vp, int) or isinstance(vp, bool) or vp < 1:
            raise f.fail("shops", f"shop {letter!r}: 'vp' must be a whole number >= 1")
        shops[f"{cid}.{letter}"] = {
            "need": {c: need[c] for c in COLOURS if c in need},
            "vp": vp,
            "size": len(cells),
        }
    card: dict[str, Any] = {
        "id": cid,
        "squares": squares,
        "cups": squares.count("cup"),
        "ships": squares.count("ship"),
        "shops": shops,
    }
    if kind == "plan":
        card["star"] = f.get("star", bool)
    else:
        card["company"] = f.get("company", str)
        if card["cups"] != 1:
            raise f.fail("squares", "an initial card shows exactly one cup (everyone starts with 1 action)")
    return card


def _entries(path: PurePath, key: str, read: Reader = load_yaml) -> list[Any]:
    data = read(path)
    if not isinstance(data, dict) or not isinstance(data.get(key), list):
        raise CardDataError(f"{path}: expected a mapping with a list '{key}'")
    return data[key]


def load_cardset(directory: Path | None = None) -> dict[str, Any]:
    """The card set as JSON data: {"hash", "plan": [ids], "initial": [ids], "cards": {id: card}, "solo": [...]}."""
    return build_cardset(directory or seed_dir("cafe"))


def build_cardset(d: PurePath, read: Reader = load_yaml) -> dict[str, Any]:
    """Read and validate every data file of a set (from disk, or parsed data through `read`)."""
    cards: dict[str, Any] = {}
    plan: list[str] = []
    initial: list[str] = []
    for kind, name, key, ids in (
        ("plan", "plan_cards.yaml", "cards", plan),
        ("initial", "initial_cards.yaml", "cards", initial),
    ):
        path = d / name
        for i, raw in enumerate(_entries(path, key, read)):
            card = _card(path, raw, i, kind)
            if card["id"] in cards:
                raise CardDataError(f"{path}: card {card['id']!r}, field 'id': used twice")
            cards[card["id"]] = card
            ids.append(card["id"])
    p = d / "plan_cards.yaml"
    if len(plan) != PLAN_CARDS:
        raise CardDataError(f"{p}: the game has {PLAN_CARDS} plan cards, found {len(plan)}")
    stars = sum(cards[c]["star"] for c in plan)
    if stars != STAR_CARDS:
        raise CardDataError(f"{p}: {STAR_CARDS} plan cards carry the player-count star, found {stars}")
    if len(initial) != 4:
        raise CardDataError(f"{d / 'initial_cards.yaml'}: the game has 4 initial cards, found {len(initial)}")
    solo = _solo_table(d / "solo.yaml", read)
    data = {"plan": plan, "initial": initial, "cards": cards, "solo": solo}
    data["hash"] = content_hash(data)
    return data


def _solo_table(path: PurePath, read: Reader = load_yaml) -> list[dict[str, Any]]:
    """Solo ranks, lowest first: [{"min": points, "title": words}]; the first starts at 0."""
    rows = _entries(path, "ranks", read)
    out = []
    for i, raw in enumerate(rows):
        f = Fields(path, raw, i)
        if f.get("source", str) != "authored":
            raise f.fail("source", "the solo table is the project's own: write 'source: authored'")
        out.append({"min": f.get("min", int), "title": f.get("title", str), "win": f.get("win", bool)})
    if not out or out[0]["min"] != 0 or any(a["min"] >= b["min"] for a, b in zip(out, out[1:], strict=False)):
        raise CardDataError(f"{path}: ranks must start at min 0 and rise")
    return out


# The card set as the upload, the card editor, the preview and the export read it (TITLE.cardset_kind).
CARDSET = SetKind(
    slug="cafe",
    files=("plan_cards.yaml", "initial_cards.yaml", "solo.yaml"),
    lists={"plan_cards.yaml": "cards", "initial_cards.yaml": "cards", "solo.yaml": "ranks"},
    build=build_cardset,
)
