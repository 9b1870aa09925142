"""What Café says about its things, as messages (games/engine/messages.py): colours, cubes, cards,
cells, turns of a card and the squares. Pure, no Django: the service renders them in the reader's
language. Every id is the English it reads as.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from games.engine.messages import Msg, list_ref, msg, nmsg

from .grid import parse

COLOUR = {
    "yellow": msg("yellow"),
    "brown": msg("brown"),
    "green": msg("green"),
    "red": msg("red"),
}

ROTATION = {
    0: msg("not turned"),
    90: msg("turned 90°"),
    180: msg("turned 180°"),
    270: msg("turned 270°"),
}

_ORDER = ("yellow", "brown", "green", "red")


def colour(c: str) -> Msg:
    return COLOUR.get(c) or msg("%(colour)s", colour=c)


def amount(n: int, c: str) -> Msg:
    """A count of cubes of one colour, as options and the log say it: "2 red"."""
    return msg("%(n)s %(colour)s", n=n, colour=colour(c))


def amounts(counts: Mapping[str, int]) -> dict[str, Any]:
    """Counts by colour in colour order, as a list the language joins: "1 yellow and 2 red"."""
    return list_ref([amount(counts[c], c) for c in _ORDER if counts.get(c)])


def cubes(n: int, c: str) -> Msg:
    """ "1 red cube", "2 red cubes"."""
    return nmsg("%(n)s %(colour)s cube", "%(n)s %(colour)s cubes", "n", n=n, colour=colour(c))


def card(cid: str) -> Msg:
    """A card's name inside a sentence: "card 17", "initial card 2"."""
    if cid.startswith("start") and cid[5:].isdigit():
        return msg("initial card %(number)s", number=int(cid[5:]))
    if cid.startswith("card") and cid[4:].isdigit():
        return msg("card %(number)s", number=int(cid[4:]))
    return msg("card %(number)s", number=cid)


def card_title(cid: str) -> Msg:
    """A card's name on its own, as a heading or label starts: "Card 17", "Initial card 2"."""
    if cid.startswith("start") and cid[5:].isdigit():
        return msg("Initial card %(number)s", number=int(cid[5:]))
    if cid.startswith("card") and cid[4:].isdigit():
        return msg("Card %(number)s", number=int(cid[4:]))
    return msg("Card %(number)s", number=cid)


@lru_cache(maxsize=8192)
def _cell(r: int, c: int) -> Msg:
    return msg("row %(row)s, col %(col)s", row=r, col=c)


def cell(k: str) -> Msg:
    """How a player reads a cell: "row 2, col 3" (the same numbers as the ids)."""
    return _cell(*parse(k))


def at(r: int, c: int) -> Msg:
    return _cell(r, c)
