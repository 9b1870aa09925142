"""Loading card data files: YAML in seeds/<slug>/, validated with errors that name the place.

A card set is plain JSON data. Its content hash is recorded in a game's first event, and the
set itself travels in that event, so editing a data file never changes a running game or its
replay.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from pathlib import Path, PurePath
from typing import Any

import yaml

from .errors import CardDataError

SEEDS = Path(__file__).resolve().parents[2] / "seeds"


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
