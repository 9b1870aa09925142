"""A new table of Café Romantica: the organiser's options, the card set, the shuffled deck and
field, the choosing order; and small helpers on the state (names, the game's length).
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import OptionsError, entry
from games.engine.messages import list_ref, msg, seat_ref

from .cards import CardDataError, deck_ids, load_cardset

State = dict[str, Any]


def _options(options: dict[str, Any]) -> dict[str, Any]:
    known = {"turn_cap", "pooling", "cardset"}
    unknown = set(options) - known
    if unknown:
        raise OptionsError(f"Unknown option(s): {', '.join(sorted(unknown))}.")
    cap = options.get("turn_cap", 0)
    if isinstance(cap, bool) or not isinstance(cap, int) or not 0 <= cap <= 500:
        raise OptionsError("The turn cap is a whole number of turns from 0 (no cap) to 500.")
    pooling = options.get("pooling", False)
    if not isinstance(pooling, bool):
        raise OptionsError("Pooling ♥ is on or off.")
    return {"turn_cap": cap, "pooling": pooling}


def _cardset(options: dict[str, Any]) -> dict[str, Any]:
    cards = options.get("cardset")
    if cards is None:
        return load_cardset()
    need = {"hosts", "focus", "managers", "agendas", "flyer", "fave_discount", "turn_order"}
    if not isinstance(cards, dict) or not need <= set(cards):
        raise OptionsError(f"The card set must hold {', '.join(sorted(need))}.")
    return cards


def setup(players: list[str], options: dict[str, Any], rng: random.Random) -> State:
    n = len(players)
    if not 2 <= n <= 4:
        raise OptionsError("Café Romantica is for 2 to 4 players.")
    opts = _options(options)
    try:
        cards = _cardset(options)
    except CardDataError as e:
        raise OptionsError(str(e)) from None
    if len(cards["managers"]) < n or len(cards["agendas"]) < 3 * n or len(cards["turn_order"]) < n:
        raise OptionsError(f"This card set has too few managers, agendas or turn order cards for {n} players.")
    if cards["flyer"]["copies"] < n:
        raise OptionsError(f"This card set has only {cards['flyer']['copies']} Recruitment Flyers.")
    deck = deck_ids(cards)
    rng.shuffle(deck)
    field, deck = deck[:8], deck[8:]
    order = list(range(n))
    rng.shuffle(order)
    seats = [
        {"manager": None, "agendas": [], "done": [], "club": {}, "focus": [], "fave": None, "hearts": 0}
        for _ in range(n)
    ]
    return {
        "cards": cards,
        "names": list(players),
        "options": opts,
        "phase": "draft",
        "turn": 0,
        "turns_done": 0,
        "deck": deck,
        "field": field,
        "seats": seats,
        "choose_order": order,
        "sealed": {},
        "order": [],
        "prices": [],
        "acting": 0,
        "rolls": [],
        "dice": [],
        "end": None,
        "winners": None,
        "log": [
            entry(msg("The deck is shuffled and the field dealt: two rows of four.")),
            entry(msg("Choosing order for managers and agendas: %(seats)s.", seats=seats_ref(order))),
        ],
    }


def turns_played(state: State) -> int:
    return state["turns_done"]


def seats_ref(seats: list[int]) -> dict[str, Any]:
    """Seats as a list a player reads ("Ana, Bo and Cy"), each by the player's name of now."""
    return list_ref([seat_ref(s) for s in seats])
