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
    def __init__(self, size: int = 256):
        self.size = size
        self.d: dict[tuple, tuple[tuple, Any]] = {}

    def get(self, *objs: Any) -> Any:
        hit = self.d.get(tuple(map(id, objs)))
        if hit is not None and all(a is b for a, b in zip(hit[0], objs, strict=True)):
            return hit[1]
        return None

    def put(self, objs: tuple, value: Any) -> Any:
        if len(self.d) >= self.size:
            self.d.clear()
        self.d[tuple(map(id, objs))] = (objs, value)
        return value
