"""Building Café Romantica states for rule tests: a drafted table, then exact seats and field."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from games.engine import IllegalMove
from games.titles.cafe_romantica import TITLE, load_cardset

CARDS = load_cardset()
MANAGERS = list(CARDS["managers"])
AGENDAS = list(CARDS["agendas"])


def rng(n: int = 0) -> random.Random:
    return random.Random(f"test:{n}")


def drafted(n: int = 3, options: dict[str, Any] | None = None, seed: int = 0) -> dict[str, Any]:
    """A table after the draft: seat i ranks managers from index 2i and agendas from index 3i."""
    state = TITLE.setup([f"P{i}" for i in range(n)], dict(options or {}), rng(seed))
    for s in range(n):
        managers = MANAGERS[2 * s :] + MANAGERS[: 2 * s]
        agendas = AGENDAS[3 * s :] + AGENDAS[: 3 * s]
        state = TITLE.apply(state, s, {"manager": managers, "agendas": agendas}, rng(seed + s + 1))
    return state


def acting(
    state: dict[str, Any], order: list[int], hearts: list[int] | None = None, **seat_changes: Any
) -> dict[str, Any]:
    """A copy of `state` in the action phase with the given turn order and ♥."""
    state = copy.deepcopy(state)
    state["cards"] = CARDS
    state["phase"] = "actions"
    state["order"] = list(order)
    state["acting"] = 0
    state["sealed"] = {}
    if hearts is not None:
        for s, h in enumerate(hearts):
            state["seats"][s]["hearts"] = h
    return state


def seat(state: dict[str, Any], i: int, **changes: Any) -> dict[str, Any]:
    """A copy of `state` with seat i changed (club/focus/done/... given whole)."""
    state = copy.deepcopy(state)
    state["cards"] = CARDS
    state["seats"][i].update(changes)
    return state


def take_from_deck(state: dict[str, Any], card_ids: list[str]) -> None:
    """Remove cards from deck/field (in place) so they can be put in a club without breaking conservation."""
    for c in card_ids:
        if c in state["deck"]:
            state["deck"].remove(c)
        elif c in state["field"]:
            state["field"][state["field"].index(c)] = None
        else:
            raise AssertionError(f"{c} is not in the deck or field")


def give(state: dict[str, Any], i: int, club: dict[str, int] | None = None, focus: list[str] = (), **changes: Any):
    """A copy of `state` where seat i owns `club` (boy -> copies) and focus kinds, taken from deck/field."""
    state = copy.deepcopy(state)
    state["cards"] = CARDS
    me = state["seats"][i]
    for boy, k in (club or {}).items():
        have = me["club"].get(boy, [])
        free = [c for c in state["deck"] + [x for x in state["field"] if x] if c.rsplit("-", 1)[0] == boy]
        ids = free[: k - len(have)]
        take_from_deck(state, ids)
        me["club"] = dict(me["club"], **{boy: have + ids})
    for kind in focus:
        free = [c for c in state["deck"] + [x for x in state["field"] if x] if c.rsplit("-", 1)[0] == kind]
        take_from_deck(state, free[:1])
        me["focus"] = me["focus"] + free[:1]
    me.update(changes)
    return state


def put_in_field(state: dict[str, Any], slot: int, card_id: str) -> dict[str, Any]:
    """A copy with `card_id` moved from the deck into field slot `slot` (the old card goes to the deck)."""
    state = copy.deepcopy(state)
    state["cards"] = CARDS
    if card_id in state["field"]:
        return state
    state["deck"].remove(card_id)
    old = state["field"][slot]
    if old is not None:
        state["deck"].append(old)
    state["field"][slot] = card_id
    return state


class Dice(random.Random):
    """A generator whose die rolls are scripted (shuffles stay seeded)."""

    def __init__(self, rolls: list[int]):
        super().__init__("dice")
        self.rolls = list(rolls)

    def randint(self, a: int, b: int) -> int:
        return self.rolls.pop(0)


def illegal(state, seat_, answer) -> str:
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalMove) as e:
        TITLE.apply(state, seat_, answer, rng())
    assert json.dumps(state, sort_keys=True) == before
    return str(e.value)


def field_state(card: str = "gentleman-1", hearts: tuple[int, ...] = (5, 5, 5)) -> dict[str, Any]:
    """Three drafted seats in the action phase, `card` in the field's bottom row, order 0, 1, 2."""
    state = put_in_field(drafted(3), 4, card)
    return acting(state, [0, 1, 2], hearts=list(hearts))


def said(value: Any, state: dict[str, Any]) -> Any:
    """A message (or a list of them, e.g. a view's log) in English, seats by the state's names."""
    from games.engine.messages import english

    names = dict(enumerate(state["names"]))
    if isinstance(value, list):
        return [english(v, names) for v in value]
    return english(value, names)


def log_of(state: dict[str, Any], seat: int | None) -> list[str]:
    """The log as `seat` reads it, in English."""
    return said(TITLE.view(state, seat)["log"], state)
