"""A set's cards drawn the way the seat page draws them (the title's `card_face`, from its drawing),
each with whose values it shows: the project's own (authored) or published. Pure: no Django import;
the view marks the pictures safe (the drawings escape every text they hold)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.titles import get_title

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


def sections(kind: SetKind, files: dict[str, Any], data: dict[str, Any]) -> list[tuple[str, list[Shown]]]:
    """(file, its cards shown) for every file with a card list, in the file's order."""
    draw = get_title(kind.slug).card_face
    out = []
    for file in kind.lists:
        shown = []
        for i, entry in enumerate(kind.entries(files, file)):
            key = card_key(entry, i)
            name = entry.get("name", key) if isinstance(entry, dict) else key
            item = Shown(key=key, name=str(name), marks=marks(entry))
            item.picture = draw(data, file, key) if draw else ""
            if not item.picture and isinstance(entry, dict):
                item.lines = [f"{k}: {words(v)}" for k, v in entry.items() if k not in ("origin", "source")]
            shown.append(item)
        out.append((file, shown))
    return out


def words(value: Any) -> str:
    """A card's field value as a person reads it: yes or no, a list joined, a mapping as pairs."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(words(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k}: {words(v)}" for k, v in value.items())
    return str(value)
