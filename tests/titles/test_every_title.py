"""What every title declares holds together, and a title is one folder found through its TITLE.

Per title (the registry's list): it has every name of the protocol; its card set kind builds its
shipped files; a title that draws its table (page or email template) declares the drawing its
templates use, and its templates are in its folder. For the whole project: no app module or
template outside games/titles/ names a title, and the titles and the engine kit import no Django.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from cardsets.kinds import card_key, shipped_files
from games.engine.protocol import OFFERED, REQUIRED, TitleBase, lacks
from games.titles import get_title, slugs

ROOT = Path(__file__).resolve().parents[2]
# where the service's own code and pages live; games/titles/ (the titles' own folders) aside
APP_FOLDERS = ("games", "cardsets", "accounts", "config", "templates", "static")


@pytest.mark.parametrize("slug", slugs())
def test_a_title_has_every_name_of_the_protocol(slug):
    title = get_title(slug)
    assert title.slug == slug
    assert isinstance(title, TitleBase), "a title's class inherits games.engine.TitleBase (the defaults)"
    assert lacks(title) == []


@pytest.mark.parametrize("slug", slugs())
def test_its_card_set_kind_builds_its_shipped_files(slug):
    kind = get_title(slug).cardset_kind
    if kind is None:
        return  # a title without card sets: nothing to build
    assert kind.slug == slug
    assert all((kind.shipped_folder / name).is_file() for name in kind.files), kind.shipped_folder
    assert set(kind.lists) <= set(kind.files) and set(kind.fields) <= set(kind.files)
    data, warnings = kind.check(shipped_files(slug))
    assert isinstance(data.get("hash"), str) and warnings == [], warnings


@pytest.mark.parametrize("slug", slugs())
def test_its_card_preview_draws_its_shipped_cards(slug):
    title = get_title(slug)
    if title.card_face is None:
        return  # the preview shows the cards' fields in words
    kind = title.cardset_kind
    assert kind is not None, "a card preview is of the title's card sets"
    files = shipped_files(slug)
    data, _ = kind.check(files)
    drawn = [title.card_face(data, f, card_key(e, i)) for f in kind.lists for i, e in enumerate(kind.entries(files, f))]
    assert drawn and sum(svg.startswith("<svg") for svg in drawn) >= len(drawn) // 2


@pytest.mark.parametrize("slug", slugs())
def test_a_title_with_its_own_templates_declares_its_drawing_and_holds_them(slug):
    title = get_title(slug)
    own = [t for t in (title.page_template, title.email_template) if t]
    if not own:
        return  # the generic panels draw its view
    assert title.drawing is not None, "its templates draw with {% draw_table %}: the title declares a drawing"
    assert callable(title.drawing.draw) and callable(title.drawing.catalogue)
    assert title.folder is not None
    for name in own:
        assert (Path(title.folder) / "templates" / name).is_file(), name
    for path in (Path(title.folder) / "templates").rglob("*.html"):
        text = path.read_text()
        for used in re.findall(r"""\{% (?:include|extends) ["']titles/([^/"']+)/""", text):
            assert used == slug, f"{path.name} uses another title's template ({used})"


def test_the_protocol_lists_are_the_defaults():
    assert not set(REQUIRED) & set(OFFERED)
    assert all(hasattr(TitleBase, name) for name in OFFERED)
    assert not any(hasattr(TitleBase, name) for name in REQUIRED)


def test_nothing_outside_games_titles_names_a_title():
    """The service finds titles through the registry: no app module, template, style or script
    outside games/titles/ names a slug (as a word: `cafe-turns` is the project's name)."""
    named = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, slugs())) + r")(?![\w-])")
    found = []
    for folder in APP_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            rel = path.relative_to(ROOT)
            if not path.is_file() or "__pycache__" in rel.parts or rel.parts[:2] == ("games", "titles"):
                continue
            try:
                text = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue  # an image
            found += [f"{rel}:{n}: {line.strip()}" for n, line in enumerate(text.splitlines(), 1) if named.search(line)]
    assert found == []
    assert not (ROOT / "games" / "drawing").exists(), "a title's drawing is in its package"


def test_the_titles_and_the_engine_kit_import_no_django():
    """Every module of every title (rules, bots, drawing, cards) and of games/engine/, and the card
    set helpers that read them (cardsets.kinds, cardsets.preview), load without Django."""
    check = (
        "import importlib, pkgutil, sys\n"
        "import games.engine, games.titles\n"
        "names = [m.name for m in pkgutil.walk_packages(games.engine.__path__, 'games.engine.')]\n"
        "names += [m.name for m in pkgutil.walk_packages(games.titles.__path__, 'games.titles.')]\n"
        "names += ['cardsets.kinds', 'cardsets.preview']\n"
        "for name in names: importlib.import_module(name)\n"
        "print(len(names), sorted(m for m in sys.modules if m.split('.')[0] == 'django'))\n"
    )
    out = subprocess.run([sys.executable, "-c", check], cwd=ROOT, capture_output=True, text=True, check=True)
    count, django = out.stdout.split(" ", 1)
    assert int(count) > 40 and django.strip() == "[]"
