"""The registry of titles: one package per game here, each exposing TITLE (games.engine.Title).

The rest of the service finds titles only through these functions, never by naming a slug:
`get_title(slug)`, `slugs()` (the packages here), `titles()` and `choices()` (those and any title
registered from elsewhere). `register` adds a title that is not a package here and `unregister`
takes it away again (tests use a tiny one); `register_package` imports a title package kept in
another folder and registers its TITLE. Code that keeps something per title (a template or a card
set's files) asks `when_changed` to be told when the registered titles change.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

from games.engine.protocol import Title, lacks

_extra: dict[str, Title] = {}
_extra_modules: dict[str, str] = {}  # slug -> the package name register_package imported it as
_listeners: list[Callable[[], None]] = []


def get_title(slug: str) -> Title:
    """The title for a slug; KeyError with the known slugs if there is none."""
    if slug in _extra:
        return _extra[slug]
    return _packaged(slug)


@cache
def _packaged(slug: str) -> Title:
    if slug not in slugs():
        raise KeyError(f"No title {slug!r}; known: {', '.join(slugs())}")
    return _checked(importlib.import_module(f"games.titles.{slug}").TITLE)


@cache
def slugs() -> tuple[str, ...]:
    """The titles packaged here, in order of their slugs."""
    return tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg and not m.name.startswith("_")))


def titles() -> list[Title]:
    """Every title: those packaged here, then those registered from elsewhere."""
    return [get_title(s) for s in slugs()] + list(_extra.values())


def choices() -> list[tuple[str, str]]:
    """(slug, name) pairs for forms."""
    return [(t.slug, t.name) for t in titles()]


def register(title: Title) -> Title:
    """Add a title that is not a package here (tests use a tiny one); TypeError if it is not a title."""
    _checked(title)
    if title.slug in slugs():
        raise ValueError(f"{title.slug!r} is a title packaged here already")
    _extra[title.slug] = title
    _changed()
    return title


def register_package(folder: Path) -> Title:
    """Import the title package in `folder` (a folder with an __init__.py exposing TITLE, laid out as
    a package here would be) under the folder's name, and register its TITLE."""
    name = folder.name
    if name in sys.modules:
        raise ValueError(f"a module named {name!r} is imported already")
    spec = importlib.util.spec_from_file_location(
        name, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    if spec is None or spec.loader is None:
        raise ImportError(f"{folder}: no package there")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
        title = register(module.TITLE)
    except BaseException:
        _forget_modules(name)
        raise
    _extra_modules[title.slug] = name
    return title


def unregister(slug: str) -> None:
    """Take away a title `register` or `register_package` added (and the package's modules)."""
    _extra.pop(slug, None)
    name = _extra_modules.pop(slug, None)
    if name is not None:
        _forget_modules(name)
    _changed()


def when_changed(listener: Callable[[], None]) -> Callable[[], None]:
    """Call `listener` whenever a title is registered or unregistered (to empty a cache kept per title)."""
    _listeners.append(listener)
    return listener


def _changed() -> None:
    for listener in _listeners:
        listener()


def _checked(title: Title) -> Title:
    missing = lacks(title)
    if missing:
        raise TypeError(
            f"{title!r} is not a title: it lacks {', '.join(missing)} "
            "(games/engine/protocol.py; a title's class inherits games.engine.TitleBase)"
        )
    return title


def _forget_modules(name: str) -> None:
    for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[module]
