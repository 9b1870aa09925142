"""Loading and validating Café Romantica's card data (seeds/cafe_romantica/*.yaml).

The loaded set is plain JSON data keyed by card kind and id, so it can travel in a game's first
event and sit, shared and never copied, inside the state. Stored as PostgreSQL jsonb, its objects
come back with their keys in another order, so the set also lists each kind's ids in the data
files' order (`ids`): the engine iterates cards and clubs in that order (`ids_of`,
`in_host_order`), never in the order of a dict's keys.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path, PurePath
from typing import Any

from games.engine import CardDataError
from games.engine.cards import Fields, Reader, SetKind, content_hash, load_yaml, seed_dir

SLUG = "cafe_romantica"

# ability kind -> parameters it needs (hosts' special rules; once per stack when he shines)
HOST_ABILITIES: dict[str, tuple[str, ...]] = {
    "none": (),
    "stack_bonus": ("amount",),
    "underdog": ("amount",),
    "crowd": (),
    "favourite_bonus": ("amount",),
    "buddy": ("with", "amount"),
    "doubles": ("amount",),
    "rival": ("amount",),
    "per_club": ("amount",),
}
# effect kind -> parameters (managers, completed agendas, focus cards)
EFFECTS: dict[str, tuple[str, ...]] = {
    "income": ("amount",),
    "no_host_income": ("amount",),
    "catch_up": ("amount",),
    "fave_shine_bonus": ("amount",),
    "bond_bonus": ("amount",),
    "face_bonus": ("face", "amount"),
    "discount": ("target", "amount"),
    "fave_discount_bonus": ("amount",),
    "auction_priority": (),
    "reroll": (),
}
DISCOUNT_TARGETS = ("host", "host_new", "focus", "agenda")
SOURCES = ("authored", "rulebook", "errata")
# the card kinds keyed by id, whose ids the set lists in data order under "ids"
KINDS = ("hosts", "focus", "managers", "agendas")
# the published box (rulebook + carddata): checked for the default set
PUBLISHED = {"hosts": 78, "focus": 12, "managers": 8, "agendas": 12}


def _source(f: Fields, fields: tuple[str, ...]) -> Any:
    """Every value is marked: one source for the card, or one per field."""
    src = f.get("source", (str, dict))
    if isinstance(src, str):
        if src not in SOURCES:
            raise f.fail("source", f"{src!r} is not one of {list(SOURCES)}")
        return src
    for field in fields:
        if src.get(field) not in SOURCES:
            raise f.fail("source", f"no source (one of {list(SOURCES)}) for field {field!r}")
    return src


def _faces(f: Fields, field: str = "faces") -> list[int]:
    faces = f.get(field, list)
    if not faces or any(isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= 6 for x in faces):
        raise f.fail(field, "expected a non-empty list of die faces 1..6")
    if len(set(faces)) != len(faces):
        raise f.fail(field, "a face is listed twice")
    return sorted(faces)


def _positive(f: Fields, field: str, low: int = 1) -> int:
    value = f.get(field, int)
    if value < low:
        raise f.fail(field, f"must be at least {low}")
    return value


def _params(f: Fields, field: str, table: dict[str, tuple[str, ...]]) -> dict[str, Any]:
    raw = f.get(field, dict)
    kind = raw.get("kind")
    if kind not in table:
        raise f.fail(field, f"kind {kind!r} is not one of {sorted(table)}")
    out: dict[str, Any] = {"kind": kind}
    for p in table[kind]:
        if p not in raw:
            raise f.fail(field, f"kind {kind!r} needs {p!r}")
        v = raw[p]
        if p == "amount" and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
            raise f.fail(field, "amount must be a whole number of at least 1")
        if p == "face" and (isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6):
            raise f.fail(field, "face must be 1..6")
        if p == "target" and v not in DISCOUNT_TARGETS:
            raise f.fail(field, f"'target' must be one of {list(DISCOUNT_TARGETS)}")
        if p == "with" and not isinstance(v, str):
            raise f.fail(field, "'with' must name a host id")
        out[p] = v
    extra = set(raw) - set(table[kind]) - {"kind"}
    if extra:
        raise f.fail(field, f"unknown parameter(s) {sorted(extra)}")
    return out


def _entries(path: Path, raw: Any) -> list[Fields]:
    if not isinstance(raw, list):
        raise CardDataError(f"{path}: expected a list of cards")
    fields = [Fields(path, card, i) for i, card in enumerate(raw)]
    seen: set[str] = set()
    for f in fields:
        cid = f.get("id", str)
        if not cid or "-" in cid or ":" in cid:
            raise f.fail("id", "ids are non-empty and use no '-' or ':' (copies are named '<id>-<n>')")
        if cid in seen:
            raise f.fail("id", "duplicate id")
        seen.add(cid)
    return fields


def parse_hosts(path: Path, raw: Any) -> dict[str, dict[str, Any]]:
    out = {}
    for f in _entries(path, raw):
        out[f.name] = {
            "id": f.name,
            "name": f.get("name", str),
            "copies": _positive(f, "copies"),
            "cost": _positive(f, "cost"),
            "faces": _faces(f),
            "hearts": _positive(f, "hearts"),
            "ability": _params(f, "ability", HOST_ABILITIES),
            "text": f.get("text", str, ""),
            "source": _source(f, ("name", "copies", "cost", "faces", "hearts", "ability")),
        }
    for host in out.values():
        buddy = host["ability"].get("with")
        if buddy is not None and (buddy not in out or buddy == host["id"]):
            raise CardDataError(f"{path}: card {host['id']!r}, field 'ability': 'with' names no other host ({buddy!r})")
    return out


def parse_effect_cards(path: Path, raw: Any, *, cost: bool, copies: bool) -> dict[str, dict[str, Any]]:
    out = {}
    for f in _entries(path, raw):
        card: dict[str, Any] = {"id": f.name, "name": f.get("name", str)}
        if copies:
            card["copies"] = _positive(f, "copies")
        if cost:
            card["cost"] = _positive(f, "cost")
        card["effect"] = _params(f, "effect", EFFECTS)
        card["text"] = f.get("text", str)
        card["source"] = _source(f, tuple(k for k in ("name", "copies", "cost", "effect") if k in card))
        out[f.name] = card
    return out


def parse_club(path: Path, raw: Any) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise CardDataError(f"{path}: expected a mapping with flyer, fave_discount and turn_order")
    f = Fields(path, raw.get("flyer"), 0)
    flyer = {
        "id": "flyer",
        "name": f.get("name", str),
        "copies": _positive(f, "copies"),
        "faces": _faces(f),
        "hearts": _positive(f, "hearts"),
        "text": f.get("text", str, ""),
        "source": _source(f, ("name", "copies", "faces", "hearts")),
    }
    fd = Fields(path, raw.get("fave_discount"), 1)
    order = raw.get("turn_order")
    if not isinstance(order, list) or not order:
        raise CardDataError(f"{path}: card 'turn_order': expected a list of turn order cards")
    positions = [Fields(path, c, i).get("position", int) for i, c in enumerate(order)]
    if positions != list(range(1, len(order) + 1)):
        raise CardDataError(f"{path}: card 'turn_order', field 'position': must be 1, 2, 3... in order")
    return {
        "flyer": flyer,
        "fave_discount": _positive(fd, "value"),
        "turn_order": [{"id": c["id"], "name": c["name"], "position": c["position"]} for c in order],
    }


def build_cardset(directory: PurePath, strict: bool = True, read: Reader = load_yaml) -> dict[str, Any]:
    """Read and validate every data file of a directory; `strict` also checks the published counts."""
    hosts = parse_hosts(directory / "hosts.yaml", read(directory / "hosts.yaml"))
    focus = parse_effect_cards(directory / "focus.yaml", read(directory / "focus.yaml"), cost=True, copies=True)
    managers = parse_effect_cards(
        directory / "managers.yaml", read(directory / "managers.yaml"), cost=False, copies=False
    )
    agendas = parse_effect_cards(directory / "agendas.yaml", read(directory / "agendas.yaml"), cost=True, copies=False)
    clash = (set(hosts) & set(focus)) | (set(managers) & set(agendas))
    if clash:
        raise CardDataError(f"{directory}: ids used twice across files: {sorted(clash)}")
    cardset: dict[str, Any] = {
        "hosts": hosts,
        "focus": focus,
        "managers": managers,
        "agendas": agendas,
        # a list keeps its order through jsonb, an object's keys do not
        "ids": {"hosts": list(hosts), "focus": list(focus), "managers": list(managers), "agendas": list(agendas)},
        **parse_club(directory / "club.yaml", read(directory / "club.yaml")),
    }
    if strict:
        counts = {
            "hosts": sum(h["copies"] for h in hosts.values()),
            "focus": sum(c["copies"] for c in focus.values()),
            "managers": len(managers),
            "agendas": len(agendas),
        }
        for kind, want in PUBLISHED.items():
            if counts[kind] != want:
                raise CardDataError(
                    f"{directory}/{kind}.yaml: the box has {want} {kind} cards, the data {counts[kind]}"
                )
        if hosts.get("energetic", {}).get("cost") != 3:
            raise CardDataError(f"{directory}/hosts.yaml: card 'energetic', field 'cost': the errata says 3")
    cardset["hash"] = content_hash(cardset)
    return cardset


_CACHE: dict[str, Any] = {}


def load_cardset() -> dict[str, Any]:
    """The default card set from seeds/cafe_romantica/.

    Parsed once per process and again only when a data file changes (its mtime), since bot games
    set up thousands of tables; treat the result as read-only.
    """
    directory = seed_dir(SLUG)
    stamp = tuple((p.name, p.stat().st_mtime_ns) for p in sorted(directory.glob("*.yaml")))
    if _CACHE.get("stamp") != stamp:
        _CACHE["set"] = build_cardset(directory)
        _CACHE["stamp"] = stamp
    return _CACHE["set"]


# recent card sets (held, so their ids are not recycled) -> (ids of each kind, host id -> rank)
_ORDERS: list[tuple[Any, dict[str, list[str]], dict[str, int]]] = []


def _orders(cardset: dict[str, Any]) -> tuple[dict[str, list[str]], dict[str, int]]:
    """The canonical order of every kind, computed once per card set object (never changed)."""
    for held, ids, rank in _ORDERS:
        if held is cardset:
            return ids, rank
    listed = cardset.get("ids") or {}
    ids = {}
    for kind in KINDS:
        have = cardset[kind]
        known = [i for i in listed.get(kind, ()) if i in have]
        # a set without the list (older games, hand-made sets): ids sorted, whatever the key order
        ids[kind] = known + sorted(set(have) - set(known))
    rank = {boy: n for n, boy in enumerate(ids["hosts"])}
    _ORDERS[:] = _ORDERS[-3:] + [(cardset, ids, rank)]
    return ids, rank


def ids_of(cardset: dict[str, Any], kind: str) -> list[str]:
    """The ids of one kind (hosts, focus, managers, agendas) in the data files' order.

    The order of the set's own keys is lost in the database, so anything that reaches a prompt,
    the log, a bot or the generator iterates this instead. Callers must not change the list.
    """
    return _orders(cardset)[0][kind]


def in_host_order(cardset: dict[str, Any], boys: Collection[str]) -> list[str]:
    """Boys (e.g. a club's keys) in the data files' order of hosts, not the club's key order."""
    if len(boys) < 2:  # most clubs early on: nothing to order (this runs for every seat and roll)
        return list(boys)
    return sorted(boys, key=_orders(cardset)[1].__getitem__)


def deck_ids(cardset: dict[str, Any]) -> list[str]:
    """Every host and focus card of the deck, one id per physical card ("<id>-<n>"), in data order
    (setup shuffles this list, so its order must not depend on the set's key order)."""
    hosts, focus = cardset["hosts"], cardset["focus"]
    ids = [f"{h}-{i}" for h in ids_of(cardset, "hosts") for i in range(1, hosts[h]["copies"] + 1)]
    ids += [f"{c}-{i}" for c in ids_of(cardset, "focus") for i in range(1, focus[c]["copies"] + 1)]
    return ids


def base_id(card_id: str) -> str:
    """The boy or focus kind a physical card is a copy of."""
    return card_id.rsplit("-", 1)[0]


# The card set as the upload, the card editor, the preview and the export read it (TITLE.cardset_kind):
# the published box's counts are this title's own strict check, a warning for an uploaded set.
CARDSET = SetKind(
    slug=SLUG,
    files=("hosts.yaml", "focus.yaml", "managers.yaml", "agendas.yaml", "club.yaml"),
    lists={"hosts.yaml": "", "focus.yaml": "", "managers.yaml": "", "agendas.yaml": ""},
    build=lambda root, read: build_cardset(root, strict=False, read=read),
    strict=lambda root, read: build_cardset(root, strict=True, read=read),
)
