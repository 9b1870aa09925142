"""A new table: options, the town, the reminiscence deck and the starting houses."""

from __future__ import annotations

import random
from typing import Any

from games.engine import OptionField, OptionsError
from games.engine.cards import content_hash
from games.engine.words import counted

from .cards import load_cardset
from .state import State, log, names

MIN_PLAYERS, MAX_PLAYERS = 2, 6
SELECTIONS = (
    ("recommended", "The rulebook's first-game set"),
    ("random", "Ten at random"),
    ("by_hand", "Ticked below"),
)


def options_schema() -> list[OptionField]:
    cs = load_cardset()
    fields = [
        OptionField(
            "selection",
            "Which ten general maids",
            "choice",
            "recommended",
            choices=SELECTIONS,
            help="By hand: tick exactly ten maids below.",
        )
    ]
    for cid in cs["general"]:
        card = cs["cards"][cid]
        fields.append(
            OptionField(
                f"maid_{cid}",
                f"{card['name']} ({card['cost']})",
                "bool",
                cid in cs["recommended"],
                help="Used only when the maids are chosen by hand.",
            )
        )
    return fields


def _check_cardset(cs: Any) -> dict[str, Any]:
    keys = ("cards", "chiefs", "general", "love", "reminiscences", "recommended", "starting_deck")
    if not isinstance(cs, dict) or any(k not in cs for k in keys):
        raise OptionsError("The stored card set is not a Tanto Cuore: Romantic Vacation card set.")
    return cs


def choose_general(cs: dict[str, Any], options: dict[str, Any], rng: random.Random) -> list[str]:
    """The ten general maid stacks the organiser asked for."""
    selection = options.get("selection", "recommended")
    general = cs["general"]
    if "stacks" in options:
        picked = options["stacks"]
        if not isinstance(picked, list) or not all(isinstance(p, str) for p in picked):
            raise OptionsError("stacks must be a list of general maid ids.")
    elif selection == "recommended":
        picked = list(cs["recommended"])
    elif selection == "random":
        picked = rng.sample(general, 10)
    elif selection == "by_hand":
        picked = [cid for cid in general if options.get(f"maid_{cid}") is True]
    else:
        raise OptionsError(f"Unknown maid selection {selection!r}: pick recommended, random or by_hand.")
    unknown = [p for p in picked if p not in general]
    if unknown:
        raise OptionsError(f"Not a general maid of this set: {', '.join(unknown)}.")
    if len(set(picked)) != 10:
        raise OptionsError(f"Pick exactly ten different general maids (you picked {len(set(picked))}).")
    cards = cs["cards"]
    return sorted(picked, key=lambda c: (cards[c]["cost"], cards[c]["name"]))


def setup(players: list[str], options: dict[str, Any], rng: random.Random) -> State:
    n = len(players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise OptionsError(f"Tanto Cuore: Romantic Vacation takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}.")
    if "cardset" in options:  # the set stored in the game's first event
        cs = _check_cardset(options["cardset"])
        cs_hash = content_hash(cs["cards"])
    else:
        cs = load_cardset()
        cs_hash = cs["hash"]
    cards = cs["cards"]
    general = choose_general(cs, options, rng)
    cut = 3 if n == 2 else 0  # rule note 11: two players remove 3 from each maid stack
    love_sets = 2 if n >= 5 else 1
    start = cs["starting_deck"]

    town: dict[str, int] = {}
    for cid in cs["chiefs"] + general:
        town[cid] = cards[cid]["copies"] - start.get(cid, 0) * n - cut
    for cid in cs["love"]:
        town[cid] = cards[cid]["copies"] * love_sets - start.get(cid, 0) * n
    short = [cid for cid, k in town.items() if k < 0]
    if short:
        raise OptionsError(f"The card set has too few {', '.join(short)} for {n} players.")

    # Reminiscences: category 1 shuffled on top of category 2; two players keep one of each kind.
    piles: dict[int, list[str]] = {1: [], 2: []}
    for rid in cs["reminiscences"]:
        r = cards[rid]
        piles[r["category"]].extend([rid] * (1 if n == 2 else r["copies"]))
    rng.shuffle(piles[1])
    rng.shuffle(piles[2])
    remi_deck = piles[2] + piles[1]  # the top is the end of the list
    row = [remi_deck.pop() for _ in range(min(3, len(remi_deck)))]

    seats = []
    for _ in range(n):
        deck = [cid for cid, k in start.items() for _ in range(k)]
        rng.shuffle(deck)
        hand = [deck.pop() for _ in range(min(5, len(deck)))]
        seats.append({"deck": deck, "hand": hand, "discard": [], "played": [], "quarters": [], "memories": []})

    totals: dict[str, int] = dict(town)
    for cid, k in start.items():
        totals[cid] = totals.get(cid, 0) + k * n
    for rid in remi_deck + row:
        totals[rid] = totals.get(rid, 0) + 1

    state: State = {
        "slug": "tanto_cuore_rv",
        "players": list(players),
        "cards": cards,
        "cardset_hash": cs_hash,
        "general": general,
        "maid_stacks": list(cs["chiefs"]) + general,
        "love_stacks": list(cs["love"]),
        "town": town,
        "end_at": 3 if n >= 5 else 2,
        "remi_deck": remi_deck,
        "remi_row": row,
        "seats": seats,
        "totals": totals,
        "turn": {},
        "stage": {"kind": "main"},
        "turns": 0,
        "over": False,
        "end_reason": "",
        "log": [],
    }
    log(state, f"A romantic vacation for {counted(n, 'master')}. General maids: " + names(state, general) + ".")
    log(state, "Everyone calls 5 staff.", {i: f"You call {names(state, seats[i]['hand'])}." for i in range(n)})
    return state
