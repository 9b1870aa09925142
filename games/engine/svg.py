"""The drawing kit beside the rules kit: shared SVG pieces for the titles' drawings (cards, card backs, dice,
chips). No Django import.

Every string that goes into the SVG is escaped here, so a title's module can pass card data as is.
Text is a non-italic sans-serif (Café Romantica's erratum, kept for every title) and every colour
pair used for text meets WCAG AA (4.5:1) for small text. Text is measured (Arial's widths) and
wrapped, never cut: a card with more words than room grows taller, and its accessible name (the
SVG's aria-label and <title>) carries every word it shows.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape
from typing import Any

from .messages import english, msg

FONT = "Arial, Helvetica, 'Liberation Sans', 'DejaVu Sans', sans-serif"
INK = "#1f1a17"  # on every light fill below: at least 12:1
W, H = 120, 168  # a card's viewBox: poker proportions at the least (a card with more words is taller)
# The smallest text on a card meant to be read on a phone, in viewBox units: the titles' CSS draws
# such cards at least 146 px wide (120 units), so 11 units are at least 13.4 px, the page's small text.
READABLE = 11.0
# CSS px per viewBox unit of a card drawn at its own size (a card 120 units wide is 156 px): what the
# seat page draws (146 to 172 px a card), given as the SVG's width and height so that a page without
# the table's CSS (the card set preview) draws it the same; the table's CSS sets its width instead.
PX = 1.3
LINE = 1.18  # line height, in ems
ASCENT, DESCENT = 0.905, 0.212  # Arial's (and Liberation Sans') ascent and descent, in ems

# Advance widths of Arial (metric-compatible: Helvetica, Liberation Sans), in thousandths of an em,
# for the printable ASCII characters, regular then bold: text is wrapped by its measured width, so a
# line never runs past its card's edge (a guess by character count cut "Customer wants Drink, Drink…").
_ASCII = (
    (
        278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
        556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
        611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
        667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
        222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
    ),
    (
        278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
        556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611, 975, 722, 722, 722, 722, 667,
        611, 778, 722, 278, 556, 722, 611, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
        667, 611, 333, 278, 333, 584, 556, 333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556,
        278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
    ),
)  # fmt: skip
# The other characters the cards use (symbols come from a fallback font: measured in Chromium).
_OTHER = {
    "·": 278, "×": 584, "★": 896, "♥": 594, "✓": 838, "…": 1000, "–": 556, "—": 1000, "‘": 278, "’": 278,
    "“": 500, "”": 500, "•": 350, "→": 1000, "←": 1000, "↻": 838, "☕": 896, "€": 556, "°": 400, "½": 834,
    "ß": 611, "æ": 889, "œ": 944, "Æ": 1000, "Œ": 1000, "Ø": 778, "ø": 611, "«": 556, "»": 556,
}  # fmt: skip
# Every width is taken this much larger: a phone's own sans-serif (Roboto, San Francisco) may be wider
# than Arial by a few per cent, and the text must still end inside its card.
SLACK = 1.06


def at_least(sizes: tuple[float, ...], least: float) -> tuple[float, ...]:
    """The sizes not below `least` (or `least` alone): a card drawn to be read never shrinks text under it."""
    return tuple(x for x in sizes if x >= least) or (least,)


@dataclass(frozen=True)
class Tone:
    """A card's colours: the name band (white text on it) and the body (ink text on it)."""

    band: str
    body: str
    edge: str


TONES = {
    "brown": Tone("#7a3e12", "#fff6ea", "#b98a5e"),
    "green": Tone("#1d5a3a", "#eef7ef", "#7fb08f"),
    "blue": Tone("#23427a", "#eef2fb", "#8ea2cc"),
    "plum": Tone("#6b2466", "#f9eef8", "#c08cbc"),
    "wine": Tone("#8a1f33", "#fdf0f2", "#d08c98"),
    "teal": Tone("#135e66", "#eaf6f7", "#7cb3b8"),
    "grey": Tone("#4a4a4a", "#f4f4f4", "#a8a8a8"),
    "gold": Tone("#7a5a00", "#fff8e1", "#c9a94a"),
}


