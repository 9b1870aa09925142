"""A set's cards drawn the way the seat page draws them (games/drawing/<slug>.py), each with whose
values it shows: the project's own (authored) or published. Pure: no Django import; the view marks
the pictures safe (the drawings escape every text they hold)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.drawing import cafe_baras as baras_draw
from games.drawing import cafe_romantica as romantica_draw
from games.drawing import tanto_cuore_rv as tanto_draw
from games.engine.svg import card_svg
from games.titles.cafe_baras.cards import compiled, guest_words

from .kinds import SetKind, card_key, marks


@dataclass
class Shown:
    key: str
    name: str
    picture: str = ""  # SVG from the title's drawing; empty when the title draws no single card
    lines: list[str] = field(default_factory=list)  # the card's fields in words when there is no picture
    marks: dict[str, str] = field(default_factory=dict)

    @property
    def authored(self) -> list[str]:
        return sorted(k or "every value" for k, v in self.marks.items() if v == "authored")

    @property
    def partly(self) -> list[str]:
        return sorted(k or "some values" for k, v in self.marks.items() if v == "partly authored")

    @property
    def published(self) -> list[str]:
        return sorted(
            f"{k or 'every value'} ({v})" for k, v in self.marks.items() if v not in ("authored", "partly authored")
        )


def _baras(data: dict[str, Any], file: str, key: str) -> str:
    cs = compiled(data)
    if file == "cafe_cards.yaml" and key in cs.cards:
        return card_svg(baras_draw.face(cs.cards[key]))
    if file == "guests.yaml" and key in cs.guests:
        g = cs.guests[key]
        words = guest_words(g)
        return baras_draw.strip_svg(g["name"], "Guest", words, f"Special guest {g['name']}: {words}.", width=220)
    if file == "counters.yaml" and key in cs.counters:
        c = cs.counters[key]
        words = "provides " + ", ".join(c["provides"])
        return baras_draw.strip_svg(c["name"], "Counter", words, f"Counter {c['name']}: {words}.", tone="blue")
    return ""


def _romantica(data: dict[str, Any], file: str, key: str) -> str:
    group = file.removesuffix(".yaml")
    card = data.get(group, {}).get(key)
    if card is None:
        return ""
    if group == "hosts":
        return card_svg(romantica_draw.host_face(card))
    if "cost" in card and "text" in card:
        return card_svg(romantica_draw.focus_face(card))
    return ""


def _tanto(data: dict[str, Any], file: str, key: str) -> str:
    card = data.get("cards", {}).get(key)
    return card_svg(tanto_draw.face(card)) if card else ""


DRAWERS: dict[str, Callable[[dict[str, Any], str, str], str]] = {
    "cafe_baras": _baras,
    "cafe_romantica": _romantica,
    "tanto_cuore_rv": _tanto,
}


def sections(kind: SetKind, files: dict[str, Any], data: dict[str, Any]) -> list[tuple[str, list[Shown]]]:
    """(file, its cards shown) for every file with a card list, in the file's order."""
    draw = DRAWERS.get(kind.slug)
    out = []
    for file in kind.lists:
        shown = []
        for i, entry in enumerate(kind.entries(files, file)):
            key = card_key(entry, i)
            name = entry.get("name", key) if isinstance(entry, dict) else key
            item = Shown(key=key, name=str(name), marks=marks(entry))
            item.picture = draw(data, file, key) if draw else ""
            if not item.picture and isinstance(entry, dict):
                item.lines = [f"{k}: {v}" for k, v in entry.items() if k not in ("origin", "source")]
            shown.append(item)
        out.append((file, shown))
    return out
