"""Identity memo for derived data of unchanged state parts.

apply() never mutates a state: it copies what changes and shares the rest. So while a seat's area
dict is the same object, everything derived from it (legal placements, groups, prompts) is the
same too. The simultaneous phase asks for every seat's prompt at each step, which makes this the
difference between a fast and a slow engine. An entry keeps its key objects alive, so an id can
not be reused by another object while the entry exists: an identity match is a content match.
(Anyone who mutates a state in place after asking for its prompts would defeat this; the title
contract forbids that, and states loaded from JSON are new objects that simply miss.)
"""

from __future__ import annotations

from typing import Any


class Memo:
    """A few recent results by the identity of their inputs.

    Small on purpose: a hit is wanted within a step or a few (every seat's prompt, then the bot,
    then apply ask for the same thing); a long-lived entry only keeps old states alive and makes
    the garbage collector walk them.
    """

    def __init__(self, size: int = 32):
        self.size = size
        self.d: dict[tuple[int, ...], tuple[tuple, Any]] = {}  # ids of the key objects -> (the objects, value)

    def get(self, *objs: Any) -> Any:
        hit = self.d.get(tuple(map(id, objs)))
        return None if hit is None else hit[1]

    def put(self, objs: tuple, value: Any) -> Any:
        if len(self.d) >= self.size:
            self.d.clear()
        self.d[tuple(map(id, objs))] = (objs, value)
        return value