def esc(value: Any) -> str:
    return escape(str(value), quote=True)


def _char_width(ch: str, bold: bool) -> float:
    code = ord(ch)
    if 32 <= code < 127:
        return _ASCII[bold][code - 32]
    if ch in _OTHER:
        return _OTHER[ch] + (40 if bold and ch.isalpha() else 0)
    base = unicodedata.normalize("NFD", ch)[0]  # é is as wide as e
    if base != ch and 32 <= ord(base) < 127:
        return _ASCII[bold][ord(base) - 32]
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return 1000
    return 0 if unicodedata.category(ch) in ("Mn", "Me", "Cf") else 722


def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide `text` is drawn at font `size` (Arial's widths, with SLACK)."""
    return sum(_char_width(ch, bold) for ch in text) * size * SLACK / 1000


def wrap(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """Every word of `text`, in lines no wider than `width` at font `size`. Nothing is left out: a
    word wider than a line is broken over lines."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if text_width(candidate, size, bold) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
            line = ""
        while text_width(word, size, bold) > width:  # a very long word: as much as fits a line
            cut = len(word) - 1
            while cut > 1 and text_width(word[:cut], size, bold) > width:
                cut -= 1
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    if line:
        lines.append(line)
    return lines


def fit(
    text: str,
    width: float,
    height: float,
    sizes: tuple[float, ...] = (10.5, 9.5, 8.5, 7.5, 7, 6.5),
    bold: bool = False,
) -> tuple[float, list[str]]:
    """The largest of `sizes` at which `text` fits the box, and its lines; when none fits, every line
    at the smallest size: the caller makes room (a card grows taller), nothing is ever cut."""
    for size in sizes:
        lines = wrap(text, width, size, bold)
        if len(lines) * size * LINE <= height:
            return size, lines
    return sizes[-1], wrap(text, width, sizes[-1], bold)


def block_height(lines: list[str], size: float) -> float:
    """The height lines of text take, from the top of the first to the bottom of the last."""
    return ((len(lines) - 1) * LINE + ASCENT + DESCENT) * size if lines else 0.0


def text_block(
    lines: list[str], x: float, y: float, size: float, *, weight: str = "normal", fill: str = INK, anchor: str = "start"
) -> str:
    """Lines of text, the first one's baseline at `y`."""
    if not lines:
        return ""
    spans = "".join(
        f'<tspan x="{x:g}" dy="{0 if i == 0 else size * LINE:.2f}">{esc(t)}</tspan>' for i, t in enumerate(lines)
    )
    return (
        f'<text x="{x:g}" y="{y:.2f}" font-size="{size:g}" font-weight="{weight}" font-style="normal" '
        f'fill="{fill}" text-anchor="{anchor}">{spans}</text>'
    )


def svg_open(css: str, label: str, width: float, height: float) -> str:
    """An SVG's opening tag and <title>: named for a screen reader by every word on it, and sized at
    PX CSS px a unit (a stylesheet may size it otherwise; the viewBox keeps its proportions)."""
    return (
        f'<svg class="{css}" viewBox="0 0 {width:g} {height:.1f}" width="{width * PX:.0f}" height="{height * PX:.0f}" '
        f'role="img" aria-label="{esc(label)}" xmlns="http://www.w3.org/2000/svg" font-family="{esc(FONT)}" '
        f'font-style="normal"><title>{esc(label)}</title>'
    )


@dataclass
class Face:
    """What a card shows, already in words. `label` is the full accessible name (nothing cut)."""

    name: str
    label: str
    tone: str = "brown"
    corner: str = ""  # top-left badge, e.g. the cost
    corner_title: str = "cost"
    tag: str = ""  # top-right badge, e.g. VP or points
    kind: str = ""  # a line under the name, e.g. "Coffee · food"
    chips: list[str] = field(default_factory=list)
    body: str = ""  # rules text
    foot: str = ""  # a bottom line, e.g. "likes Rustic decor"
    count: int | None = None  # a stack: cards left, drawn as a pile with a count
    dim: bool = False


def _badge(cx: float, cy: float, text: str, tone: Tone, r: float = 10, least: float = 0) -> str:
    size = max(10 if len(text) <= 2 else 8, least)
    while size > 6 and text_width(text, size, True) > 2 * r - 3:  # a long cost still sits in its circle
        size -= 0.5
    return (
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="#ffffff" stroke="{tone.band}" stroke-width="2"/>'
        f'<text x="{cx:g}" y="{cy + size * 0.36:.2f}" font-size="{size:g}" font-weight="bold" fill="{INK}" '
        f'text-anchor="middle">{esc(text)}</text>'
    )


def chips_svg(chips: list[str], x0: float, y0: float, width: float, tone: Tone, least: float = 0) -> tuple[str, float]:
    """Small rounded word chips, wrapped; returns the SVG and the y below them."""
    out = []
    size = max(7.5, least)
    x, y = x0, y0
    row_h = 0.0
    for chip in chips:
        lines = wrap(chip, width - 8, size)
        w = min(max(text_width(line, size) for line in lines) + 8, width)
        h = round(block_height(lines, size) + size * 0.5, 1)
        if x > x0 and x + w > x0 + width:
            x, y, row_h = x0, y + row_h + 2, 0.0
        out.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:g}" rx="6" fill="#ffffff" stroke="{tone.edge}"/>'
            + text_block(lines, x + w / 2, y + size * 0.25 + ASCENT * size, size, anchor="middle")
        )
        x += w + 3
        row_h = max(row_h, h)
    return "".join(out), (y + row_h + 3 if chips else y0)


