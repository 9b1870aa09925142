"""Café Baras card data: load the YAML files in seeds/cafe_baras/, validate them, compile an index.

The set is plain JSON data (it travels inside the game state, so a running game never changes when a
data file is edited). Card effects are data in a small vocabulary (see seeds/cafe_baras/README.md);
the rules read them through the helpers here, never through one function per card.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path, PurePath
from typing import Any

from games.engine.cards import Fields, Reader, SetKind, content_hash, load_yaml, seed_dir
from games.engine.errors import CardDataError
from games.engine.messages import Msg, card_ref, english, list_ref, msg, nmsg

SLUG = "cafe_baras"
FILES = {"set": "set.yaml", "cards": "cafe_cards.yaml", "guests": "guests.yaml", "counters": "counters.yaml"}
KINDS = ("food", "decor", "equipment")
COUNTS = ("regulars", "guests", "cards", "coins", "distinct_food", "distinct_decor")
ORIGINS = ("project", "rulebook", "rulebook+project")

# Minimums a replacement set needs so a 4-player game can be set up at all.
MIN_CAFE_CARDS = 4 + 4 * 4
MIN_GUESTS = 4 + 1
MIN_COUNTERS = 4


# ---------------------------------------------------------------- validation


class _Check:
    """Validation of one card's nested fields; every error names file, card and field path."""

    def __init__(self, path: PurePath, card: Any, index: int, foods: tuple[str, ...], decor: tuple[str, ...]):
        self.f = Fields(path, card, index)
        self.foods, self.decor = foods, decor

    def fail(self, field: str, why: str) -> CardDataError:
        return self.f.fail(field, why)

    def int_(self, value: Any, field: str, low: int = 0, high: int = 99) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(field, f"expected a whole number, got {value!r}")
        if not low <= value <= high:
            raise self.fail(field, f"{value} is outside {low}..{high}")
        return value

    def mapping(self, value: Any, field: str, allowed: set[str]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(field, f"expected a mapping, got {value!r}")
        extra = set(value) - allowed
        if extra:
            raise self.fail(field, f"unknown key(s) {sorted(extra)}; allowed: {sorted(allowed)}")
        return value

    def food(self, value: Any, field: str) -> str:
        if value not in self.foods:
            raise self.fail(field, f"{value!r} is not a food type of this set ({', '.join(self.foods)})")
        return value

    def decor_(self, value: Any, field: str) -> str:
        if value not in self.decor:
            raise self.fail(field, f"{value!r} is not a decor type of this set ({', '.join(self.decor)})")
        return value

    def selector(self, value: Any, field: str, card_only: bool = False) -> dict[str, str]:
        """{food: T} | {decor: T} | {kind: K} | {count: C} (card_only: no count)."""
        keys = {"food", "decor", "kind"} | (set() if card_only else {"count"})
        if not isinstance(value, dict) or len(value) != 1 or next(iter(value)) not in keys:
            raise self.fail(field, f"expected exactly one of {sorted(keys)}, got {value!r}")
        ((key, v),) = value.items()
        if key == "food":
            self.food(v, f"{field}.food")
        elif key == "decor":
            self.decor_(v, f"{field}.decor")
        elif key == "kind":
            if v not in KINDS:
                raise self.fail(f"{field}.kind", f"{v!r} is not one of {list(KINDS)}")
        elif v not in COUNTS:
            raise self.fail(f"{field}.count", f"{v!r} is not one of {list(COUNTS)}")
        return {key: v}

    def score(self, value: Any, field: str = "score") -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(field, f"expected a mapping, got {value!r}")
        if "fixed" in value:
            self.mapping(value, field, {"fixed"})
            return {"fixed": self.int_(value["fixed"], f"{field}.fixed", 0, 20)}
        if "per" in value:
            self.mapping(value, field, {"per", "points", "max"})
            out = {"per": self.selector(value["per"], f"{field}.per"), "points": 1, "max": None}
            out["points"] = self.int_(value.get("points", 1), f"{field}.points", 1, 10)
            if value.get("max") is not None:
                out["max"] = self.int_(value["max"], f"{field}.max", 1, 30)
            return out
        if "if" in value:
            self.mapping(value, field, {"if", "at_least", "points"})
            for key in ("at_least", "points"):
                if key not in value:
                    raise self.fail(f"{field}.{key}", "missing")
            return {
                "if": self.selector(value["if"], f"{field}.if"),
                "at_least": self.int_(value["at_least"], f"{field}.at_least", 1, 30),
                "points": self.int_(value["points"], f"{field}.points", 1, 20),
            }
        raise self.fail(field, f"expected one of fixed / per / if, got {value!r}")

    def action(self, value: Any, field: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(field, f"expected a mapping, got {value!r}")
        for verb in ("gain", "draw", "take", "recycle"):
            if verb in value:
                self.mapping(value, field, {verb})
                return {verb: self.int_(value[verb], f"{field}.{verb}", 1, 5)}
        if "gain_per" in value:
            self.mapping(value, field, {"gain_per", "coins", "max"})
            out = {"gain_per": self.selector(value["gain_per"], f"{field}.gain_per"), "coins": 1, "max": None}
            out["coins"] = self.int_(value.get("coins", 1), f"{field}.coins", 1, 5)
            if value.get("max") is not None:
                out["max"] = self.int_(value["max"], f"{field}.max", 1, 20)
            return out
        raise self.fail(field, f"unknown action {value!r}; known: gain, gain_per, draw, take, recycle")

    def ongoing(self, value: Any, field: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(field, f"expected a mapping, got {value!r}")
        if "discount" in value:
            self.mapping(value, field, {"discount", "applies_to"})
            if "applies_to" not in value:
                raise self.fail(f"{field}.applies_to", "missing")
            return {
                "discount": self.int_(value["discount"], f"{field}.discount", 1, 5),
                "applies_to": self.selector(value["applies_to"], f"{field}.applies_to", card_only=True),
            }
        if "serve_bonus" in value:
            self.mapping(value, field, {"serve_bonus", "food"})
            food = value.get("food")
            return {
                "serve_bonus": self.int_(value["serve_bonus"], f"{field}.serve_bonus", 1, 5),
                "food": None if food is None else self.food(food, f"{field}.food"),
            }
        if "hand_size" in value:
            self.mapping(value, field, {"hand_size"})
            return {"hand_size": self.int_(value["hand_size"], f"{field}.hand_size", 1, 2)}
        raise self.fail(field, f"unknown ongoing effect {value!r}; known: discount, serve_bonus, hand_size")

    def listing(self, value: Any, field: str) -> list[Any]:
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.fail(field, f"expected a list, got {value!r}")
        return value

    def customer(self, value: Any) -> dict[str, Any]:
        c = self.mapping(value, "customer", {"wants", "decor"})
        wants = c.get("wants")
        if not isinstance(wants, list) or not wants:
            raise self.fail("customer.wants", "expected a non-empty list of wanted foods")
        out = []
        for i, w in enumerate(wants):
            field = f"customer.wants[{i + 1}]"
            self.mapping(w, field, {"food", "count", "heart"})
            if "food" not in w:
                raise self.fail(f"{field}.food", "missing")
            heart = w.get("heart", False)
            if not isinstance(heart, bool):
                raise self.fail(f"{field}.heart", f"expected true or false, got {heart!r}")
            out.append(
                {
                    "food": self.food(w["food"], f"{field}.food"),
                    "count": self.int_(w.get("count", 1), f"{field}.count", 1, 4),
                    "heart": heart,
                }
            )
        decor = c.get("decor")
        return {"wants": out, "decor": None if decor is None else self.decor_(decor, "customer.decor")}

    def origin(self) -> str:
        return self.f.get("origin", str, choices=ORIGINS)


CARD_KEYS = {"id", "name", "kind", "food", "decor", "cost", "score", "action", "ongoing", "customer", "origin", "note"}
GUEST_KEYS = {"id", "name", "needs", "points", "origin", "note"}
COUNTER_KEYS = {"id", "name", "provides", "origin", "note"}


def _known_keys(c: _Check, raw: dict[str, Any], allowed: set[str]) -> None:
    """A misspelt optional field must not be silently ignored."""
    for key in raw:
        if key not in allowed:
            raise c.fail(str(key), f"unknown field; known fields: {', '.join(sorted(allowed))}")


def _entries(path: PurePath, data: Any, key: str) -> list[Any]:
    if not isinstance(data, dict) or not isinstance(data.get(key), list):
        raise CardDataError(f"{path}: expected a mapping with a list under {key!r}")
    return data[key]


def _type_list(path: PurePath, data: dict[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        raise CardDataError(f"{path}: field {key!r}: expected a non-empty list of names")
    if len(set(value)) != len(value):
        raise CardDataError(f"{path}: field {key!r}: a name is listed twice")
    return tuple(value)


def _unique(path: PurePath, seen: set[str], card_id: str, name: str, names: set[str]) -> None:
    if card_id in seen:
        raise CardDataError(f"{path}: card {card_id!r}, field 'id': used by another card")
    if name in names:
        raise CardDataError(f"{path}: card {card_id!r}, field 'name': {name!r} is used by another card")
    seen.add(card_id)
    names.add(name)


_LOADED: dict[tuple[Any, ...], dict[str, Any]] = {}
_RECENT: dict[str, tuple[float, dict[str, Any]]] = {}  # folder -> (when its files were last checked, set)
RECHECK_SECONDS = 1.0


def load_cardset(path: str | Path | None = None) -> dict[str, Any]:
    """The validated card set from a directory (default seeds/cafe_baras/), as plain JSON data.

    The result carries "hash", the content hash of everything else, which a game records in its
    first event. A malformed set raises CardDataError naming the file, the card and the field.
    Parsed sets are cached by the files' size and modification time; treat the result as read-only.
    """
    root = Path(path) if path is not None else seed_dir(SLUG)
    if not root.is_dir():
        raise CardDataError(f"{root}: not a directory of Café Baras card data")
    now = time.monotonic()
    recent = _RECENT.get(str(root)) if path is None else None  # the default set is re-checked once a second
    if recent and now - recent[0] < RECHECK_SECONDS:
        return recent[1]
    stamp: list[Any] = [str(root.resolve())]
    for name in FILES.values():
        try:
            st = (root / name).stat()
            stamp += [st.st_mtime_ns, st.st_size]
        except OSError:
            stamp.append(None)
    key = tuple(stamp)
    if key not in _LOADED:
        _LOADED[key] = build_cardset(root)
    _RECENT[str(root)] = (now, _LOADED[key])
    return _LOADED[key]


def build_cardset(root: PurePath, read: Reader = load_yaml) -> dict[str, Any]:
    """Read and validate every data file of a set (from disk, or parsed data through `read`)."""
    set_path = root / FILES["set"]
    meta = read(set_path)
    if not isinstance(meta, dict):
        raise CardDataError(f"{set_path}: expected a mapping")
    foods = _type_list(set_path, meta, "food_types")
    decor = _type_list(set_path, meta, "decor_types")
    rules = {}
    for key, low, high in (("regular_points", 0, 20), ("heart_bonus", 0, 5)):
        value = meta.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise CardDataError(f"{set_path}: field {key!r}: expected a whole number {low}..{high}, got {value!r}")
        rules[key] = value
    provenance = meta.get("provenance", {})
    if not isinstance(provenance, dict) or not all(isinstance(v, str) for v in provenance.values()):
        raise CardDataError(f"{set_path}: field 'provenance': expected a mapping of field to words")
    unknown = set(meta) - {"name", "food_types", "decor_types", "regular_points", "heart_bonus", "provenance"}
    if unknown:
        raise CardDataError(f"{set_path}: unknown field(s) {sorted(unknown)}")
    name = meta.get("name")
    if not isinstance(name, str) or not name:
        raise CardDataError(f"{set_path}: field 'name': expected the set's name")

    seen: set[str] = set()
    names: set[str] = set()

    cards_path = root / FILES["cards"]
    cards = []
    for i, raw in enumerate(_entries(cards_path, read(cards_path), "cards")):
        c = _Check(cards_path, raw, i, foods, decor)
        f = c.f
        card_id, card_name = f.get("id", str), f.get("name", str)
        _known_keys(c, raw, CARD_KEYS)
        _unique(cards_path, seen, card_id, card_name, names)
        kind = f.get("kind", str, choices=KINDS)
        card: dict[str, Any] = {"id": card_id, "name": card_name, "kind": kind, "food": None, "decor": None}
        if kind == "food":
            card["food"] = c.food(f.get("food", str), "food")
        elif "food" in raw:
            raise c.fail("food", f"only food cards provide a food (this card is {kind})")
        if kind == "decor":
            card["decor"] = c.decor_(f.get("decor", str), "decor")
        elif "decor" in raw:
            raise c.fail("decor", f"only decor cards have a decor type (this card is {kind})")
        card["cost"] = c.int_(f.get("cost", int), "cost", 0, 20)
        card["score"] = c.score(f.get("score", dict))
        card["action"] = [c.action(a, f"action[{j + 1}]") for j, a in enumerate(c.listing(raw.get("action"), "action"))]
        card["ongoing"] = [
            c.ongoing(a, f"ongoing[{j + 1}]") for j, a in enumerate(c.listing(raw.get("ongoing"), "ongoing"))
        ]
        card["customer"] = c.customer(f.get("customer", dict))
        card["origin"] = c.origin()
        cards.append(card)
    if len(cards) < MIN_CAFE_CARDS:
        raise CardDataError(f"{cards_path}: {len(cards)} café cards; a game needs at least {MIN_CAFE_CARDS}")

    guests_path = root / FILES["guests"]
    guests = []
    for i, raw in enumerate(_entries(guests_path, read(guests_path), "guests")):
        c = _Check(guests_path, raw, i, foods, decor)
        f = c.f
        gid, gname = f.get("id", str), f.get("name", str)
        _known_keys(c, raw, GUEST_KEYS)
        _unique(guests_path, seen, gid, gname, names)
        needs = c.listing(f.get("needs", list), "needs")
        if not needs:
            raise c.fail("needs", "a guest needs at least one condition")
        conds = []
        for j, n in enumerate(needs):
            field = f"needs[{j + 1}]"
            if not isinstance(n, dict) or "at_least" not in n:
                raise c.fail(f"{field}.at_least", "missing")
            sel = {k: v for k, v in n.items() if k != "at_least"}
            conds.append({**c.selector(sel, field), "at_least": c.int_(n["at_least"], f"{field}.at_least", 1, 30)})
        guests.append(
            {
                "id": gid,
                "name": gname,
                "needs": conds,
                "points": c.int_(f.get("points", int), "points", 0, 20),
                "origin": c.origin(),
            }
        )
    if len(guests) < MIN_GUESTS:
        raise CardDataError(f"{guests_path}: {len(guests)} special guests; a game needs at least {MIN_GUESTS}")

    counters_path = root / FILES["counters"]
    counters = []
    for i, raw in enumerate(_entries(counters_path, read(counters_path), "counters")):
        c = _Check(counters_path, raw, i, foods, decor)
        f = c.f
        cid, cname = f.get("id", str), f.get("name", str)
        _known_keys(c, raw, COUNTER_KEYS)
        _unique(counters_path, seen, cid, cname, names)
        provides = f.get("provides", list)
        if not provides:
            raise c.fail("provides", "a counter provides at least one food")
        counters.append(
            {
                "id": cid,
                "name": cname,
                "provides": [c.food(p, f"provides[{j + 1}]") for j, p in enumerate(provides)],
                "origin": c.origin(),
            }
        )
    if len(counters) < MIN_COUNTERS:
        raise CardDataError(f"{counters_path}: {len(counters)} counters; a game needs at least {MIN_COUNTERS}")

    data = {
        "name": name,
        "food_types": list(foods),
        "decor_types": list(decor),
        **rules,
        "provenance": {str(k): v for k, v in provenance.items()},
        "cards": cards,
        "guests": guests,
        "counters": counters,
    }
    return {"hash": content_hash(data), **data}


# ---------------------------------------------------------------- compiled index


@dataclass(frozen=True, slots=True)
class Want:
    food: str
    count: int
    heart: bool


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    name: str
    kind: str
    food: str | None
    decor: str | None
    cost: int
    score: dict[str, Any]
    action: tuple[dict[str, Any], ...]
    ongoing: tuple[dict[str, Any], ...]
    wants: tuple[Want, ...]
    pref: str | None
    # wants grouped by food type, for serving: ((type, ((count, heart), ...)), ...)
    by_type: tuple[tuple[str, tuple[tuple[int, bool], ...]], ...]
    top_text: Any = ""  # messages for the top half and the customer, made once
    customer_text: Any = ""


@dataclass(frozen=True, slots=True)
class CardSet:
    hash: str
    foods: tuple[str, ...]
    decor: tuple[str, ...]
    regular_points: int
    heart_bonus: int
    cards: dict[str, Card]
    guests: dict[str, dict[str, Any]]
    counters: dict[str, dict[str, Any]]
    order: tuple[str, ...]  # café card ids in data order
    guest_order: tuple[str, ...]
    counter_order: tuple[str, ...]
    guest_needs: dict[str, tuple[tuple[str, str, int], ...]]  # id -> ((selector key, value, at least), ...)
    card_ids: frozenset[str] = frozenset()


_COMPILED: dict[str, CardSet] = {}
_VERIFIED: dict[str, dict[str, Any]] = {}


def verify(cardset: Any) -> bool:
    """Whether a set's content still matches its hash (checked once per set object)."""
    if not isinstance(cardset, dict) or not isinstance(cardset.get("hash"), str):
        return False
    if _VERIFIED.get(cardset["hash"]) is cardset:
        return True
    if content_hash({k: v for k, v in cardset.items() if k != "hash"}) != cardset["hash"]:
        return False
    _VERIFIED[cardset["hash"]] = cardset
    return True


def compiled(cardset: dict[str, Any]) -> CardSet:
    """The indexed form of a set, built once per content hash and shared (never copied)."""
    got = _COMPILED.get(cardset["hash"])
    if got is not None:
        return got
    cards = {}
    for c in cardset["cards"]:
        wants = tuple(Want(w["food"], w["count"], w["heart"]) for w in c["customer"]["wants"])
        groups: dict[str, list[tuple[int, bool]]] = {}
        for w in wants:
            groups.setdefault(w.food, []).append((w.count, w.heart))
        cards[c["id"]] = Card(
            id=c["id"],
            name=c["name"],
            kind=c["kind"],
            food=c["food"],
            decor=c["decor"],
            cost=c["cost"],
            score=c["score"],
            action=tuple(c["action"]),
            ongoing=tuple(c["ongoing"]),
            wants=wants,
            pref=c["customer"]["decor"],
            by_type=tuple((k, tuple(v)) for k, v in groups.items()),
        )
        card = cards[c["id"]]
        cards[c["id"]] = replace(card, top_text=_top_words(card), customer_text=_customer_words(card))
    got = CardSet(
        hash=cardset["hash"],
        foods=tuple(cardset["food_types"]),
        decor=tuple(cardset["decor_types"]),
        regular_points=cardset["regular_points"],
        heart_bonus=cardset["heart_bonus"],
        cards=cards,
        guests={g["id"]: g for g in cardset["guests"]},
        counters={c["id"]: c for c in cardset["counters"]},
        order=tuple(c["id"] for c in cardset["cards"]),
        guest_order=tuple(g["id"] for g in cardset["guests"]),
        counter_order=tuple(c["id"] for c in cardset["counters"]),
        guest_needs={
            g["id"]: tuple((k, v, n["at_least"]) for n in g["needs"] for k, v in n.items() if k != "at_least")
            for g in cardset["guests"]
        },
    )
    got = replace(got, card_ids=frozenset(got.order))
    _COMPILED[cardset["hash"]] = got
    return got


# ---------------------------------------------------------------- words (messages: games/engine/messages.py)


def upper_first(text: str) -> str:
    """Capitalise the first letter only (str.capitalize would lower-case 'Coffee' and 'Rustic')."""
    return text[:1].upper() + text[1:]


# what a selector counts, named once ("per Coffee", "per regular")
_THING = {
    "regulars": msg("regular"),
    "guests": msg("special guest"),
    "cards": msg("café card"),
    "coins": msg("coin"),
    "distinct_food": msg("different food type"),
    "distinct_decor": msg("different decor type"),
}


def thing(sel: dict[str, str]) -> Msg:
    """One of what a selector counts: "Coffee", "Rustic decor", "food card", "regular"."""
    ((key, v),) = sel.items()
    if key == "food":
        return card_ref(v)
    if key == "decor":
        return msg("%(decor)s decor", decor=card_ref(v))
    if key == "kind":
        return msg("%(kind)s card", kind=card_ref(v))
    return _THING[v]


def things(sel: dict[str, str]) -> Msg:
    """All of what a selector counts, as a group: "Sweet", "Rustic decor", "food cards"."""
    ((key, v),) = sel.items()
    if key == "kind":
        return msg("%(kind)s cards", kind=card_ref(v))
    if key in ("food", "decor"):
        return thing(sel)
    return {
        "regulars": msg("regulars"),
        "guests": msg("special guests"),
        "cards": msg("café cards"),
        "coins": msg("coins"),
        "distinct_food": msg("different food types"),
        "distinct_decor": msg("different decor types"),
    }[v]


def at_least_words(sel: dict[str, str], n: int) -> Msg:
    """At least `n` of what a selector counts: "2+ Coffee", "3+ regulars"."""
    ((key, v),) = sel.items()
    if key == "food":
        return nmsg("%(n)s+ %(food)s", "%(n)s+ %(food)s", "n", n=n, food=card_ref(v))
    if key == "decor":
        return nmsg("%(n)s+ %(decor)s decor", "%(n)s+ %(decor)s decor", "n", n=n, decor=card_ref(v))
    if key == "kind":
        return nmsg("%(n)s+ %(kind)s card", "%(n)s+ %(kind)s cards", "n", n=n, kind=card_ref(v))
    if v == "regulars":
        return nmsg("%(n)s+ regular", "%(n)s+ regulars", "n", n=n)
    if v == "guests":
        return nmsg("%(n)s+ special guest", "%(n)s+ special guests", "n", n=n)
    if v == "cards":
        return nmsg("%(n)s+ café card", "%(n)s+ café cards", "n", n=n)
    if v == "coins":
        return nmsg("%(n)s+ coin", "%(n)s+ coins", "n", n=n)
    if v == "distinct_food":
        return nmsg("%(n)s+ different food type", "%(n)s+ different food types", "n", n=n)
    return nmsg("%(n)s+ different decor type", "%(n)s+ different decor types", "n", n=n)


def score_msg(score: dict[str, Any]) -> Msg:
    if "fixed" in score:
        return nmsg("%(n)s point", "%(n)s points", "n", n=score["fixed"])
    if "per" in score:
        if score.get("max"):
            return msg(
                "%(points)s per %(thing)s you have (max %(max)s)",
                points=score["points"],
                thing=thing(score["per"]),
                max=score["max"],
            )
        return msg("%(points)s per %(thing)s you have", points=score["points"], thing=thing(score["per"]))
    return msg(
        "%(points)s if you have %(things)s",
        points=score["points"],
        things=at_least_words(score["if"], score["at_least"]),
    )


def action_msg(a: dict[str, Any]) -> Msg:
    if "gain" in a:
        return nmsg("gain %(n)s coin", "gain %(n)s coins", "n", n=a["gain"])
    if "gain_per" in a:
        if a.get("max"):
            return nmsg(
                "gain %(n)s coin per %(thing)s you have (max %(max)s)",
                "gain %(n)s coins per %(thing)s you have (max %(max)s)",
                "n",
                n=a["coins"],
                thing=thing(a["gain_per"]),
                max=a["max"],
            )
        return nmsg(
            "gain %(n)s coin per %(thing)s you have",
            "gain %(n)s coins per %(thing)s you have",
            "n",
            n=a["coins"],
            thing=thing(a["gain_per"]),
        )
    if "draw" in a:
        return nmsg("draw %(n)s card from the deck", "draw %(n)s cards from the deck", "n", n=a["draw"])
    if "take" in a:
        return nmsg(
            "take %(n)s card of your choice from the display",
            "take %(n)s cards of your choice from the display",
            "n",
            n=a["take"],
        )
    return nmsg(
        "discard up to %(n)s card from your hand, then draw as many",
        "discard up to %(n)s cards from your hand, then draw as many",
        "n",
        n=a["recycle"],
    )


# English words for what the engine's own tests read (tests/engine/test_words.py); pages use the messages
def score_words(score: dict[str, Any]) -> str:
    return english(score_msg(score))


def action_words(a: dict[str, Any]) -> str:
    return english(action_msg(a))


def ongoing_msg(o: dict[str, Any]) -> Msg:
    """An ongoing effect, without its "Ongoing:" (see `ongoing_line`)."""
    if "discount" in o:
        return msg("%(things)s cost you %(n)s less to add", things=things(o["applies_to"]), n=o["discount"])
    if "serve_bonus" in o:
        if o.get("food"):
            return nmsg(
                "+%(n)s coin when you serve a customer %(food)s they want",
                "+%(n)s coins when you serve a customer %(food)s they want",
                "n",
                n=o["serve_bonus"],
                food=card_ref(o["food"]),
            )
        return nmsg(
            "+%(n)s coin whenever a serve earns you coins",
            "+%(n)s coins whenever a serve earns you coins",
            "n",
            n=o["serve_bonus"],
        )
    return msg("refill your hand to %(n)s instead of %(base)s", n=4 + o["hand_size"], base=4)


def ongoing_line(o: dict[str, Any]) -> Msg:
    return msg("Ongoing: %(effect)s", effect=ongoing_msg(o))


def want_words(w: Want) -> Any:
    text: Any = card_ref(w.food) if w.count == 1 else msg("%(n)s %(food)s", n=w.count, food=card_ref(w.food))
    return msg("%(want)s ♥", want=text) if w.heart else text


def customer_words(card: Card, start: bool = False) -> Msg:
    """The customer in words ("wants Coffee and Tea; likes Rustic decor"); `start`: as a sentence's start."""
    if start:
        return _customer_words(card, True)
    return card.customer_text or _customer_words(card)


def top_words(card: Card) -> Msg:
    return card.top_text or _top_words(card)


def _customer_words(card: Card, start: bool = False) -> Msg:
    wants = list_ref([want_words(w) for w in card.wants])
    if card.pref:
        if start:
            return msg("Wants %(wants)s; likes %(decor)s decor", wants=wants, decor=card_ref(card.pref))
        return msg("wants %(wants)s; likes %(decor)s decor", wants=wants, decor=card_ref(card.pref))
    if start:
        return msg("Wants %(wants)s; no preferred decor", wants=wants)
    return msg("wants %(wants)s; no preferred decor", wants=wants)


def _top_words(card: Card) -> Msg:
    score = score_msg(card.score)
    if card.kind == "food":
        return msg("%(food)s, cost %(cost)s, scores %(score)s", food=card_ref(card.food), cost=card.cost, score=score)
    if card.kind == "decor":
        return msg(
            "%(decor)s decor, cost %(cost)s, scores %(score)s", decor=card_ref(card.decor), cost=card.cost, score=score
        )
    return msg("equipment, cost %(cost)s, scores %(score)s", cost=card.cost, score=score)


def card_lines(card: Card) -> list[Msg]:
    lines = [msg("Top: %(top)s", top=top_words(card))]
    lines += [msg("When added: %(action)s", action=action_msg(a)) for a in card.action]
    lines += [ongoing_line(o) for o in card.ongoing]
    lines.append(msg("Customer: %(customer)s", customer=customer_words(card)))
    return lines


def guest_words(guest: dict[str, Any], start: bool = False) -> Msg:
    """What a special guest needs and is worth ("needs 2+ Coffee; worth 3 points")."""
    needs = list_ref(
        [at_least_words({k: v for k, v in n.items() if k != "at_least"}, n["at_least"]) for n in guest["needs"]]
    )
    if start:
        return nmsg(
            "Needs %(needs)s; worth %(n)s point",
            "Needs %(needs)s; worth %(n)s points",
            "n",
            needs=needs,
            n=guest["points"],
        )
    return nmsg(
        "needs %(needs)s; worth %(n)s point", "needs %(needs)s; worth %(n)s points", "n", needs=needs, n=guest["points"]
    )


# The card set as the upload, the card editor, the preview and the export read it (TITLE.cardset_kind).
CARDSET = SetKind(
    slug=SLUG,
    files=tuple(FILES.values()),
    lists={"cafe_cards.yaml": "cards", "guests.yaml": "guests", "counters.yaml": "counters"},
    build=build_cardset,
    published={"cafe_cards.yaml": 83, "guests.yaml": 12, "counters.yaml": 4},
    fields={
        "cafe_cards.yaml": frozenset(CARD_KEYS),
        "guests.yaml": frozenset(GUEST_KEYS),
        "counters.yaml": frozenset(COUNTER_KEYS),
    },
)
