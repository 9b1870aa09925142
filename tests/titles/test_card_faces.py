"""Every card of every shipped set shows its whole text (the titles' drawing.py on the drawing kit):
drawn by card_face (what the card set preview shows) and by each title's seat drawing some way into
a bot game, every line of text fits its card's width, is at least the readable size, nothing ends
cut with "…", and the card's accessible name holds every word it shows.

The browser test (tests/browser/test_whole_cards.py) checks the same as Chromium lays the pages out;
this one runs on every card in a second, with the kit's own measure of text."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from html import unescape
from typing import Any

import pytest

from cardsets.kinds import KINDS, card_key, shipped_files
from games.engine import step_rng
from games.engine.svg import READABLE, text_width
from games.titles import get_title

SHIPPED = ("cafe", "cafe_baras", "cafe_romantica", "tanto_cuore_rv")
WORD = re.compile(r"[^\W_]{2,}")
# what a card abbreviates, its accessible name spells out
SPELLED = {"pt": "point", "pts": "points", "acts": "actions"}
SVG = re.compile(r"<svg\b.*?</svg>", re.S)
TEXT = re.compile(r"<text\b([^>]*)>(.*?)</text>", re.S)


def lines_of(text_inner: str) -> list[str]:
    spans = re.findall(r"<tspan[^>]*>([^<]*)</tspan>", text_inner)
    return [unescape(s) for s in spans] if spans else [unescape(re.sub(r"<[^>]+>", "", text_inner))]


def problems(svg: str) -> list[str]:
    """What is wrong with one drawn card: a line wider than the card, text under the readable size,
    a cut, a word the accessible name lacks."""
    head = svg[: svg.index(">")]
    label = unescape(re.search(r'aria-label="([^"]*)"', head).group(1)).lower()
    named = set(WORD.findall(label))
    box = [float(x) for x in re.search(r'viewBox="([^"]+)"', head).group(1).split()]
    cafe = 'class="cafe-card' in head
    least = 14 if cafe else READABLE  # a Café plan card is drawn at least 300 px for its 308 units
    out = []
    for attrs, inner in TEXT.findall(svg):
        size = float(re.search(r'font-size="([\d.]+)"', attrs).group(1))
        bold = 'font-weight="bold"' in attrs
        for line in lines_of(inner):
            if "…" in line:
                out.append(f"cut: {line!r}")
            if size < least:
                out.append(f"{size} units: {line!r}")
            if text_width(line, size, bold) > box[2] - 8:
                out.append(f"wider than the card: {line!r}")
            for word in WORD.findall(line.lower()):
                if SPELLED.get(word, word) not in named and word not in named:
                    out.append(f"the name lacks {word!r} ({line!r})")
    return out


def faces(slug: str) -> list[tuple[str, str]]:
    title = get_title(slug)
    kind = KINDS[slug]
    files = shipped_files(slug)
    data = kind.check(files)[0]
    out = []
    for file in kind.lists:
        for i, entry in enumerate(kind.entries(files, file)):
            key = card_key(entry, i)
            svg = title.card_face(data, file, key)
            if svg:
                out.append((f"{file}:{key}", svg))
    return out


@pytest.mark.parametrize("slug", SHIPPED)
def test_every_card_of_the_shipped_set_shows_its_whole_text(slug):
    drawn = faces(slug)
    assert len(drawn) >= sum(KINDS[slug].published.values()) // 2 or slug == "cafe"
    found = [f"{key}: {p}" for key, svg in drawn for p in problems(svg)]
    assert not found, "\n".join(found[:20])


def strings(value: Any) -> Iterator[str]:
    """Every string in a drawing's picture (nested dicts and lists)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from strings(v)


def play_some(slug: str, steps: int, seed: str = "faces") -> tuple[dict, int]:
    """A three-player bot game `steps` answers in, and a seat asked then."""
    title = get_title(slug)
    options = {"cardset": title.load_cardset()} if title.load_cardset else {}
    state = title.setup(["Ana", "Ben", "Cy"], options, step_rng(seed, 0))
    rng = random.Random(seed)
    for step in range(steps):
        asked = title.prompts(state)
        if not asked or title.outcome(state) is not None:
            break
        seat = min(asked)
        state = title.apply(state, seat, title.bot_answer(state, seat, rng), step_rng(seed, step + 1))
    return state, min(title.prompts(state) or {0: None})


@pytest.mark.parametrize("slug", SHIPPED)
@pytest.mark.parametrize("steps", (0, 25, 80))
def test_every_card_the_seat_page_draws_shows_its_whole_text(slug, steps):
    title = get_title(slug)
    state, seat = play_some(slug, steps)
    prompt = title.prompts(state).get(seat)
    drawing = title.drawing
    picture = drawing.draw(
        title.view(state, seat), drawing.catalogue(state), prompt.to_dict() if prompt else None, seat
    )
    svgs = [svg for text in strings(picture) for svg in SVG.findall(text)]  # wherever it sits in the picture
    cards = [s for s in svgs if re.search(r'class="(pic-card-svg|pic-strip|cafe-card)', s[: s.index(">")])]
    if slug != "cafe" or picture.get("offer") or picture.get("hand"):
        assert cards, "the seat page draws cards"
    found = [p for s in cards for p in problems(s)]
    assert not found, "\n".join(found[:20])