def card_svg(face: Face, css: str = "pic-card-svg", least: float = READABLE) -> str:
    """One card as an inline SVG with a <title> and an aria-label carrying every word on it.

    `least`: the smallest text size (READABLE: read on a phone). Every word is drawn: the card is
    120 units wide and 168 tall, or taller when its words need the room.
    """
    tone = TONES.get(face.tone, TONES["brown"])
    pile = face.count is not None and face.count > 1
    inset = 6 if pile else 2  # a pile: two edges peek out behind, down and to the right
    w = W - inset
    left = 27 if face.corner != "" else 8
    ns, name_lines = fit(
        face.name, w - 3 - left, 2 * 10.5 * LINE, sizes=at_least((10.5, 9.5, 8.5, 7.5), least), bold=True
    )
    band = max(31.0, block_height(name_lines, ns) + 9)  # the coloured band under the name, from y=1
    parts = [
        f'<path d="M1 9a8 8 0 0 1 8-8h{w - 16}a8 8 0 0 1 8 8v{band - 8:.1f}h-{w}z" fill="{tone.band}"/>',
        text_block(
            name_lines,
            left,
            1 + band / 2 - block_height(name_lines, ns) / 2 + ASCENT * ns,
            ns,
            weight="bold",
            fill="#ffffff",
        ),
    ]
    if face.corner != "":
        parts.append(_badge(14, 16.5, face.corner, tone, least=least))
    y = band + 5
    tag_size = max(8.0, least)
    tag_w = text_width(face.tag, tag_size, True) + 8 if face.tag else 0
    tag_h = tag_size + 5 if face.tag else 0
    if face.tag:
        parts.append(
            f'<rect x="{w - tag_w - 2:.1f}" y="{y:.1f}" width="{tag_w:.1f}" height="{tag_h:g}" rx="{tag_h / 2:g}" '
            f'fill="{tone.band}"/><text x="{w - 2 - tag_w / 2:.1f}" y="{y + tag_h / 2 + tag_size * 0.36:.1f}" '
            f'font-size="{tag_size:g}" font-weight="bold" fill="#ffffff" text-anchor="middle">{esc(face.tag)}</text>'
        )
    if face.kind:
        ks = max(8.0, least)
        beside = w - 12 - (tag_w + 4 if face.tag else 0)
        if all(text_width(word, ks) <= beside for word in face.kind.split()):
            kind_lines = wrap(face.kind, beside, ks)
            top = y + max(0.0, (tag_h - block_height(kind_lines[:1], ks)) / 2)
        else:  # a word too long to sit beside the tag: the kind goes under it, whole words a line
            kind_lines = wrap(face.kind, w - 12, ks)
            top = y + tag_h + 3
        parts.append(text_block(kind_lines, 7, top + ASCENT * ks, ks))
        y = max(top + block_height(kind_lines, ks), y + tag_h) + 4
    elif face.tag:
        y += tag_h + 4
    chips, y = chips_svg(face.chips, 6, y, w - 10, tone, least=least)
    parts.append(chips)
    bs = max(10.5, least)
    body_lines = wrap(face.body, w - 12, bs) if face.body else []
    body_h = block_height(body_lines, bs) + 4 if body_lines else 0
    fs = max(8.5, least)
    foot_lines = wrap(face.foot, w - 12, fs) if face.foot else []
    foot_h = block_height(foot_lines, fs) + 8 if foot_lines else 0
    label = f"×{face.count}" if face.count is not None else ""
    cs = max(10.0, least)
    count_h = cs + 8 if label else 0  # the count badge sits in its own row at the bottom
    h = max(H - inset, y + 2 + body_h + foot_h + count_h + 4)
    if body_lines:
        parts.append(text_block(body_lines, 7, y + 2 + ASCENT * bs, bs))
    if foot_lines:
        line_y = h - count_h - foot_h - 2
        parts.append(f'<line x1="6" x2="{w - 5}" y1="{line_y:.1f}" y2="{line_y:.1f}" stroke="{tone.edge}"/>')
        parts.append(text_block(foot_lines, 7, line_y + 4 + ASCENT * fs, fs))
    if label:
        cw = text_width(label, cs, True) + 10
        ch = cs + 5
        parts.append(
            f'<rect x="{w - cw - 3:.1f}" y="{h - ch - 3:.1f}" width="{cw:.1f}" height="{ch:g}" rx="{ch / 2:g}" fill="{INK}"/>'
            f'<text class="count" x="{w - 3 - cw / 2:.1f}" y="{h - 3 - ch / 2 + cs * 0.36:.1f}" font-size="{cs:g}" '
            f'font-weight="bold" fill="#ffffff" text-anchor="middle">{esc(label)}</text>'
        )
    if face.dim:
        parts.append(f'<rect x="1" y="1" width="{w}" height="{h:.1f}" rx="8" fill="#ffffff" fill-opacity="0.55"/>')
    behind = ""
    if pile:
        behind = "".join(
            f'<rect x="{d}" y="{d}" width="{w}" height="{h:.1f}" rx="8" fill="{tone.body}" stroke="{tone.edge}"/>'
            for d in (5, 2.5)
        )
    return (
        svg_open(css, face.label, W, h + inset)
        + behind
        + f'<rect x="1" y="1" width="{w}" height="{h:.1f}" rx="8" fill="{tone.body}" stroke="{tone.edge}" stroke-width="1.5"/>'
        + "".join(parts)
        + "</svg>"
    )


