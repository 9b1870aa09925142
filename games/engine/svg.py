"""The drawing kit beside the rules kit: shared SVG pieces for the titles' drawings (cards, card backs, dice,
chips). No Django import.

Every string that goes into the SVG is escaped here, so a title's module can pass card data as is.
Text is a non-italic sans-serif (Café Romantica's erratum, kept for every title) and every colour
pair used for text meets WCAG AA (4.5:1) for small text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Any

FONT = "Arial, Helvetica, 'Liberation Sans', 'DejaVu Sans', sans-serif"
INK = "#1f1a17"  # on every light fill below: at least 12:1
W, H = 120, 168  # a card's viewBox, poker proportions
# The smallest text on a card meant to be read on a phone, in viewBox units: the titles' CSS draws
# such cards at least 146 px wide (120 units), so 11 units are at least 13.4 px, the page's small text.
READABLE = 11.0


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


def wrap(text: str, width: float, size: float) -> list[str]:
    """Words broken into lines that fit `width` at font `size` (a sans-serif averages ~0.53 em)."""
    per_line = max(4, int(width / (size * 0.53)))
    lines: list[str] = []
    line = ""
    for word in text.split():
        while len(word) > per_line:  # a very long word is cut, never overflows
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:per_line])
            word = word[per_line:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= per_line:
            line += " " + word
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def fit(
    text: str, width: float, height: float, sizes: tuple[float, ...] = (10.5, 9.5, 8.5, 7.5, 7, 6.5)
) -> tuple[float, list[str]]:
    """The largest size at which `text` fits the box; at the smallest, the lines that fit end with '…'."""
    for size in sizes:
        lines = wrap(text, width, size)
        if len(lines) * size * 1.18 <= height:
            return size, lines
    size = sizes[-1]
    lines = wrap(text, width, size)
    keep = max(1, int(height / (size * 1.18)))
    if len(lines) > keep:
        lines = lines[:keep]
        lines[-1] = lines[-1].rstrip(".,;") + "…"
    return size, lines


def text_block(
    lines: list[str], x: float, y: float, size: float, *, weight: str = "normal", fill: str = INK, anchor: str = "start"
) -> str:
    if not lines:
        return ""
    spans = "".join(
        f'<tspan x="{x:g}" dy="{0 if i == 0 else size * 1.18:.2f}">{esc(t)}</tspan>' for i, t in enumerate(lines)
    )
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" font-weight="{weight}" font-style="normal" '
        f'fill="{fill}" text-anchor="{anchor}">{spans}</text>'
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
    return (
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="#ffffff" stroke="{tone.band}" stroke-width="2"/>'
        f'<text x="{cx:g}" y="{cy + size * 0.36:.2f}" font-size="{size}" font-weight="bold" fill="{INK}" '
        f'text-anchor="middle">{esc(text)}</text>'
    )


def chips_svg(chips: list[str], x0: float, y0: float, width: float, tone: Tone, least: float = 0) -> tuple[str, float]:
    """Small rounded word chips, wrapped; returns the SVG and the y below them."""
    out = []
    size = max(7.5, least)
    x, y, h = x0, y0, round(size * 1.6, 1)
    for chip in chips:
        w = len(chip) * size * 0.56 + 8
        if x > x0 and x + w > x0 + width:
            x, y = x0, y + h + 2
        w = min(w, width)
        out.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h}" rx="6" fill="#ffffff" stroke="{tone.edge}"/>'
            f'<text x="{x + w / 2:.1f}" y="{y + h * 0.72:.1f}" font-size="{size:g}" fill="{INK}" '
            f'text-anchor="middle">{esc(chip)}</text>'
        )
        x += w + 3
    return "".join(out), (y + h + 3 if chips else y0)


def card_svg(face: Face, css: str = "pic-card-svg", least: float = 0) -> str:
    """One card as an inline SVG with a <title> and an aria-label carrying every word on it.

    `least`: the smallest text size allowed (READABLE for cards whose text is read on a phone); text
    that does not fit at it is cut with "…" (every word stays in the label, the tooltip and the words).
    """
    tone = TONES.get(face.tone, TONES["brown"])
    pile = ""
    pad = 0
    if face.count is not None and face.count > 1:
        pad = 4  # two edges peeking out behind: a pile
        pile = (
            f'<rect x="5" y="5" width="{W - 6}" height="{H - 6}" rx="8" fill="{tone.body}" stroke="{tone.edge}"/>'
            f'<rect x="2.5" y="2.5" width="{W - 6}" height="{H - 6}" rx="8" fill="{tone.body}" stroke="{tone.edge}"/>'
        )
    w, h = W - (6 if pad else 2), H - (6 if pad else 2)
    parts = [
        f'<svg class="{css}" viewBox="0 0 {W} {H}" role="img" aria-label="{esc(face.label)}" '
        f'xmlns="http://www.w3.org/2000/svg" font-family="{esc(FONT)}" font-style="normal">',
        f"<title>{esc(face.label)}</title>",
        pile,
        f'<rect x="1" y="1" width="{w}" height="{h}" rx="8" fill="{tone.body}" stroke="{tone.edge}" stroke-width="1.5"/>',
        f'<path d="M1 9a8 8 0 0 1 8-8h{w - 16}a8 8 0 0 1 8 8v23h-{w}z" fill="{tone.band}"/>',
    ]
    left = 8
    if face.corner != "":
        parts.append(_badge(14, 16.5, face.corner, tone, least=least))
        left = 27
    right = w - 4
    tag_size = max(8.0, least)
    tag_w = len(face.tag) * tag_size * 0.58 + 8 if face.tag else 0
    if face.tag:
        th = tag_size + 5
        parts.append(
            f'<rect x="{w - tag_w - 2:.1f}" y="36" width="{tag_w:.1f}" height="{th:g}" rx="{th / 2:g}" fill="{tone.band}"/>'
            f'<text x="{w - 2 - tag_w / 2:.1f}" y="{36 + th / 2 + tag_size * 0.36:.1f}" font-size="{tag_size:g}" '
            f'font-weight="bold" fill="#ffffff" text-anchor="middle">{esc(face.tag)}</text>'
        )
    size, name_lines = fit(face.name, right - left, 27, sizes=at_least((10.5, 9.5, 8.5, 7.5), least))
    name_lines = name_lines[:2]
    top = 16.5 + size * 0.36 - (size * 0.59 if len(name_lines) == 2 else 0)
    parts.append(text_block(name_lines, left, top, size, weight="bold", fill="#ffffff"))
    y = 46
    if face.kind:
        tag_room = (tag_w + 4) if face.tag else 0
        ks, kl = fit(face.kind, w - 12 - tag_room, max(10, least * 1.2), sizes=at_least((8, 7), least))
        parts.append(text_block(kl[:1], 7, y + max(0, ks - 8), ks, fill=INK))
        y += 8 + max(0, ks - 8) * 2
    else:
        y = (52 if face.tag else 40) + (max(0, tag_size - 8) if face.tag else 0)
    chips, y = chips_svg(face.chips, 6, y, w - 10, tone, least=least)
    parts.append(chips)
    foot_h = 0
    if face.foot:
        fs, fl = fit(face.foot, w - 12, 32, sizes=at_least((8.5, 8, 7.5, 7, 6.5), least))
        foot_h = len(fl) * fs * 1.18 + 5
        fy = h - foot_h + fs + 1
        parts.append(
            f'<line x1="6" x2="{w - 5}" y1="{h - foot_h - 1:.1f}" y2="{h - foot_h - 1:.1f}" stroke="{tone.edge}"/>'
        )
        parts.append(text_block(fl, 7, fy, fs, fill=INK))
    if face.body:
        # the count badge sits in the bottom corner: the text stops above it
        room = h - y - foot_h - 6 - (max(10.0, least) + 6 if face.count is not None and not face.foot else 0)
        bs, bl = fit(face.body, w - 12, room, sizes=at_least((10.5, 9.5, 8.5, 7.5, 7, 6.5), least))
        parts.append(text_block(bl, 7, y + bs + 2, bs, fill=INK))
    if face.count is not None:
        label = f"×{face.count}"
        cs = max(10.0, least)
        cw = len(label) * cs * 0.6 + 10
        ch = cs + 5
        parts.append(
            f'<rect x="{w - cw - 3:.1f}" y="{h - ch - 3:.1f}" width="{cw:.1f}" height="{ch:g}" rx="{ch / 2:g}" fill="{INK}"/>'
            f'<text class="count" x="{w - 3 - cw / 2:.1f}" y="{h - 3 - ch / 2 + cs * 0.36:.1f}" font-size="{cs:g}" '
            f'font-weight="bold" fill="#ffffff" text-anchor="middle">{esc(label)}</text>'
        )
    if face.dim:
        parts.append(f'<rect x="1" y="1" width="{w}" height="{h}" rx="8" fill="#ffffff" fill-opacity="0.55"/>')
    parts.append("</svg>")
    return "".join(parts)


def back_svg(
    label: str,
    lines: list[str],
    tone: str = "brown",
    count: int | None = None,
    css: str = "pic-card-svg",
    least: float = 0,
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
    body = "".join(
        text_block(
            wrap(line, w - 16, max(11 if i == 0 else 9, least)),
            w / 2 + 1,
            70 + i * 24,
            max(11 if i == 0 else 9, least),
            weight="bold" if i == 0 else "normal",
            fill="#ffffff",
            anchor="middle",
        )
        for i, line in enumerate(lines)
    )
    return (
        f'<svg class="{css} back" viewBox="0 0 {W} {H}" role="img" aria-label="{esc(label)}" '
        f'xmlns="http://www.w3.org/2000/svg" font-family="{esc(FONT)}" font-style="normal">'
        f"<title>{esc(label)}</title>{pile}"
        f'<rect x="1" y="1" width="{w}" height="{h}" rx="8" fill="{t.band}" stroke="{t.edge}" stroke-width="1.5"/>'
        f'<rect x="8" y="8" width="{w - 14}" height="{h - 14}" rx="5" fill="none" stroke="#ffffff" '
        f'stroke-opacity="0.6" stroke-dasharray="3 3"/>{body}</svg>'
    )


def empty_svg(label: str, css: str = "pic-card-svg", least: float = 0) -> str:
    """An empty place on the table (a bought field slot, an empty kitchen entrance)."""
    return (
        f'<svg class="{css} empty" viewBox="0 0 {W} {H}" role="img" aria-label="{esc(label)}" '
        f'xmlns="http://www.w3.org/2000/svg" font-family="{esc(FONT)}" font-style="normal">'
        f"<title>{esc(label)}</title>"
        f'<rect x="2" y="2" width="{W - 4}" height="{H - 4}" rx="8" fill="none" stroke="#6f6a66" '
        f'stroke-width="1.5" stroke-dasharray="5 4"/>'
        f"{text_block(wrap(label, W - 20, max(9, least)), W / 2, H / 2, max(9, least), fill='#4d4844', anchor='middle')}"
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


def verb(option_id: str) -> str:
    """A short button word from an option id: "serve:latte" -> "Serve"."""
    head = option_id.split(":", 1)[0] if ":" in option_id else "Pick"
    return head.replace("_", " ").capitalize()


def pic(
    svg: str, *, key: str, name: str, lines: list[str], options: list[dict[str, str]], css: str = "", **extra: Any
) -> dict[str, Any]:
    """One drawn thing for a template: its HTML (the SVG in a tappable wrapper when it answers the
    question), and what it is in words (for the email and the tests)."""
    attrs = f" {_option_attrs(options[0])}" if options else ""

    def act(o: dict[str, str]) -> str:
        # the visible word starts the accessible name (WCAG label-in-name), the full label follows
        word = verb(o["id"])
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
