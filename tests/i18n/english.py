"""English words left on a page, a mail or a ping written for a reader of another language.

What a person reads is taken from the HTML (text outside scripts and styles, and the attributes a
person reads); the names of people, games, titles and the brand are taken out first. What is left
must hold none of the everyday English words below, save those that are words of the reader's own
language as well ("in" and "was" are German, "table" and "notes" French, "plan" all of them).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

ENGLISH = frozenset(
    """the and you your yours is are was were has have had this that these those with from for into
    will would should could not yes of to by at it its they their them we our who what which when
    where why how there here been being be do does did done or but if than then all any each every
    more most some such only own same other about after before again once move moves turn turns game
    games card cards player players seat seats play played playing pass passed wait waiting waits
    round rounds score scores deadline hours minutes days sign send sent answer answers pick choose
    chose take took taken draw drew hand deck coins coin history rules reply email link settings
    profile home new next last back now left yet won win winner wins ended over open close show hide
    help undo vacation talk message messages note notes plan none nothing everyone nobody bot bots
    ready start started starts end ends let lets just also still out up down off please thanks""".split()
)
# words of English's list that are words of the reader's language too
ALSO_THEIRS = {
    "de": {
        "in",
        "an",
        "so",
        "was",
        "will",
        "hand",
        "also",
        "plan",
        "email",
        "link",
        "bot",
        "bots",
        "start",
        "end",
        "still",
    },
    "fr": {
        "table",
        "notes",
        "note",
        "message",
        "messages",
        "points",
        "minutes",
        "plan",
        "email",
        "score",
        "scores",
        "bot",
        "bots",
        "pass",
        "son",
        "on",
        "a",
        "date",
        "sept",
        "six",
    },
    "es": {"plan", "email", "a", "no", "son", "bot", "bots", "once", "come", "real", "final", "e", "has"},
    "pt": {"plan", "email", "a", "no", "bot", "bots", "e", "do", "final", "real", "sim", "for", "link"},
    "ja": {"email", "bot", "bots"},
}
WORD = re.compile(r"[^\W\d_]+")  # whole words in any script: "Début" is not "but"
READ_ATTRIBUTES = {"aria-label", "title", "placeholder", "alt"}
ADDRESSES = re.compile(r"https?://\S+|\S+@\S+")


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.code = 0

    def handle_starttag(self, tag, attrs) -> None:
        if tag in ("script", "style", "template"):
            self.code += 1
        self.parts += [v for k, v in attrs if k in READ_ATTRIBUTES and v]

    def handle_endtag(self, tag) -> None:
        if tag in ("script", "style", "template") and self.code:
            self.code -= 1

    def handle_data(self, data) -> None:
        if not self.code:
            self.parts.append(data)


def read_text(html: str) -> str:
    """What a person reads on an HTML page or mail."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    return " ".join(" ".join(parser.parts).split())


def english_words(text: str, lang: str, names: tuple[str, ...] = ()) -> list[str]:
    """The English words in `text` (a reader of `lang` should find none), after the names."""
    text = ADDRESSES.sub(" ", text)  # links and addresses are not words a person reads
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    allowed = ALSO_THEIRS.get(lang, set())
    return [w for w in WORD.findall(text) if w.lower() in ENGLISH and w.lower() not in allowed]
