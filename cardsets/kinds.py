"""What a card set is for each title: its data files, where the cards are listed, how it is built,
and the box's published counts. Data over code: the upload, the card editor, the preview and the
export all read these, and the title's own loader does the validating. No Django import.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import PurePath, PurePosixPath
from typing import Any

from games.engine.cards import CardDataError, Reader, parsed_files, seed_dir
from games.titles.cafe import cards as cafe_cards
from games.titles.cafe_baras import cards as baras_cards
from games.titles.cafe_romantica import cards as romantica_cards
from games.titles.tanto_cuore_rv import cards as tanto_cards


@dataclass(frozen=True)
class SetKind:
    """One title's card set files and their checks."""

    slug: str
    files: tuple[str, ...]  # the data files, named as in seeds/<slug>/
    lists: dict[str, str]  # file -> key of its list of cards ("" when the file is the list)
    build: Callable[[PurePath, Reader], dict[str, Any]]  # the title's loader: raises CardDataError
    published: dict[str, int] = field(default_factory=dict)  # file -> cards in the published box
    strict: Callable[[PurePath, Reader], Any] | None = None  # the title's own published-box check
    fields: dict[str, frozenset[str]] = field(default_factory=dict)  # file -> every field a card may have

    def entries(self, files: dict[str, Any], name: str) -> list[Any]:
        """The card list of one file (empty when the file has none)."""
        data = files.get(name)
        key = self.lists.get(name)
        if key is None:
            return []
        if key == "":
            return data if isinstance(data, list) else []
        return data.get(key, []) if isinstance(data, dict) and isinstance(data.get(key), list) else []

    def check(self, files: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """(the built set, warnings) from parsed files; a broken set raises CardDataError."""
        missing = [n for n in self.files if n not in files]
        if missing:
            raise CardDataError(
                f"{', '.join(missing)}: missing; a {self.slug} set is the files {', '.join(self.files)}"
            )
        root = PurePosixPath(self.slug)
        data = self.build(root, parsed_files(files))
        warnings = []
        for name, want in self.published.items():
            have = len(self.entries(files, name))
            if have != want:
                warnings.append(f"{name}: {have} cards; the published box has {want}.")
        if self.strict is not None:
            try:
                self.strict(root, parsed_files(files))
            except CardDataError as e:
                warnings.append(str(e).removeprefix(f"{root}/"))
        return data, warnings


KINDS: dict[str, SetKind] = {
    "cafe_baras": SetKind(
        slug="cafe_baras",
        files=tuple(baras_cards.FILES.values()),
        lists={"cafe_cards.yaml": "cards", "guests.yaml": "guests", "counters.yaml": "counters"},
        build=baras_cards.build_cardset,
        published={"cafe_cards.yaml": 83, "guests.yaml": 12, "counters.yaml": 4},
        fields={
            "cafe_cards.yaml": frozenset(baras_cards.CARD_KEYS),
            "guests.yaml": frozenset(baras_cards.GUEST_KEYS),
            "counters.yaml": frozenset(baras_cards.COUNTER_KEYS),
        },
    ),
    "cafe_romantica": SetKind(
        slug="cafe_romantica",
        files=("hosts.yaml", "focus.yaml", "managers.yaml", "agendas.yaml", "club.yaml"),
        lists={"hosts.yaml": "", "focus.yaml": "", "managers.yaml": "", "agendas.yaml": ""},
        build=lambda root, read: romantica_cards.build_cardset(root, strict=False, read=read),
        strict=lambda root, read: romantica_cards.build_cardset(root, strict=True, read=read),
    ),
    "tanto_cuore_rv": SetKind(
        slug="tanto_cuore_rv",
        files=("maids.yaml", "love.yaml", "reminiscences.yaml"),
        lists={"maids.yaml": "cards", "love.yaml": "cards", "reminiscences.yaml": "cards"},
        build=tanto_cards.build_cardset,
    ),
    "cafe": SetKind(
        slug="cafe",
        files=("plan_cards.yaml", "initial_cards.yaml", "solo.yaml"),
        lists={"plan_cards.yaml": "cards", "initial_cards.yaml": "cards", "solo.yaml": "ranks"},
        build=cafe_cards.build_cardset,
    ),
}


def shipped_files(slug: str) -> dict[str, Any]:
    """The parsed files of the set shipped in seeds/<slug>/ (for the first data migration and tests)."""
    return copy.deepcopy(_shipped(slug))


@cache
def _shipped(slug: str) -> dict[str, Any]:
    from games.engine.cards import load_yaml

    return {name: load_yaml(seed_dir(slug) / name) for name in KINDS[slug].files}


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
