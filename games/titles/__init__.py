"""One package per game. Each package exposes TITLE, an object implementing games.engine.Title."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from games.engine import Title

_extra: dict[str, Title] = {}


def register(title: Title) -> None:
    """Add a title that is not a package here (tests use a tiny one)."""
    _extra[title.slug] = title


def get_title(slug: str) -> Title:
    """The title for a slug; KeyError with the known slugs if there is none."""
    if slug in _extra:
        return _extra[slug]
    return _packaged(slug)


@cache
def _packaged(slug: str) -> Title:
    if slug not in slugs():
        raise KeyError(f"No title {slug!r}; known: {', '.join(slugs())}")
    return importlib.import_module(f"games.titles.{slug}").TITLE


@cache
def slugs() -> tuple[str, ...]:
    return tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg and not m.name.startswith("_")))


def choices() -> list[tuple[str, str]]:
    """(slug, name) pairs for forms."""
    return [(s, get_title(s).name) for s in slugs()] + [(t.slug, t.name) for t in _extra.values()]
