"""Café: the table as shapes to draw, from a seat's view data (pure Python, no Django).

`picture(data)` takes `view(state, seat)["data"]` and returns what the page's SVG and the email's
HTML table are drawn from: every business area as a grid of cells (positions in SVG units of
`UNIT` per square, the card outlines, cubes as small squares with a colour letter, shops with
their needs), the plan cards on offer and in hand, and each legal placement as a footprint to
preview. Nothing here is hidden information: it only rearranges what the view already shows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.engine.messages import card_ref, english, list_ref, msg, nmsg
from games.engine.svg import ASCENT, FONT, INK, LINE, esc, text_block, wrap

from .view import card_view
from .words import ROTATION, amount, at, cubes
from .words import card as card_name
from .words import colour as colour_word

# What turns a message into words for the SVG strings drawn here: English unless the service gives
# the reader's (`draw(..., say=...)`, `card_face(..., say=...)`); every other text in a picture is a
# message the service renders with the page.
Say = Callable[[Any], str]

UNIT = 100  # SVG units per square
AXIS = 34  # room for the row and column numbers of the seat's own area
CUBE = 20  # a cube's side, in SVG units
COLOURS = ("yellow", "brown", "green", "red")
# a cube's colour letter, as the drawing and the email show it on a cube and in codes like "2R"
LETTER = {"yellow": msg("Y"), "brown": msg("B"), "green": msg("G"), "red": msg("R")}
KIND_WORDS = {"dry": msg("Dry"), "cup": msg("Cup"), "ship": msg("Ship"), "blank": ""}
EMAIL_CODE = {"dry": msg("Dry"), "cup": msg("Cup"), "ship": msg("Ship"), "blank": "·", "shop": msg("Shop")}
KIND_SAY = {
    "dry": msg("dry square"),
    "cup": msg("cup square"),
    "ship": msg("ship square"),
    "blank": msg("empty square"),
}
BEAN_WORD = {"yellow": msg("Yellow"), "brown": msg("Brown"), "green": msg("Green"), "red": msg("Red")}


def square_look(info: dict[str, Any]) -> dict[str, Any]:
    """How one square looks: CSS classes, the word on it, a short code for email, words for a screen reader."""
    kind = info["kind"]
    if kind == "bean":
        bean = info["colour"]
        return {
            "cls": f"k-bean c-{bean}",
            "word": BEAN_WORD.get(bean, bean),
            "small": msg("bean"),
            "code": LETTER[bean],
            "say": msg("%(colour)s bean square", colour=colour_word(bean)),
        }
    if kind == "roast":
        star = info.get("star", False)
        return {
            "cls": "k-roast star" if star else "k-roast",
            "word": msg("Roast★") if star else msg("Roast"),
            "small": msg("red: 2 acts") if star else "",
            "code": msg("Rst★") if star else msg("Rst"),
            "say": msg("roast square with a star (red costs 2 actions)") if star else msg("roast square"),
        }
    if kind == "shop":
        return {
            "cls": "k-shop",
            "word": msg("Shop"),
            "small": "",
            "code": msg("Shop"),
            "say": msg("coffee shop square"),
        }
    return {
        "cls": f"k-{kind}",
        "word": KIND_WORDS.get(kind, kind.capitalize()),
        "small": "",
        "code": EMAIL_CODE.get(kind, kind[:4].capitalize()),
        "say": KIND_SAY.get(kind) or msg("%(kind)s square", kind=kind),
    }


def _cubes(colour: str, count: int, x0: int, y0: int, per_row: int = 4) -> list[dict[str, Any]]:
    """Small squares, one a cube, in rows of `per_row` (more than 8 show as 7 and a '+n')."""
    shown = count if count <= 8 else 7
    out = []
    for i in range(shown):
        out.append(
            {
                "x": x0 + (i % per_row) * (CUBE + 3),
                "y": y0 + (i // per_row) * (CUBE + 3),
                "colour": colour,
                "letter": LETTER[colour],
            }
        )
    more = (
        {"x": x0 + 3 * (CUBE + 3) + CUBE // 2, "y": y0 + CUBE + 3 + 16, "text": f"+{count - shown}"}
        if count > 8
        else None
    )
    return [*out, *([more] if more else [])]


def _need_cubes(need: dict[str, int], held: dict[str, int], x0: int, y0: int, per_row: int) -> list[dict[str, Any]]:
    """A shop's needs as cube outlines, filled where a cube is already there."""
    out = []
    i = 0
    for colour in COLOURS:
        n = need.get(colour, 0)
        have = held.get(colour, 0)
        for j in range(n):
            out.append(
                {
                    "x": x0 + (i % per_row) * (CUBE + 3),
                    "y": y0 + (i // per_row) * (CUBE + 3),
                    "colour": colour,
                    "letter": LETTER[colour],
                    "held": j < have,
                }
            )
            i += 1
    return out


def _codes(counts: dict[str, int]) -> Any:
    """Counts by colour as short codes, "1Y 2B": each letter a message, so each language letters its own."""
    out: Any = ""
    for c in COLOURS:
        if counts.get(c):
            one = msg("%(n)s%(letter)s", n=counts[c], letter=LETTER[c])
            out = msg("%(codes)s %(code)s", codes=out, code=one) if out else one
    return out


def _need_words(need: dict[str, int]) -> Any:
    return list_ref([amount(need[c], c) for c in COLOURS if need.get(c)])


def _held_words(held: dict[str, int]) -> Any:
    if not any(held.get(c) for c in COLOURS):
        return msg("nothing yet")
    return list_ref([amount(held[c], c) for c in COLOURS if held.get(c)])


def _edges(cells: dict[tuple[int, int], str]) -> str:
    """An SVG path along every side where a card ends (a different card or nothing beyond it)."""
    parts = []
    for (r, c), card in cells.items():
        x, y = c * UNIT, r * UNIT
        if cells.get((r - 1, c)) != card:
            parts.append(f"M{x} {y}h{UNIT}")
        if cells.get((r + 1, c)) != card:
            parts.append(f"M{x} {y + UNIT}h{UNIT}")
        if cells.get((r, c - 1)) != card:
            parts.append(f"M{x} {y}v{UNIT}")
        if cells.get((r, c + 1)) != card:
            parts.append(f"M{x + UNIT} {y}v{UNIT}")
    return "".join(parts)


def _box(rows: list[int], cols: list[int], axis: int) -> dict[str, Any]:
    top, bottom, left, right = min(rows), max(rows), min(cols), max(cols)
    pad = 6
    x, y = left * UNIT - axis - pad, top * UNIT - axis - pad
    w, h = (right - left + 1) * UNIT + axis + 2 * pad, (bottom - top + 1) * UNIT + axis + 2 * pad
    return {
        "top": top,
        "left": left,
        "bottom": bottom,
        "right": right,
        "viewbox": f"{x} {y} {w} {h}",
        "w": w,
        "h": h,
        "cols_n": right - left + 1,
        "rows_n": bottom - top + 1,
    }


def area_picture(seat: dict[str, Any], mine: bool, placements: list[dict[str, Any]] | None) -> dict[str, Any]:
    """One business area: cells, card outlines, shops, and (while placing) the empty slots a card may reach."""
    area = seat["area"]
    rows = [c["row"] for c in area["cells"]]
    cols = [c["col"] for c in area["cells"]]
    for p in placements or []:
        rows += [c["row"] for c in p["cells"]]
        cols += [c["col"] for c in p["cells"]]
    axis = AXIS if mine else 0
    box = _box(rows, cols, axis)
    shops = {s["id"]: s for s in area["shops"]}
    cells = []
    owners: dict[tuple[int, int], str] = {}
    for c in area["cells"]:
        look = square_look(c)
        cube = c["cubes"]
        shop = shops.get(c.get("shop", "")) if c["kind"] == "shop" else None
        closed = c["kind"] == "shop" and shop is None
        say = msg("Row %(row)s, col %(col)s: %(square)s", row=c["row"], col=c["col"], square=look["say"])
        if closed:
            say = msg("%(text)s (partly covered: scores nothing)", text=say)
        if cube:
            say = msg("%(text)s, %(cubes)s", text=say, cubes=cubes(cube["count"], cube["colour"]))
        say = msg("%(text)s (%(card)s)", text=say, card=card_name(c["card"]))
        cells.append(
            {
                **look,
                "row": c["row"],
                "col": c["col"],
                "x": c["col"] * UNIT,
                "y": c["row"] * UNIT,
                "kind": c["kind"],
                "card": c["card"],
                "closed": closed,
                "in_shop": shop is not None,
                "cube_colour": cube["colour"] if cube else "",
                "cube_count": cube["count"] if cube else 0,
                "cubes": _cubes(cube["colour"], cube["count"], 6, 52) if cube else [],
                "email_cubes": _codes({cube["colour"]: cube["count"]}) if cube else "",
                "email_sub": (
                    msg("closed")
                    if closed
                    else msg("✓%(vp)spt", vp=shop["vp"])
                    if shop["supplied"]
                    else msg("%(vp)spt", vp=shop["vp"])
                )
                if c["kind"] == "shop"
                else "",
                "say": say,
            }
        )
        owners[(c["row"], c["col"])] = c["card"]
    shop_shapes = []
    for s in area["shops"]:
        srows = [rc[0] for rc in s["cells"]]
        scols = [rc[1] for rc in s["cells"]]
        wide = max(scols) - min(scols) + 1
        tall = max(srows) - min(srows) + 1
        x, y = min(scols) * UNIT, min(srows) * UNIT
        per_row = 3 if wide == 1 else 7
        in_row = min(sum(s["need"].values()), per_row)
        x0 = x + (wide * UNIT - (in_row * (CUBE + 3) - 3)) // 2
        shop_shapes.append(
            {
                "id": s["id"],
                "x": x + 5,
                "y": y + 5,
                "w": wide * UNIT - 10,
                "h": tall * UNIT - 10,
                "tx": x + wide * UNIT // 2,
                "vp": s["vp"],
                "supplied": s["supplied"],
                "ty": y + 32,
                "need": _need_cubes(s["need"], s["held"], x0, y + 50, per_row),
                "need_words": _need_words(s["need"]),
                "held_words": _held_words(s["held"]),
                "say": _shop_say(s),
            }
        )
    taken = set(owners)
    slots = []
    if placements:
        slots = [
            {"row": r, "col": c, "x": c * UNIT, "y": r * UNIT}
            for r in range(box["top"], box["bottom"] + 1)
            for c in range(box["left"], box["right"] + 1)
            if (r, c) not in taken
        ]
    cubes_total = sum(c["cube_count"] for c in cells)
    return {
        **box,
        "seat": seat["seat"],
        "name": seat["name"],
        "mine": mine,
        "cells": cells,
        "edges": _edges(owners),
        "shops": shop_shapes,
        "slots": slots,
        "axis_cols": [
            {"n": c, "x": c * UNIT + UNIT // 2, "y": box["top"] * UNIT - 10}
            for c in range(box["left"], box["right"] + 1)
        ]
        if mine
        else [],
        "axis_rows": [
            {"n": r, "x": box["left"] * UNIT - 8, "y": r * UNIT + UNIT // 2 + 8}
            for r in range(box["top"], box["bottom"] + 1)
        ]
        if mine
        else [],
        "email_rows": _email_rows(area, cells),
        "email_cols": list(range(area["left"], area["right"] + 1)),
        "cubes_total": cubes_total,
        "say": _area_say(seat["name"], mine, len(cells), cubes_total, len(area["shops"])),
    }


def _shop_say(s: dict[str, Any]) -> Any:
    where = list_ref([at(r, c) for r, c in s["cells"]])
    need, held = _need_words(s["need"]), _held_words(s["held"])
    if s["supplied"]:
        return msg(
            "Coffee shop worth %(vp)s points at %(cells)s: needs %(need)s; has %(held)s; fully supplied",
            vp=s["vp"],
            cells=where,
            need=need,
            held=held,
        )
    return msg(
        "Coffee shop worth %(vp)s points at %(cells)s: needs %(need)s; has %(held)s",
        vp=s["vp"],
        cells=where,
        need=need,
        held=held,
    )


def _area_say(name: Any, mine: bool, squares: int, cubes_total: int, shops: int) -> Any:
    counts = {
        "squares": nmsg("%(n)s square", "%(n)s squares", "n", n=squares),
        "cubes": nmsg("%(n)s cube", "%(n)s cubes", "n", n=cubes_total),
        "shops": nmsg("%(n)s open coffee shop", "%(n)s open coffee shops", "n", n=shops),
    }
    if mine:
        return msg("Your business area: %(squares)s, %(cubes)s, %(shops)s", **counts)
    return msg("%(seat)s's business area: %(squares)s, %(cubes)s, %(shops)s", seat=name, **counts)


def _email_rows(area: dict[str, Any], cells: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The area as rows of table cells for email: one cell a square, blanks where there is no card."""
    at = {(c["row"], c["col"]): c for c in cells}
    out = []
    for r in range(area["top"], area["bottom"] + 1):
        row = []
        for c in range(area["left"], area["right"] + 1):
            cell = at.get((r, c))
            if cell is None:
                row.append({"empty": True})
            else:
                row.append(
                    {
                        "empty": False,
                        "cls": cell["cls"],
                        "code": cell["code"],
                        "cubes": cell["email_cubes"],
                        "sub": cell["email_sub"],
                        "say": cell["say"],
                    }
                )
        out.append({"n": r, "cells": row})
    return out


def card_picture(card: dict[str, Any]) -> dict[str, Any]:
    """A plan card as a small grid (landscape, 3 x 2), with its shops' needs and points."""
    squares = card["squares"]
    cells = []
    for i, sq in enumerate(squares):
        r, c = divmod(i, 3)
        look = square_look(sq)
        cells.append({**look, "x": c * UNIT, "y": r * UNIT, "row": r, "col": c, "kind": sq["kind"]})
    shops = []
    for s in card["shops"]:
        idx = [i for i, sq in enumerate(squares) if sq.get("shop") == s["id"]]
        rows = [i // 3 for i in idx]
        cols = [i % 3 for i in idx]
        wide = max(cols) - min(cols) + 1
        tall = max(rows) - min(rows) + 1
        x, y = min(cols) * UNIT, min(rows) * UNIT
        per_row = 3 if wide == 1 else 7
        in_row = min(sum(s["need"].values()), per_row)
        x0 = x + (wide * UNIT - (in_row * (CUBE + 3) - 3)) // 2
        shops.append(
            {
                "x": x + 5,
                "y": y + 5,
                "w": wide * UNIT - 10,
                "h": tall * UNIT - 10,
                "tx": x + wide * UNIT // 2,
                "vp": s["vp"],
                "ty": y + 32,
                "need": _need_cubes(s["need"], {}, x0, y + 50, per_row),
                "need_words": _need_words(s["need"]),
                "need_code": _codes(s["need"]),
            }
        )
    name = card["name"]
    cost = msg("has a cup: costs a cube unless you show 2 ships") if card["cups"] else msg("no cup: free")
    say = msg(
        "%(card)s: %(squares)s; %(cups)s cup, %(ships)s ship; %(cost)s",
        card=name,
        squares=list_ref([c["say"] for c in cells]),
        cups=card["cups"],
        ships=card["ships"],
        cost=cost,
    )
    for s in shops:
        # with its short code: the card in hand, turned by the page's script, shows "Shop 6" and "1Y 2B"
        say = msg(
            "%(text)s; shop worth %(vp)s points needing %(need)s (%(code)s)",
            text=say,
            vp=s["vp"],
            need=s["need_words"],
            code=s["need_code"],
        )
    return {
        "id": card["id"],
        "name": name,
        "cells": cells,
        "shops": shops,
        "viewbox": f"-4 -4 {3 * UNIT + 8} {2 * UNIT + 8}",
        "cups": card["cups"],
        "ships": card["ships"],
        "star": card["star"],
        "cost": cost,
        "say": say,
    }


# A plan card's colours, as table.css gives them (the page's stylesheet sets the same by class; an
# SVG drawn without it, in the card set preview, carries them itself). Text on each meets WCAG AA.
FILLS = {
    "k-bean c-yellow": "#f3cf55",
    "k-bean c-brown": "#6d4430",
    "k-bean c-green": "#2c6e33",
    "k-bean c-red": "#b3261e",
    "k-dry": "#efe2c4",
    "k-roast": "#3e2a22",
    "k-roast star": "#5a2d1c",
    "k-shop": "#fbe7cf",
    "k-cup": "#ffffff",
    "k-ship": "#d9e8f6",
    "k-blank": "#ecebe8",
}
DARK = {"k-bean c-brown", "k-bean c-green", "k-bean c-red", "k-roast", "k-roast star"}  # white text on these
CUBE_FILL = {"yellow": "#f3cf55", "brown": "#6d4430", "green": "#2c6e33", "red": "#b3261e"}
ICONS = {
    "cup": "M34 40h28v14a14 14 0 0 1-28 0z M62 44h6a6 6 0 0 1 0 12h-6",
    "ship": "M24 58h52l-8 14H32z M48 36v20 M48 36l14 16H48",
}
CAPTION = 15  # the caption's font size, in units (a card drawn 308 px wide: 15 px)


def _text(cls: str, x: float, y: float, text: str, fill: str, size: int, bold: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text class="{cls}" x="{x:g}" y="{y:g}" font-size="{size}"{weight} fill="{fill}" '
        f'text-anchor="middle">{esc(text)}</text>'
    )


def plan_card_svg(
    card: dict[str, Any], attrs: str = "", caption: Any = "", note: Any = "", sized: bool = True, say: Say = english
) -> str:
    """A plan card (card_picture's dict) as a self-contained SVG: its six squares, its shops with the
    cubes they need. The seat page and the card set preview draw the same. `sized`: a width and height
    of a px a unit (the preview); the seat page's stylesheet sizes it instead (at least 300 px wide:
    its smallest text, 14 units, is then the page's small text), and its script may turn the card in
    hand upright, which only the viewBox then shapes. `attrs`: the page's data attributes; `caption`
    and `note`: lines above and under the squares (in the preview: its name, what it costs). `say`: a
    message as the reader's words."""
    caption, note, label = say(caption) if caption else "", say(note) if note else "", say(card["say"])
    width = 3 * UNIT + 8
    above = wrap(caption, width - 8, CAPTION, bold=True) if caption else []
    under = wrap(note, width - 8, CAPTION) if note else []
    top = len(above) * CAPTION * LINE + 6 if above else 0
    bottom = len(under) * CAPTION * LINE + 6 if under else 0
    height = 2 * UNIT + 8 + top + bottom
    size = f' width="{width}" height="{height:.0f}"' if sized else ""
    out = [
        f'<svg class="cafe-card" viewBox="-4 {-4 - top:g} {width} {height:g}"{size} role="img" '
        f'aria-label="{esc(label)}" xmlns="http://www.w3.org/2000/svg" font-family="{esc(FONT)}" '
        f'font-style="normal"{attrs}><title>{esc(label)}</title>'
    ]
    if above:
        out.append(text_block(above, 3 * UNIT / 2, -top + ASCENT * CAPTION, CAPTION, weight="bold", anchor="middle"))
    if under:
        out.append(text_block(under, 3 * UNIT / 2, 2 * UNIT + 8 + ASCENT * CAPTION, CAPTION, anchor="middle"))
    for c in card["cells"]:
        ink = "#ffffff" if c["cls"] in DARK else INK
        out.append(
            f'<g class="cafe-cell {c["cls"]}" transform="translate({c["x"]} {c["y"]})">'
            f'<rect class="sq" width="{UNIT}" height="{UNIT}" fill="{FILLS.get(c["cls"], "#ffffff")}" '
            f'stroke="#8a7866" stroke-width="1.5"/>'
        )
        if c["kind"] != "shop":
            if c["kind"] in ICONS:
                out.append(
                    f'<path class="icon" d="{ICONS[c["kind"]]}" fill="none" stroke="{INK}" stroke-width="4" '
                    'stroke-linejoin="round"/>'
                )
            if c["word"]:
                out.append(_text("w", 50, 30, say(c["word"]), ink, 19, bold=True))
            if c["small"]:
                out.append(_text("s", 50, 47, say(c["small"]), ink, 14))
        out.append("</g>")
    for shop in card["shops"]:
        out.append(
            f'<g class="shop"><rect class="shop-box" x="{shop["x"]}" y="{shop["y"]}" width="{shop["w"]}" '
            f'height="{shop["h"]}" rx="10" fill="#fbe7cf" stroke="#7a3e12" stroke-width="3"/>'
            + _text("s", shop["tx"], shop["y"] + 19, say(msg("Shop")), INK, 14)
            + _text("w", shop["tx"], shop["y"] + 39, say(msg("%(vp)s pts", vp=shop["vp"])), INK, 19, bold=True)
        )
        for q in shop["need"]:
            out.append(
                f'<g class="cube c-{q["colour"]} missing"><rect x="{q["x"]}" y="{q["y"]}" width="{CUBE}" '
                f'height="{CUBE}" rx="3" fill="#ffffff" stroke="#3b2414" stroke-width="2" stroke-dasharray="4 3"/>'
                + _text("", q["x"] + CUBE / 2, q["y"] + 15, say(q["letter"]), INK, 14, bold=True)
                + "</g>"
            )
        out.append("</g>")
    out.append(
        f'<rect class="card-edge" x="0" y="0" width="{3 * UNIT}" height="{2 * UNIT}" rx="6" fill="none" '
        'stroke="#2b1a10" stroke-width="4"/></svg>'
    )
    return "".join(out)


def card_face(data: dict[str, Any], file: str, key: str, say: Say = english) -> str:
    """A plan or initial card of a built set as the seat page draws it, with its name above and what
    it costs under it, for the card set preview ("" for what is not a card: the solo ranks)."""
    card = data.get("cards", {}).get(key) if file in ("plan_cards.yaml", "initial_cards.yaml") else None
    if card is None:
        return ""
    shown = card_view(card)
    name = shown["name"]
    if card.get("company"):
        company = card_ref(card["company"])
        shown["name"] = msg("%(card)s (%(company)s)", card=name, company=company)
        name = msg("%(card)s · %(company)s", card=name, company=company)
    pictured = card_picture(shown)
    if card["cups"]:
        note = msg("Has a cup: costs a cube unless you show 2 ships.")
    else:
        note = msg("No cup: free.")
    if card.get("star"):
        pictured["say"] = msg("%(text)s; ★ Only with 4 players.", text=pictured["say"])
        note = msg("%(cost)s ★ Only with 4 players.", cost=note)
    return plan_card_svg(pictured, caption=name, note=note, say=say)


def _look_with_shop(info: dict[str, Any], shops: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A square's look; a shop square of the card in hand also says its points and needs ("Shop 4", "1Y 1B")."""
    look = square_look(info)
    shop = shops.get(info.get("shop", "")) if info["kind"] == "shop" else None
    if shop:
        look = {**look, "word": msg("Shop %(vp)s", vp=shop["vp"]), "small": _codes(shop["need"])}
    return look


def placement_pictures(placements: list[dict[str, Any]], hand: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Each legal placement as the footprint a page previews: the 6 cells with their looks."""
    shops = {s["id"]: s for s in (hand or {}).get("shops", [])}
    out = []
    for p in placements:
        out.append(
            {
                "id": p["id"],
                "row": p["row"],
                "col": p["col"],
                "rot": p["rot"],
                "covered": p["covered"],
                "text": msg(
                    "top-left at row %(row)s, col %(col)s, %(turn)s, covers %(n)s",
                    row=p["row"],
                    col=p["col"],
                    turn=ROTATION[p["rot"]],
                    n=p["covered"],
                ),
                "cells": [
                    {"row": c["row"], "col": c["col"], "kind": c["kind"]}
                    | {k: v for k, v in _look_with_shop(c, shops).items() if k in ("cls", "word", "small")}
                    for c in p["cells"]
                ],
            }
        )
    return out


def catalogue(state: dict[str, Any]) -> None:
    """Café's card facts travel in the view data itself (cards on offer, in hand, on the table)."""
    return None


def draw(
    view: dict[str, Any],
    cs: Any = None,
    prompt: dict[str, Any] | None = None,
    seat: int | None = None,
    say: Say = english,
):
    """The drawing hook ({% draw_table %}): the picture of one seat's view, with the open question's picks.
    `say` gives the reader's words for the cards' SVG; the rest of the picture holds messages."""
    pic = picture(view["data"], seat)
    picks: dict[str, list[dict[str, str]]] = {}
    options = (prompt or {}).get("options", []) if (prompt or {}).get("kind") == "choose" else []
    for o in options:
        cid = o["id"].split(":")[0]
        if o["id"].startswith("card") and "@" not in o["id"]:
            picks.setdefault(cid, []).append({"id": o["id"], "label": o["label"]})
    for card in pic["offer"]:
        card["picks"] = picks.get(card["id"], [])
        ids = " ".join(p["id"] for p in card["picks"])
        data = f' data-card="{esc(card["id"])}"' + (f' data-picks="{esc(ids)}"' if ids else "")
        card["svg"] = plan_card_svg(card, data, sized=False, say=say)
    if pic["hand"]:
        pic["hand"]["svg"] = plan_card_svg(pic["hand"], f' data-card="{esc(pic["hand"]["id"])}"', sized=False, say=say)
    # a seat that can pay for no card on offer passes: a button beside the cards, like a pick
    pic["pass"] = next(({"id": o["id"], "label": o["label"]} for o in options if o["id"] == "pass"), None)
    return pic


def _chip(c: str, n: int) -> dict[str, Any]:
    """A count of cubes in a warehouse or the supply: its colour id (a CSS class), letter and words."""
    return {"colour": c, "letter": LETTER[c], "n": n, "word": colour_word(c), "say": amount(n, c)}


def picture(data: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
    """Everything the Café page and email draw, from one seat's view data."""
    you = data.get("you") if seat is None else seat
    placements = data.get("placements") or []
    areas = [area_picture(s, s["seat"] == you, placements if s["seat"] == you else None) for s in data["seats"]]
    areas.sort(key=lambda a: (not a["mine"], a["seat"]))
    me = next((s for s in data["seats"] if s["seat"] == you), None)
    hand = me["hand"] if me and me["hand"] else None
    by_seat = {s["seat"]: s for s in data["seats"]}
    for a in areas:
        s = by_seat[a["seat"]]
        a["warehouse"] = [_chip(c, s["warehouse"].get(c, 0)) for c in COLOURS]
        a["warehouse_words"] = list_ref([amount(s["warehouse"].get(c, 0), c) for c in COLOURS])
        a.update({k: s[k] for k in ("company", "master", "stage", "actions", "actions_left", "points")})
    shown = placement_pictures(placements, hand)
    acts = [{"id": a["id"], "cells": a["cells"]} for a in data.get("actions", [])]
    taps = [{"id": a["id"], "label": a["label"], "kind": a["kind"], **a["taps"]} for a in data.get("actions", [])]
    return {
        "client": {
            "placements": shown,
            "actions": acts,
            "taps": taps,
            "picks": data.get("tap_picks", {}),
            "unit": UNIT,
        },
        "areas": areas,
        "offer": [card_picture(c) for c in data["display"]],
        "hand": card_picture(hand) if hand else None,
        "placing": bool(placements),
        "placements": shown,
        "actions": acts,
        "supply": [_chip(c, data["supply"].get(c, 0)) for c in COLOURS],
        "supply_words": list_ref([amount(data["supply"].get(c, 0), c) for c in COLOURS]),
        "unit": UNIT,
    }