def back_svg(
    label: str,
    lines: list[str],
    tone: str = "brown",
    count: int | None = None,
    css: str = "pic-card-svg",
    least: float = READABLE,
) -> str:
    """A face-down card or pile: its colour, a few words (a count, a cost), never what is on the face."""
    t = TONES.get(tone, TONES["brown"])
    pile = ""
    if count is not None and count > 1:
        pile = (
            f'<rect x="5" y="5" width="{W - 6}" height="{H - 6}" rx="8" fill="{t.band}" stroke="#ffffff"/>'
            f'<rect x="2.5" y="2.5" width="{W - 6}" height="{H - 6}" rx="8" fill="{t.band}" stroke="#ffffff"/>'
        )
    w, h = (W - 6, H - 6) if pile else (W - 2, H - 2)
    body = []
    y = 70.0
    for i, line in enumerate(lines):
        size = max(11 if i == 0 else 9, least)
        wrapped = wrap(line, w - 16, size, bold=i == 0)
        body.append(
            text_block(
                wrapped, w / 2 + 1, y, size, weight="bold" if i == 0 else "normal", fill="#ffffff", anchor="middle"
            )
        )
        y += len(wrapped) * size * LINE + size
    return (
        svg_open(f"{css} back", label, W, H)
        + pile
        + f'<rect x="1" y="1" width="{w}" height="{h}" rx="8" fill="{t.band}" stroke="{t.edge}" stroke-width="1.5"/>'
        f'<rect x="8" y="8" width="{w - 14}" height="{h - 14}" rx="5" fill="none" stroke="#ffffff" '
        f'stroke-opacity="0.6" stroke-dasharray="3 3"/>{"".join(body)}</svg>'
    )


