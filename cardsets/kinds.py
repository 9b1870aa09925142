"""What a card set is for each title: its data files, where the cards are listed, how it is built,
and the box's published counts. Each title declares its kind (TITLE.cardset_kind, a
games.engine.cards.SetKind); KINDS finds them through the registry. Data over code: the upload,
the card editor, the preview and the export all read these, and the title's own loader does the
validating. No Django import.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

from games.engine.cards import SetKind, load_yaml
from games.titles import titles, when_changed

__all__ = ["KINDS", "SetKind", "card_key", "marks", "shipped_files"]


class _Kinds(Mapping[str, SetKind]):
    """Every title's card set kind by slug, read from the registry at each use (so a title
    registered later has its kind here too)."""

    def _now(self) -> dict[str, SetKind]:
        return {t.slug: t.cardset_kind for t in titles() if t.cardset_kind is not None}

    def __getitem__(self, slug: str) -> SetKind:
        return self._now()[slug]

    def __iter__(self) -> Iterator[str]:
        return iter(self._now())

    def __len__(self) -> int:
        return len(self._now())


KINDS: Mapping[str, SetKind] = _Kinds()


def shipped_files(slug: str) -> dict[str, Any]:
    """The parsed files of the set shipped with a title (in its kind's folder, seeds/<slug>/ by
    default), for the shipped-set step after migrations and for tests."""
    return copy.deepcopy(_shipped(slug))


@cache
def _shipped(slug: str) -> dict[str, Any]:
    kind = KINDS[slug]
    return {name: load_yaml(kind.shipped_folder / name) for name in kind.files}


when_changed(_shipped.cache_clear)


def card_key(entry: Any, index: int) -> str:
    """A card's name in messages and forms: its id, else its name, else its place."""
    if isinstance(entry, dict):
        for key in ("id", "name"):
            if isinstance(entry.get(key), str) and entry[key]:
                return entry[key]
    return f"#{index + 1}"


def marks(entry: Any) -> dict[str, str]:
    """Whose each value of a card is, from its `origin` or `source` field: {"": whole card} or per field.

    "authored" means the project's own value, "partly authored" a card whose file comment names which
    values are published; anything else (rulebook, errata...) is published.
    """
    if not isinstance(entry, dict):
        return {}
    raw = entry.get("origin", entry.get("source"))
    if isinstance(raw, str):
        return {"": _whose(raw)}
    if isinstance(raw, dict):
        return {str(k): _whose(str(v)) for k, v in raw.items()}
    return {}


def _whose(value: str) -> str:
    if value in ("project", "authored"):
        return "authored"
    return "partly authored" if "project" in value.split("+") else value
