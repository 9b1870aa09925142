"""Which words go into which catalogue, and the catalogues' extract, compile and check (the
`catalogues` command runs them; tests/i18n checks with them).

A catalogue per app (games, accounts, cardsets: `<app>/locale/<lang>/LC_MESSAGES/django.po`) and
per title (`games/titles/<slug>/locale/…`, in LOCALE_PATHS). English is the source: its ids are
the English, so it has no catalogue.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import yaml
from babel.messages.catalog import Catalog
from babel.messages.extract import extract as babel_extract
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from django.conf import settings
from django.utils.translation.template import templatize

from games.titles import titles

ROOT = Path(settings.BASE_DIR)
TRANSLATED = [code for code, _ in settings.LANGUAGES if code != "en"]
DJANGO_KEYWORDS = {
    "_": None,
    "gettext": None,
    "gettext_lazy": None,
    "gettext_noop": None,
    "ngettext": (1, 2),
    "ngettext_lazy": (1, 2),
    "pgettext": ((1, "c"), 2),
    "pgettext_lazy": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "npgettext_lazy": ((1, "c"), 2, 3),
}
ENGINE_KEYWORDS = {"msg": None, "nmsg": (1, 2)}
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|%[sd]")


@dataclass(frozen=True)
class Source:
    """One catalogue: where it lives, what feeds it, and the msgctxt of its engine messages."""

    name: str
    locale: Path
    python: tuple[Path, ...]
    templates: tuple[Path, ...]
    context: str | None = None  # a title's slug: its messages' msgctxt
    cards: tuple[Path, ...] = ()
    card_words: tuple[str, ...] = ()


def _files(patterns: list[str], exclude: tuple[str, ...] = ()) -> tuple[Path, ...]:
    found: set[Path] = set()
    for pattern in patterns:
        found.update(ROOT.glob(pattern))
    return tuple(
        sorted(p for p in found if p.is_file() and not any(part in p.relative_to(ROOT).parts for part in exclude))
    )


def sources() -> list[Source]:
    app_exclude = ("migrations", "titles")
    out = [
        Source(
            "games",
            ROOT / "games" / "locale",
            _files(["games/**/*.py", "config/*.py"], app_exclude),
            _files(["templates/*.html", "templates/games/**/*", "templates/emails/**/*", "templates/push/**/*"])
            + _files(["templates/admin/**/*.html"]),
        ),
        Source(
            "accounts",
            ROOT / "accounts" / "locale",
            _files(["accounts/**/*.py"], app_exclude),
            _files(["templates/accounts/**/*", "templates/registration/**/*"]),
        ),
        Source(
            "cardsets",
            ROOT / "cardsets" / "locale",
            _files(["cardsets/**/*.py"], app_exclude),
            _files(["templates/cardsets/**/*"]),
        ),
    ]
    for title in titles():
        if title.folder is None or not Path(title.folder).resolve().is_relative_to(ROOT):
            continue  # a title outside this project (a test's) has no catalogue here
        folder = Path(title.folder)
        rel = folder.relative_to(ROOT).as_posix()
        out.append(
            Source(
                title.slug,
                folder / "locale",
                _files([f"{rel}/**/*.py"]),
                _files([f"{rel}/templates/**/*"]),
                context=title.slug,
                cards=_files([f"seeds/{title.slug}/*.yaml"]),
                card_words=tuple(title.card_words),
            )
        )
    return out


def _python(path: Path, keywords: dict) -> Iterator[tuple[str | tuple[str, ...], str | None]]:
    with path.open("rb") as f:
        for _lineno, message, _comments, context in babel_extract("python", f, keywords=keywords):
            yield message, context


def _card_words(data: object, keys: tuple[str, ...]) -> Iterator[str]:
    if isinstance(data, dict):
        for k, v in data.items():
            if k in keys and isinstance(v, str) and v.strip():
                yield v
            elif k in keys and isinstance(v, list):
                yield from (x for x in v if isinstance(x, str) and x.strip())
            else:
                yield from _card_words(v, keys)
    elif isinstance(data, list):
        for v in data:
            yield from _card_words(v, keys)


def template_for(source: Source) -> Catalog:
    """Every message the source says, as an empty catalogue."""
    cat = Catalog(fuzzy=False)

    def add(message, context, where: Path) -> None:
        if not message or (isinstance(message, tuple) and not message[0]):
            return
        flags = ("python-format",) if PLACEHOLDER.search(message if isinstance(message, str) else message[0]) else ()
        cat.add(message, None, [(where.relative_to(ROOT).as_posix(), 0)], flags=flags, context=context)

    for path in source.python:
        for message, context in _python(path, DJANGO_KEYWORDS):
            add(message, context, path)
        # an engine's messages (games/engine/messages.py), wherever one is said: a title's under its slug
        for message, _ in _python(path, ENGINE_KEYWORDS):
            add(message, source.context, path)
    for path in source.templates:
        if path.suffix not in (".html", ".txt", ".js", ".svg", ".json", ".xml"):
            continue
        code = templatize(path.read_text(encoding="utf-8"), origin=str(path))
        # templatize writes for xgettext, which reads no indentation; Python's tokenizer does
        code = "\n".join(line.lstrip() for line in code.splitlines())
        for _lineno, message, _c, context in babel_extract(
            "python", io.BytesIO(code.encode("utf-8")), keywords=DJANGO_KEYWORDS
        ):
            add(message, context, path)
    for path in source.cards:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for word in _card_words(data, source.card_words):
            add(word, f"{source.context}:card", path)
    return cat


def po_path(source: Source, lang: str) -> Path:
    return source.locale / lang / "LC_MESSAGES" / "django.po"


def _read(path: Path, lang: str) -> Catalog:
    if path.exists():
        with path.open("rb") as f:
            return read_po(f, locale=lang)
    return Catalog(locale=lang, project="Café turns", fuzzy=False)


def _write(path: Path, cat: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    write_po(buf, cat, width=0, omit_header=False, ignore_obsolete=True, sort_output=True, include_lineno=False)
    path.write_bytes(buf.getvalue())


def extract(languages: list[str] | None = None) -> list[tuple[Path, int, int]]:
    """Every language's catalogue brought up to the source: new messages added empty, gone ones
    dropped, translations kept (never guessed: no fuzzy matching)."""
    done = []
    for source in sources():
        template = template_for(source)
        if not len(template) and not source.locale.exists():
            continue
        for lang in languages or TRANSLATED:
            path = po_path(source, lang)
            cat = _read(path, lang)
            before = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in cat if m.id}
            cat.update(template, no_fuzzy_matching=True, update_header_comment=False)
            cat.fuzzy = False
            after = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in cat if m.id}
            _write(path, cat)
            done.append((path.relative_to(ROOT), len(after - before), len(before - after)))
    return done


def _strings(m) -> tuple[list[str], list[str]]:
    ids = [m.id] if isinstance(m.id, str) else list(m.id)
    strs = [m.string] if isinstance(m.string, str) else list(m.string or ())
    return ids, strs


def check() -> list[str]:
    """Problems, one line each: a catalogue missing, a message missing from one, untranslated,
    fuzzy, or whose placeholders differ from its English."""
    problems: list[str] = []
    for source in sources():
        template = template_for(source)
        wanted = {_key(m) for m in template if m.id}
        if not wanted:
            continue
        for lang in TRANSLATED:
            path = po_path(source, lang)
            where = path.relative_to(ROOT).as_posix()
            if not path.exists():
                problems.append(f"{where}: missing ({len(wanted)} messages to translate)")
                continue
            problems += problems_in(_read(path, lang), wanted, where)
    return problems


def _key(m) -> tuple[str, str | None]:
    return (m.id if isinstance(m.id, str) else m.id[0], m.context)


def problems_in(cat: Catalog, wanted: set[tuple[str, str | None]], where: str) -> list[str]:
    """What is wrong with one language's catalogue of the `wanted` messages (id, context)."""
    problems = []
    have = {_key(m): m for m in cat if m.id}
    for key in sorted(wanted - have.keys(), key=str):
        problems.append(f"{where}: not in the catalogue: {key[0]!r}" + (f" [{key[1]}]" if key[1] else ""))
    for key in sorted(wanted & have.keys(), key=str):
        m = have[key]
        ids, strs = _strings(m)
        label = f"{key[0]!r}" + (f" [{key[1]}]" if key[1] else "")
        if m.fuzzy:
            problems.append(f"{where}: fuzzy: {label}")
        if not strs or not all(s.strip() for s in strs):
            problems.append(f"{where}: untranslated: {label}")
            continue
        named = set(PLACEHOLDER.findall(ids[0])) | (set(PLACEHOLDER.findall(ids[1])) if len(ids) > 1 else set())
        for s in strs:
            extra = set(PLACEHOLDER.findall(s)) - named
            if extra:
                problems.append(f"{where}: {label}: placeholders not in the English: {sorted(extra)}")
    return problems


def compile_all() -> int:
    """A .mo beside every .po that is newer than it."""
    written = 0
    for source in sources():
        for lang in TRANSLATED:
            po = po_path(source, lang)
            mo = po.with_suffix(".mo")
            if not po.exists() or (mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime):
                continue
            cat = _read(po, lang)
            buf = io.BytesIO()
            write_mo(buf, cat, use_fuzzy=False)
            tmp = mo.with_suffix(".mo.tmp")
            tmp.write_bytes(buf.getvalue())
            tmp.replace(mo)
            written += 1
    return written
