"""The business area as a grid: cell keys and orthogonal groups (words.py names cells for players).

An area is {"r,c": square code} for the visible (top) square of every occupied cell. Cells are
whole numbers and may be negative: the initial card lies on rows 0-1, columns 0-2, and the area
grows in any direction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache


def key(r: int, c: int) -> str:
    return f"{r},{c}"


@lru_cache(maxsize=8192)
def parse(k: str) -> tuple[int, int]:
    r, c = k.split(",")
    return int(r), int(c)


@lru_cache(maxsize=8192)
def cell_id(k: str) -> str:
    """The cell part of an option id: 'r2c3'."""
    r, c = parse(k)
    return f"r{r}c{c}"


def reading_order(cells: Iterable[str]) -> list[str]:
    """Top row first, left to right: the fixed order used wherever the rules need one."""
    return sorted(cells, key=parse)


def groups(area: dict[str, str], same: Callable[[str], str | None]) -> list[list[str]]:
    """Orthogonally connected groups of visible squares, across card borders.

    `same(code)` gives a group label (squares join only when labels match) or None to skip the
    square. Each group is in reading order; groups are ordered by their first cell.
    """
    label: dict[tuple[int, int], str] = {}  # by (row, col): reading order is the order of these pairs
    cell_key: dict[tuple[int, int], str] = {}
    for k, code in area.items():
        g = same(code)
        if g is not None:
            pos = parse(k)
            label[pos] = g
            cell_key[pos] = k
    seen: set[tuple[int, int]] = set()
    out: list[list[tuple[int, int]]] = []
    for start in label:
        if start in seen:
            continue
        want = label[start]
        seen.add(start)
        stack = [start]
        members = []
        while stack:
            cell = stack.pop()
            members.append(cell)
            r, c = cell
            for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if n not in seen and label.get(n) == want:
                    seen.add(n)
                    stack.append(n)
        members.sort()
        out.append(members)
    out.sort()
    return [[cell_key[pos] for pos in g] for g in out]


def bounds(area: dict[str, str]) -> tuple[int, int, int, int]:
    """(top, left, bottom, right) of the occupied cells, inclusive."""
    rows, cols = zip(*(parse(k) for k in area), strict=True)
    return min(rows), min(cols), max(rows), max(cols)
