"""Helpers on the plain-data state: copying for apply, calling staff, the log, counting.

The state is a dict of JSON data. `clone` copies everything a step may change and shares the
static card table, so apply never mutates its input and never deep-copies the whole state.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import entry
from games.engine.words import counted

State = dict[str, Any]
ZONES = ("deck", "hand", "discard", "played", "quarters", "memories")


def clone(state: State) -> State:
    s = dict(state)
    s["town"] = dict(state["town"])
    s["seats"] = [{z: list(seat[z]) for z in ZONES} for seat in state["seats"]]
    s["turn"] = dict(state["turn"])
    s["stage"] = {k: (list(v) if isinstance(v, list) else v) for k, v in state["stage"].items()}
    s["remi_deck"] = list(state["remi_deck"])
    s["remi_row"] = list(state["remi_row"])
    s["log"] = list(state["log"])
    return s


def name(s: State, cid: str) -> str:
    return s["cards"][cid]["name"]


def names(s: State, cids: list[str]) -> str:
    """'Evita Catala, 1 Love and 1 Love' (or 'nothing')."""
    if not cids:
        return "nothing"
    parts = [name(s, c) for c in cids]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def who(s: State, seat: int) -> str:
    return s["players"][seat]


def log(s: State, text: str, private: dict[int, str] | None = None) -> None:
    s["log"].append(entry(text, private))


def take_top(s: State, seat: int, rng: random.Random) -> str | None:
    """The top card of a waiting room, shuffling the kitchen entrance in only when it is empty."""
    zone = s["seats"][seat]
    if not zone["deck"]:
        if not zone["discard"]:
            return None
        zone["deck"] = zone["discard"]
        zone["discard"] = []
        rng.shuffle(zone["deck"])
        log(s, f"{who(s, seat)}'s kitchen entrance rushes into the waiting room (shuffled).")
    return zone["deck"].pop()


def call(s: State, seat: int, n: int, rng: random.Random, why: str = "") -> list[str]:
    """Draw n cards into the hand (fewer if the whole house runs dry) and log it privately."""
    got: list[str] = []
    for _ in range(n):
        c = take_top(s, seat, rng)
        if c is None:
            break
        got.append(c)
    s["seats"][seat]["hand"].extend(got)
    if n:
        short = "" if len(got) == n else f" (only {len(got)} left)"
        log(
            s,
            f"{who(s, seat)} calls {counted(len(got), 'staff member')}{why}{short}.",
            {seat: f"You call {names(s, got)}{why}."},
        )
    return got


def instance_ids(cids: list[str]) -> list[tuple[str, str]]:
    """Stable option ids for cards that may repeat: 'love_1', 'love_1#2', ... (copies are alike)."""
    seen: dict[str, int] = {}
    out = []
    for c in cids:
        k = seen.get(c, 0) + 1
        seen[c] = k
        out.append((c if k == 1 else f"{c}#{k}", c))
    return out


def kind_of(option_id: str) -> str:
    return option_id.split("#", 1)[0]


def unique(cids: list[str]) -> list[str]:
    return list(dict.fromkeys(cids))


def by_cost(s: State, cids: list[str]) -> list[str]:
    """Dearest first, then by name: a stable order for options."""
    cards = s["cards"]
    return sorted(cids, key=lambda c: (-(cards[c]["cost"] or 0), cards[c]["name"]))


def remove_all(zone: list[str], cids: list[str]) -> None:
    for c in cids:
        zone.remove(c)


def empty_maid_stacks(s: State) -> list[str]:
    return [m for m in s["maid_stacks"] if s["town"][m] == 0]


def owned(seat: dict[str, list[str]]) -> list[str]:
    """Every staff card a house holds (not reminiscences)."""
    return seat["deck"] + seat["hand"] + seat["discard"] + seat["played"] + seat["quarters"]
