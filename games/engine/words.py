"""Counted words for generated sentences: "1 action is", "2 actions are". Pure, no Django.

Every title and the service build sentences around counts ("the 1 action left are lost" was one);
they all agree through these two calls instead of each writing its own `'s' if n != 1`.
"""

from __future__ import annotations

# nouns whose plural is not the noun + "s" (only those the games use)
IRREGULAR = {"entry": "entries", "VP": "VP", "love": "love", "♥": "♥", "coffee": "coffee"}


def noun(n: int | float, word: str, plural: str | None = None) -> str:
    """The word in the number that agrees with `n` ("card" for 1, "cards" for 0 or 2)."""
    if n == 1:
        return word
    return plural or IRREGULAR.get(word) or word + "s"


def counted(n: int | float, word: str, plural: str | None = None) -> str:
    """A number and its noun: counted(1, "card") == "1 card", counted(2, "card") == "2 cards"."""
    shown = f"{n:g}" if isinstance(n, float) else str(n)
    return f"{shown} {noun(n, word, plural)}"


def agree(n: int | float, one: str, many: str) -> str:
    """The verb that agrees with a count: agree(1, "is", "are") == "is"."""
    return one if n == 1 else many
