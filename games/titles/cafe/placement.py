"""Placing a plan card on the business area: which placements are legal, and what one does.

A placement is the card's top-left footprint cell and a clockwise rotation. It is legal when the
6 squares cover exactly 2, 3 or 4 visible squares and at least one cup stays visible. Its stable id
is "card17@r2c3:rot90", so a page, an email reply and a bot all name it the same way.
"""

from __future__ import annotations

import re
from functools import lru_cache, partial
from typing import Any, NamedTuple

from games.engine import IllegalMove
from games.engine.messages import msg, nmsg

from .cards import FOOTPRINT, OFFSETS, ROTATIONS
from .grid import key, parse
from .memo import Memo

MIN_COVER, MAX_COVER = 2, 4
_ID = re.compile(r"^(card\d+)@r(-?\d+)c(-?\d+):rot(0|90|180|270)$")


class Placement(NamedTuple):
    """A legal placement (an immutable record, cheap to build: a prompt lists dozens)."""

    id: str
    row: int
    col: int
    rot: int
    covered: int


def placement_id(card_id: str, r: int, c: int, rot: int) -> str:
    return card_id + _where(r, c, rot)


@lru_cache(maxsize=4096)
def _where(r: int, c: int, rot: int) -> str:
    """The part of a placement id after the card id: "@r2c3:rot90"."""
    return f"@r{r}c{c}:rot{rot}"


# Placement(...) without the Python-level __new__ of a NamedTuple (as its own _make does): a prompt
# builds dozens of placements.
_new_placement = partial(tuple.__new__, Placement)


def parse_id(pid: str) -> tuple[str, int, int, int]:
    m = _ID.match(pid) if isinstance(pid, str) else None
    if not m:
        raise IllegalMove(msg("That is not a placement: pick one from the list."))
    return m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))


def cells_of(r: int, c: int, rot: int) -> list[str]:
    """Cell keys of square 0..5 of a card placed with top-left (r, c) and this rotation."""
    return [key(r + dr, c + dc) for dr, dc in OFFSETS[rot]]


def rotations_for(card: dict[str, Any]) -> tuple[int, ...]:
    """Turning a card that looks the same upside down by 180 degrees changes nothing: offer each look once."""
    sq = card["squares"]
    if all(sq[i] == sq[5 - i] for i in range(6)):
        return (0, 90)
    return ROTATIONS


def check(area: dict[str, str], card: dict[str, Any], r: int, c: int, rot: int) -> int:
    """The number of squares covered; IllegalMove in a player's words when the placement breaks a rule."""
    covered = 0
    covered_cups = 0
    for k in cells_of(r, c, rot):
        code = area.get(k)
        if code is not None:
            covered += 1
            covered_cups += code == "cup"
    if not MIN_COVER <= covered <= MAX_COVER:
        if covered == 0:
            raise IllegalMove(msg("That placement covers no square; a card must cover 2, 3 or 4 visible squares."))
        raise IllegalMove(
            nmsg(
                "That placement covers %(n)s square; a card must cover 2, 3 or 4 visible squares.",
                "That placement covers %(n)s squares; a card must cover 2, 3 or 4 visible squares.",
                "n",
                n=covered,
            )
        )
    cups = sum(1 for code in area.values() if code == "cup")
    if cups - covered_cups + card["cups"] < 1:
        raise IllegalMove(msg("That placement would hide your last cup; keep at least one cup visible."))
    return covered


_memo = Memo()


def _prefix_sums(cells: list[tuple[int, int]], rows: int, cols: int) -> list[list[int]]:
    """2-D prefix sums of the marked cells: [i][j] counts those in rows < i and columns < j."""
    grid = [[0] * (cols + 1) for _ in range(rows + 1)]
    for r, c in cells:
        grid[r + 1][c + 1] = 1
    for i in range(1, rows + 1):
        row, prev = grid[i], grid[i - 1]
        acc = 0
        for j in range(1, cols + 1):
            acc += row[j]
            row[j] = prev[j] + acc
    return grid


def legal_placements(area: dict[str, str], card: dict[str, Any]) -> list[Placement]:
    """Every legal placement, in a fixed order (rotation, then row, then column).

    Covered squares and hidden cups of each footprint come from 2-D prefix sums over the area's
    bounding box, so the whole list costs about one pass over the positions.
    """
    hit = _memo.get(area, card)
    if hit is not None:
        return hit
    cells = []
    cups = 0
    for k, code in area.items():
        r, c = parse(k)
        is_cup = code == "cup"
        cells.append((r, c, is_cup))
        cups += is_cup
    top = min(x[0] for x in cells)
    left = min(x[1] for x in cells)
    bottom = max(x[0] for x in cells)
    right = max(x[1] for x in cells)
    # grid with a 3-cell margin on every side; prefix sums have an extra leading row and column
    pad = 3
    rows = bottom - top + 1 + 2 * pad
    cols = right - left + 1 + 2 * pad
    need_hidden_max = cups + card["cups"] - 1  # hiding more cups than this leaves none
    check_cups = need_hidden_max < MAX_COVER  # else no footprint covers that many squares
    occ = _prefix_sums([(r - top + pad, c - left + pad) for r, c, _ in cells], rows, cols)
    cup = (
        _prefix_sums([(r - top + pad, c - left + pad) for r, c, is_cup in cells if is_cup], rows, cols)
        if check_cups
        else occ
    )
    out: list[Placement] = []
    cid = card["id"]
    for rot in rotations_for(card):
        h, w = FOOTPRINT[rot]
        # footprint top-left (grid coords) from where it can touch the area to where it still does
        for gi in range(pad - h + 1, rows - pad):
            o0, o1 = occ[gi], occ[gi + h]
            c0, c1 = cup[gi], cup[gi + h]
            r = gi - pad + top
            for gj in range(pad - w + 1, cols - pad):
                covered = o1[gj + w] - o0[gj + w] - o1[gj] + o0[gj]
                if 2 <= covered <= 4:
                    if not check_cups or c1[gj + w] - c0[gj + w] - c1[gj] + c0[gj] <= need_hidden_max:
                        c = gj - pad + left
                        out.append(_new_placement((cid + _where(r, c, rot), r, c, rot, covered)))
    return _memo.put((area, card), out)


def place(
    seat: dict[str, Any], card: dict[str, Any], r: int, c: int, rot: int
) -> tuple[dict[str, Any], dict[str, int]]:
    """A new seat dict with the card on top, and the cubes sent back to the supply by colour.

    Cubes on covered squares go back; a shop that loses a square can never be fully visible again,
    so its cubes go back too.
    """
    area = dict(seat["area"])
    cubes = seat["cubes"]
    shops = seat["shops"]
    back: dict[str, int] = {}
    new_cubes = None
    new_shops = None
    for k, code in zip(cells_of(r, c, rot), card["squares"], strict=True):
        old = area.get(k)
        if old is not None:
            if k in cubes:
                if new_cubes is None:
                    new_cubes = dict(cubes)
                colour, n = new_cubes.pop(k)
                back[colour] = back.get(colour, 0) + n
            if old.startswith("shop:"):
                sid = old[5:]
                if new_shops is None:
                    new_shops = dict(shops)
                held = new_shops.pop(sid, None)
                if held:
                    for colour, n in held.items():
                        back[colour] = back.get(colour, 0) + n
        area[k] = code
    out = dict(seat)
    out["area"] = area
    if new_cubes is not None:
        out["cubes"] = new_cubes
    if new_shops is not None:
        out["shops"] = new_shops
    out["stack"] = [*seat["stack"], [card["id"], r, c, rot]]
    return out, back
