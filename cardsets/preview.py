"""A set's cards drawn the way the seat page draws them (the title's `card_face`, from its drawing),
each with whose values it shows: the project's own (authored) or published; and a title's first card,
the front page's picture of it. Pure: no Django import; the views mark the pictures safe (the
drawings escape every text they hold)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.engine.messages import english
from games.titles import get_title, when_changed

from .kinds import SetKind, card_key, marks, shipped_files


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


def sections(
    kind: SetKind, files: dict[str, Any], data: dict[str, Any], say: Callable[[Any], str] = english
) -> list[tuple[str, list[Shown]]]:
    """(file, its cards shown) for every file with a card list, in the file's order, their words said
    with `say` (the reader's language: the view passes it)."""
    draw = get_title(kind.slug).card_face
    out = []
    for file in kind.lists:
        shown = []
        for i, entry in enumerate(kind.entries(files, file)):
            key = card_key(entry, i)
            name = entry.get("name", key) if isinstance(entry, dict) else key
            item = Shown(key=key, name=str(name), marks=marks(entry))
            item.picture = draw(data, file, key, say=say) if draw else ""
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


# the front page's card per title and language, drawn once per process
_SHOWN: dict[tuple[str, str], str] = {}


def showcase(slug: str, language: str = "en", say: Callable[[Any], str] = english) -> str:
    """The card of a title's shipped set with the most on it, as its drawing draws it (card_face), for
    the front page: the title's own art, found through the registry, its words said with `say` in
    `language`. "" for a title that draws no card."""
    key = (slug, language)
    if key not in _SHOWN:
        _SHOWN[key] = _showcase(slug, say)
    return _SHOWN[key]


def _showcase(slug: str, say: Callable[[Any], str]) -> str:
    title = get_title(slug)
    kind = title.cardset_kind
    if kind is None or title.card_face is None:
        return ""
    files = shipped_files(slug)
    data = kind.check(files)[0]
    faces = [
        title.card_face(data, file, card_key(entry, i), say=say)
        for file in kind.lists
        for i, entry in enumerate(kind.entries(files, file))
    ]
    return max(faces, key=len, default="")


when_changed(_SHOWN.clear)
