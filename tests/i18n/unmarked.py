"""Words in a template that are not marked for translation: what tests/i18n/test_marked.py refuses.

A template is read with Django's own lexer. Everything a translation tag says, every variable and
every other tag becomes a blank; what is left is the template's own words, read as HTML: a text
node with a letter in it, or a letter in an attribute a person reads (aria-label, title,
placeholder, alt, a button's value), is unmarked. Scripts and styles are code; `{% comment %}`s and
`{# #}`s are not read. A literal a person reads may also hide in a tag's argument
(`{% include "x.html" with label="Send" %}`): such a literal must be `_("Send")`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from django.template.base import Lexer, TokenType

READ_ATTRIBUTES = {"aria-label", "title", "placeholder", "alt", "aria-description", "aria-roledescription"}
LETTER = re.compile(r"[^\W\d_]")
HOLE = " "  # a tag or a variable: no words of its own (a blank keeps `<li{% if %} class="me"{% endif %}>` a tag)
NOT_WORDS = {"bodyclass", "extrastyle", "extrahead", "blockbots"}  # blocks that hold class names or code
WITH_LITERAL = re.compile(r"""\b\w+=(["'])(?P<text>[^"']*)\1""")


@dataclass(frozen=True)
class Unmarked:
    path: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text!r}"


def skeleton(source: str) -> tuple[str, list[tuple[int, str]]]:
    """The template with every tag and variable a blank, and the unmarked literals found in tags."""
    out: list[str] = []
    literals: list[tuple[int, str]] = []
    skipping: str | None = None  # the end tag of a block whose content is not the page's own words
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0] if token.contents.split() else ""
            if skipping:
                if name == skipping:
                    skipping = None
                    out.append(HOLE)
                continue
            if name in ("blocktranslate", "blocktrans"):
                skipping = "endblocktranslate" if name == "blocktranslate" else "endblocktrans"
            elif name == "comment":
                skipping = "endcomment"
            elif name == "verbatim":
                skipping = "endverbatim"
            elif name == "block" and len(token.contents.split()) > 1 and token.contents.split()[1] in NOT_WORDS:
                skipping = "endblock"
            if name in ("include", "with") or " with " in token.contents:
                for m in WITH_LITERAL.finditer(token.contents):
                    if LETTER.search(m.group("text")) and " " in m.group("text").strip():
                        literals.append((token.lineno, m.group("text")))
            out.append(HOLE)
        elif skipping:
            continue
        elif token.token_type == TokenType.TEXT:
            out.append(token.contents)
        elif token.token_type == TokenType.VAR:
            out.append(HOLE)
        # comments are dropped
    return "".join(out), literals


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self.code = 0  # inside <script> or <style>

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in ("script", "style"):
            self.code += 1
        for name, value in attrs:
            if value and (name in READ_ATTRIBUTES or (name == "value" and tag in ("button", "input"))):
                if name == "value" and dict(attrs).get("type") not in ("submit", "button", "reset"):
                    continue
                if LETTER.search(value):
                    self.found.append((self.getpos()[0], f"{name}={value}"))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self.code:
            self.code -= 1

    def handle_data(self, data: str) -> None:
        if not self.code and LETTER.search(data):
            self.found.append((self.getpos()[0], " ".join(data.split())))


def unmarked(path: Path, root: Path) -> list[Unmarked]:
    """The unmarked words of one template."""
    source = path.read_text(encoding="utf-8")
    text, literals = skeleton(source)
    rel = path.relative_to(root).as_posix()
    found = [Unmarked(rel, line, words) for line, words in literals]
    if path.suffix == ".html" or path.suffix == ".svg":
        reader = _Reader()
        reader.feed(text)
        reader.close()
        found += [Unmarked(rel, line, words) for line, words in reader.found]
    else:  # a plain-text mail: every letter is a word the reader reads
        for n, line in enumerate(text.splitlines(), start=1):
            if LETTER.search(line):
                found.append(Unmarked(rel, n, " ".join(line.split())))
    return found