def empty_svg(label: str, css: str = "pic-card-svg", least: float = READABLE) -> str:
    """An empty place on the table (a bought field slot, an empty kitchen entrance)."""
    size = max(9, least)
    lines = wrap(label, W - 20, size)
    top = H / 2 - block_height(lines, size) / 2 + ASCENT * size
    return (
        svg_open(f"{css} empty", label, W, H)
        + f'<rect x="2" y="2" width="{W - 4}" height="{H - 4}" rx="8" fill="none" stroke="#6f6a66" '
        f'stroke-width="1.5" stroke-dasharray="5 4"/>'
        f"{text_block(lines, W / 2, top, size, fill='#4d4844', anchor='middle')}"
        "</svg>"
    )


PIPS = {
    1: [(2, 2)],
    2: [(1, 1), (3, 3)],
    3: [(1, 1), (2, 2), (3, 3)],
    4: [(1, 1), (3, 1), (1, 3), (3, 3)],
    5: [(1, 1), (3, 1), (2, 2), (1, 3), (3, 3)],
    6: [(1, 1), (3, 1), (1, 2), (3, 2), (1, 3), (3, 3)],
}


def die_svg(value: int, label: str, tone: str = "wine") -> str:
    """A die showing `value` as pips (a number if it is not 1–6)."""
    t = TONES.get(tone, TONES["wine"])
    pips = "".join(f'<circle cx="{x * 10:g}" cy="{y * 10:g}" r="3.6" fill="#ffffff"/>' for x, y in PIPS.get(value, []))
    if not pips:
        pips = f'<text x="20" y="25" font-size="14" font-weight="bold" fill="#ffffff" text-anchor="middle">{esc(value)}</text>'
    return (
        f'<svg class="pic-die" viewBox="0 0 40 40" role="img" aria-label="{esc(label)}" '
        f'xmlns="http://www.w3.org/2000/svg" font-family="{esc(FONT)}">'
        f"<title>{esc(label)}</title>"
        f'<rect x="1" y="1" width="38" height="38" rx="7" fill="{t.band}"/>{pips}</svg>'
    )


# --- tapping a card answers the question -------------------------------------------------------


def prompt_options(prompt: dict[str, Any] | None, prefix: str = "answer") -> list[dict[str, str]]:
    """The options a tap can pick: each radio or checkbox the form shows, with its input's name."""
    if not prompt:
        return []
    kind = prompt.get("kind")
    if kind in ("choose", "choose_many"):
        return [
            {"id": o["id"], "label": o["label"], "input": prefix, "many": "1" if kind == "choose_many" else ""}
            for o in prompt.get("options", [])
        ]
    if kind == "composite":
        out = []
        for part in prompt.get("parts", []):
            out += prompt_options(part, f"{prefix}.{part['name']}")
        return out
    return []


