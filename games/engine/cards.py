"""Loading card data files: YAML in seeds/<slug>/, validated with errors that name the place; and
`SetKind`, what a title's card set is (its files, card lists, fields, loader, published counts),
which each title declares in its cards.py as CARDSET and offers as TITLE.cardset_kind.

A card set is plain JSON data. Its content hash is recorded in a game's first event, and the
set itself travels in that event, so editing a data file never changes a running game or its
replay.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePath, PurePosixPath
from typing import Any

import yaml

from .errors import CardDataError

SEEDS = Path(__file__).resolve().parents[2] / "seeds"


# a set's own translations of its card words, an optional file of any title's set:
#   de: {Oak Counter: Eichentheke, ...}
#   ja: {...}
TRANSLATIONS = "translations.yaml"
_LANGUAGE = re.compile(r"[a-z]{2,3}(-[a-z0-9]{2,8})?")
MOST_LANGUAGES, MOST_WORDS, LONGEST_WORD = 12, 2000, 120


def card_words(parsed: Any) -> dict[str, dict[str, str]]:
    """A set's translations ({language: {English card word: its words there}}), checked: a wrong
    entry raises CardDataError naming the file and the entry."""
    if parsed is None:
        return {}
    if not isinstance(parsed, dict):
        raise CardDataError(f"{TRANSLATIONS}: a mapping of languages (de, ja, …) to their card words is expected.")
    if len(parsed) > MOST_LANGUAGES:
        raise CardDataError(f"{TRANSLATIONS}: at most {MOST_LANGUAGES} languages.")
    out: dict[str, dict[str, str]] = {}
    for lang, words in parsed.items():
        if not isinstance(lang, str) or not _LANGUAGE.fullmatch(lang):
            raise CardDataError(f"{TRANSLATIONS}: {str(lang)[:20]!r} is not a language code such as de or pt-br.")
        if not isinstance(words, dict) or len(words) > MOST_WORDS:
            raise CardDataError(f"{TRANSLATIONS}: {lang}: a mapping of at most {MOST_WORDS} card words is expected.")
        for word, said in words.items():
            ok = isinstance(word, str) and isinstance(said, str) and said.strip()
            if not ok or len(word) > LONGEST_WORD or len(said) > LONGEST_WORD:
                raise CardDataError(
                    f"{TRANSLATIONS}: {lang}: {str(word)[:40]!r}: each card word and its translation is text "
                    f"of 1 to {LONGEST_WORD} characters."
                )
        out[lang] = {w: s.strip() for w, s in words.items()}
    return out


def seed_dir(slug: str) -> Path:
    return SEEDS / slug


def load_yaml(path: PurePath) -> Any:
    """Parse one data file; a syntax error names the file and line."""
    try:
        with Path(path).open(encoding="utf-8") as f:
            return yaml.safe_load(f)
    except FileNotFoundError:
        raise CardDataError(f"{path}: file not found") from None
    except yaml.YAMLError as e:
        raise CardDataError(f"{path}: not valid YAML: {e}") from None


# How a title's builder reads one data file: load_yaml for a folder on disk, parsed_files() for a
# set that arrives as data (an upload, a stored set). Messages name the path either way.
Reader = Callable[[PurePath], Any]


def parsed_files(files: Mapping[str, Any]) -> Reader:
    """A reader over files already parsed (file name -> data), so a builder never touches the disk."""

    def read(path: PurePath) -> Any:
        name = PurePath(path).name
        if name not in files:
            raise CardDataError(f"{path}: file missing from the set")
        return files[name]

    return read


def content_hash(data: Any) -> str:
    """A stable sha256 of JSON data (keys sorted), to name a card set."""
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()


class Fields:
    """Field access for one card that raises CardDataError naming file, card and field."""

    def __init__(self, path: PurePath | str, card: dict[str, Any], index: int):
        if not isinstance(card, dict):
            raise CardDataError(f"{path}: entry #{index + 1} is not a mapping")
        self.path, self.card = path, card
        self.name = str(card.get("id") or card.get("name") or f"#{index + 1}")

    def fail(self, field: str, why: str) -> CardDataError:
        return CardDataError(f"{self.path}: card {self.name!r}, field {field!r}: {why}")

    def get(self, field: str, kind: type | tuple[type, ...], default: Any = ..., choices: Any = None) -> Any:
        if field not in self.card:
            if default is ...:
                raise self.fail(field, "missing")
            return default
        value = self.card[field]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
            names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            raise self.fail(field, f"expected {names}, got {value!r}")
        if choices is not None and value not in choices:
            raise self.fail(field, f"{value!r} is not one of {sorted(choices)}")
        return value


@dataclass(frozen=True)
class SetKind:
    """One title's card set files and their checks."""

    slug: str
    files: tuple[str, ...]  # the data files, named as in the shipped folder
    lists: dict[str, str]  # file -> key of its list of cards ("" when the file is the list)
    build: Callable[[PurePath, Reader], dict[str, Any]]  # the title's loader: raises CardDataError
    published: dict[str, int] = field(default_factory=dict)  # file -> cards in the published box
    strict: Callable[[PurePath, Reader], Any] | None = None  # the title's own published-box check
    fields: dict[str, frozenset[str]] = field(default_factory=dict)  # file -> every field a card may have
    folder: Path | None = None  # where the shipped set's files are; None: seeds/<slug>/

    @property
    def shipped_folder(self) -> Path:
        """The folder of the set shipped with the title (stored as a card set after migrations)."""
        return self.folder if self.folder is not None else seed_dir(self.slug)

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
        card_words(files.get(TRANSLATIONS))  # a set's own translations, checked (a game takes them apart)
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
