"""One package per game. Each package exposes TITLE, an object implementing games.engine.Title."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from games.engine import Title


@cache
def get_title(slug: str) -> Title:
    """The title for a slug; KeyError with the known slugs if there is none."""
    if slug not in slugs():
        raise KeyError(f"No title {slug!r}; known: {', '.join(slugs())}")
    return importlib.import_module(f"games.titles.{slug}").TITLE


@cache
def slugs() -> tuple[str, ...]:
    return tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg and not m.name.startswith("_")))


def choices() -> list[tuple[str, str]]:
    """(slug, name) pairs for forms."""
    return [(s, get_title(s).name) for s in slugs()]
