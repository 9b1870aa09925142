"""A new table of Café: the seats' starting areas, the deck (star cards and the random removals by
player count), the cube supply and the first master; and the start of each round (the display
revealed, the draft order), which setup and the end of a round share.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import OptionsError
from games.engine.log import entry
from games.engine.messages import list_ref, msg, nmsg, seat_ref

from . import draft
from .cards import COLOURS, CUBES_PER_COLOUR, load_cardset
from .grid import key
from .words import card

ROUNDS = 8


MAX_ACTIONS = 8


DISPLAY = 3


REMOVE_RANDOM = {4: 0, 3: 0, 2: 8, 1: 16}


def setup(players: list[str], options: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    n = len(players)
    if not 1 <= n <= 4:
        raise OptionsError(msg("Café is played by 1 to 4 players."))
    cardset = options.get("cardset") or _default_cardset()
    first = options.get("first_master", "random")
    if first not in ("random", "first"):
        raise OptionsError(msg("First master must be 'random' or 'first'."))
    cards = cardset["cards"]
    deck = list(cardset["plan"])
    removed: list[str] = []
    if n < 4:
        removed = [c for c in deck if cards[c]["star"]]
        deck = [c for c in deck if not cards[c]["star"]]
    rng.shuffle(deck)
    k = REMOVE_RANDOM[n]
    removed += deck[:k]
    deck = deck[k:]
    seats = []
    for i in range(n):
        start = cards[cardset["initial"][i]]
        seat = {
            "area": {},
            "cubes": {},
            "shops": {},
            "stack": [],
            "warehouse": dict.fromkeys(COLOURS, 1),
            "hand": None,
            "stage": "wait",
            "actions": 1,
            "left": 0,
            "company": start["company"],
        }
        seat["area"] = {key(r, c): code for (r, c), code in zip(_landscape(), start["squares"], strict=True)}
        seat["stack"] = [[start["id"], 0, 0, 0]]
        seats.append(seat)
    master = rng.randrange(n) if first == "random" else 0
    state: dict[str, Any] = {
        "cards": cards,
        "cardset_hash": cardset["hash"],
        "solo": cardset["solo"],
        "names": list(players),
        "round": 1,
        "phase": "draft",
        "master": master,
        "deck": deck,
        "removed": removed,
        "display": [],
        "discard": [],
        "to_pick": [],
        "supply": {c: CUBES_PER_COLOUR - n for c in COLOURS},
        "seats": seats,
        "log": [
            entry(
                nmsg(
                    "%(seat)s takes the master token. %(n)s plan card in the deck.",
                    "%(seat)s takes the master token. %(n)s plan cards in the deck.",
                    "n",
                    seat=seat_ref(master),
                    n=len(deck),
                )
            )
        ],
    }
    start_round(state)
    return state


_DEFAULT: dict[str, Any] = {}


def _default_cardset() -> dict[str, Any]:
    if not _DEFAULT:
        _DEFAULT.update(load_cardset())
    return _DEFAULT


def _landscape() -> list[tuple[int, int]]:
    return [(i // 3, i % 3) for i in range(6)]


def start_round(state: dict[str, Any]) -> None:
    """Reveal the display (mutates `state`, a fresh copy owned by the caller)."""
    state["display"] = state["deck"][:DISPLAY]
    state["deck"] = state["deck"][DISPLAY:]
    state["to_pick"] = draft.order(state["master"], len(state["seats"]))
    shown = list_ref([card(c) for c in state["display"]])
    words = msg(
        "Round %(round)s: %(seat)s (master) reveals %(cards)s.",
        round=state["round"],
        seat=seat_ref(state["master"]),
        cards=shown,
    )
    state["log"] = [*state["log"], entry(words)]