def matching(options: list[dict[str, str]], *keys: str, verbs: tuple[str, ...] | None = None) -> list[dict[str, str]]:
    """Options naming one of `keys`: the id itself, or after a verb ("add:espresso", "employ:love_1").

    `verbs` keeps only those verbs for this place on the table (a town stack answers "employ:", not
    the "serve:" of the same maid in a hand); a bare id always matches.
    """
    wanted = {k for k in keys if k}
    out = []
    for o in options:
        if o["id"] in wanted:
            out.append(o)
        elif ":" in o["id"]:
            verb, rest = o["id"].split(":", 1)
            if rest in wanted and (verbs is None or verb in verbs):
                out.append(o)
    return out


def _option_attrs(o: dict[str, str]) -> str:
    return (
        f'data-option-id="{esc(o["id"])}" data-option-input="{esc(o["input"])}" data-option-label="{esc(o["label"])}"'
    )


# the short word on a card's button, by the head of the option's id ("serve:latte" -> "Serve")
VERBS = {
    "add": msg("Add"),
    "serve": msg("Serve"),
    "discard": msg("Discard"),
    "employ": msg("Employ"),
    "roast": msg("Roast"),
    "deliver": msg("Deliver"),
    "store": msg("Store"),
    "shop": msg("Shop"),
    "bean": msg("Bean"),
    "agenda": msg("Agenda"),
    "chamber": msg("Chamber"),
    "fave": msg("Favourite"),
    "remi": msg("Reminiscence"),
    "start": msg("Start"),
    "seat": msg("Seat"),
    "default": msg("Default"),
}


def verb(option_id: str, say: Callable[[Any], str] = english) -> str:
    """A short button word from an option id, in the reader's words: "serve:latte" -> "Serve"."""
    head = option_id.split(":", 1)[0] if ":" in option_id else ""
    return say(VERBS.get(head) or msg("Pick"))


def pic(
    svg: str,
    *,
    key: str,
    name: str,
    lines: list[str],
    options: list[dict[str, str]],
    css: str = "",
    say: Callable[[Any], str] = english,
    **extra: Any,
) -> dict[str, Any]:
    """One drawn thing for a template: its HTML (the SVG in a tappable wrapper when it answers the
    question), and what it is in words (for the email and the tests)."""
    attrs = f" {_option_attrs(options[0])}" if options else ""

    def act(o: dict[str, str]) -> str:
        # the visible word starts the accessible name (WCAG label-in-name), the full label follows
        word = verb(o["id"], say)
        return (
            f'<button type="button" class="pic-act" hidden {_option_attrs(o)} aria-label="{esc(word)}: {esc(o["label"])}">'
            f"{esc(word)}</button>"
        )

    buttons = f'<span class="pic-acts">{"".join(act(o) for o in options)}</span>' if options[1:] else ""
    html = f'<div class="pic {esc(css)}" data-card-id="{esc(key)}" data-name="{esc(name)}"{attrs}>{svg}</div>{buttons}'
    if buttons:
        html = f'<div class="pic-with-acts">{html}</div>'
    return {"html": html, "svg": svg, "id": key, "name": name, "lines": lines, "options": options, **extra}


def trophy_svg(label: str = "winner") -> str:
    """The winner's cup, drawn: an emoji needs a font that a player's machine may not have."""
    gold, rim = "#c9a227", "#7a5a00"
    return (
        f'<svg class="trophy" viewBox="0 0 24 24" width="20" height="20" role="img" aria-label="{esc(label)}" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{esc(label)}</title>'
        f'<path d="M7 3h10v4a5 5 0 0 1-10 0z" fill="{gold}" stroke="{rim}" stroke-width="1.2"/>'
        f'<path d="M7 5H4a3 3 0 0 0 3 4M17 5h3a3 3 0 0 1-3 4" fill="none" stroke="{rim}" stroke-width="1.4"/>'
        f'<path d="M11 12h2v4h-2z" fill="{gold}" stroke="{rim}" stroke-width="1"/>'
        f'<path d="M8 20a4 3 0 0 1 8 0z" fill="{gold}" stroke="{rim}" stroke-width="1.2"/></svg>'
    )
