"""Which reply reader reads real mail-client replies as meant: ours, or the mail-parser-reply library.

Runs every case of the reply corpus (tests/support/replies/manifest.yaml) through each reader and
prints, per reader: the formats tried, those read as meant (a right answer, or nothing where nothing
was written), those refused (nothing found: the service then mails "We found no answer at the top of
your reply"), split into right and wrong refusals, and those MISREAD (a non-empty answer other than
the one meant: a move the player did not make, or words they did not write on the board).

  .venv/bin/pip install mail-parser-reply          # once: the library is not a project dependency
  .venv/bin/python bench/reply_corpus.py            # the figures
  .venv/bin/python bench/reply_corpus.py --cases    # and every case a reader did not read as meant

The readers:
- ours: games.inbound as the webhook uses it (body_of, then answer_text or talk_text).
- mail-parser-reply: the library's latest reply (EmailMessage(...).read().replies[0].body, every
  language it knows, hyphen lists kept: its kindest settings for our emails), with ">"-quoted lines
  dropped (the library splits on headers only), the answer taken as its first lines like ours. An HTML-only reply is flattened to text first, with no
  knowledge of any client's quote markup (the library reads text only).
- mail-parser-reply + our HTML: the same, but HTML-only replies go through our html_to_text, which
  drops Gmail's, Outlook's, Yahoo's, Apple's and Thunderbird's quote containers first.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from games import reply_text  # noqa: E402
from tests.support.replies import Case, load  # noqa: E402

Reader = Callable[[Case], str]


def _message(case: Case) -> SimpleNamespace:
    return SimpleNamespace(stripped_text=case.stripped, text=case.text, html=case.html)


def ours(case: Case) -> str:
    """What the webhook reads from the reply."""
    body = reply_text.body_of(_message(case))
    return reply_text.answer_text(body, case.parts) if case.kind == "answer" else reply_text.talk_text(body)


class _PlainText(HTMLParser):
    """Visible text with line breaks at blocks: no knowledge of quotes, as a generic converter gives."""

    BLOCKS = {"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "table", "pre", "blockquote"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in ("style", "script", "head", "title")
        if tag in self.BLOCKS:
            self.out.append("\n")

    def handle_endtag(self, tag):
        self.hidden -= tag in ("style", "script", "head", "title") and self.hidden > 0
        if tag in self.BLOCKS:
            self.out.append("\n")

    def handle_data(self, data):
        if not self.hidden:
            self.out.append(re.sub(r"[ \t\r\n]+", " ", data))


def plain_text(html: str) -> str:
    parser = _PlainText()
    parser.feed(html)
    parser.close()
    return "\n".join(x.strip() for x in unescape("".join(parser.out)).split("\n"))


def _library_lines(text: str) -> list[str]:
    from mailparser_reply import EmailMessage
    from mailparser_reply.constants import MAIL_LANGUAGES

    languages = [x for x in MAIL_LANGUAGES if x != "david"]  # "david" is one vendor's headers, not a language
    # keep_hyphen_lists: our emails list cards and log lines as "- ...", which the default takes for a signature
    message = EmailMessage(text=text, languages=languages, keep_hyphen_lists=True).read()
    body = message.replies[0].body if message.replies else ""
    return [x for x in body.split("\n") if not x.lstrip().startswith(">")]


def _shape(lines: list[str], case: Case) -> str:
    """The answer's first lines, or the talk text, as ours shapes them."""
    if case.kind == "answer":
        return "\n".join([x.strip() for x in lines if x.strip()][: max(case.parts, 1)])
    return "\n".join(x.rstrip() for x in lines).strip()


def library(html_to_text: Callable[[str], str]) -> Reader:
    def read(case: Case) -> str:
        text = next((t for t in (case.stripped, case.text) if t and t.strip()), "") or html_to_text(case.html)
        return _shape(_library_lines(text), case)

    return read


def readers() -> dict[str, Reader]:
    """Ours, and the library's two ways when it is installed (it is not a dependency of the project)."""
    found: dict[str, Reader] = {"ours (games.inbound)": ours}
    if importlib.util.find_spec("mailparser_reply"):
        found["mail-parser-reply"] = library(plain_text)
        found["mail-parser-reply + our HTML"] = library(reply_text.html_to_text)
    else:
        print("mail-parser-reply is not installed (.venv/bin/pip install mail-parser-reply): ours only\n")
    return found


@dataclass
class Score:
    tried: int = 0
    meant: int = 0
    refused_right: int = 0
    refused_wrong: int = 0
    misread: int = 0
    missed: list[tuple[Case, str]] = field(default_factory=list)


def score(reader: Reader, cases: list[Case]) -> Score:
    s = Score()
    for case in cases:
        got = reader(case)
        s.tried += 1
        if got == (case.meant or ""):
            s.meant += 1
            s.refused_right += not got
            continue
        s.missed.append((case, got))
        if got:
            s.misread += 1
        else:
            s.refused_wrong += 1
    return s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", action="store_true", help="list every case a reader did not read as meant")
    args = parser.parse_args()
    cases = load()
    scores = {name: score(reader, cases) for name, reader in readers().items()}
    print(f"{len(cases)} reply formats ({sum(c.meant is None for c in cases)} where nothing can be read)\n")
    print(f"{'reader':30} {'tried':>6} {'as meant':>9} {'refused':>8} {'(wrongly)':>10} {'MISREAD':>8}")
    for name, s in scores.items():
        refused = s.refused_right + s.refused_wrong
        print(f"{name:30} {s.tried:6} {s.meant:9} {refused:8} {s.refused_wrong:10} {s.misread:8}")
    if args.cases:
        for name, s in scores.items():
            print(f"\n{name}: not as meant")
            for case, got in s.missed:
                print(f"  {case.id:45} meant {case.meant!r:.40} got {got!r:.60}")


if __name__ == "__main__":
    main()
