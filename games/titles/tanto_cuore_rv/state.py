"""The table: helpers on the plain-data state (copying for apply, calling staff, the log,
counting), and a new table (the organiser's options, the town, the reminiscence deck and the
starting houses).

The state is a dict of JSON data. `clone` copies everything a step may change and shares the
static card table, so apply never mutates its input and never deep-copies the whole state.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import OptionField, OptionsError, entry
from games.engine.cards import content_hash
from games.engine.messages import Msg, card_ref, list_ref, msg, nmsg, seat_ref

from .cards import load_cardset

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


def name(s: State, cid: str) -> dict[str, str]:
    """A card by its name, read in the reader's language."""
    return card_ref(s["cards"][cid]["name"])


def names(s: State, cids: list[str]) -> Msg | dict[str, list]:
    """'Evita Catala, 1 Love and 1 Love' (or 'nothing'), as the reader's language lists them."""
    if not cids:
        return msg("nothing")
    return list_ref([name(s, c) for c in cids])


def card_text(card: dict[str, Any]) -> Msg | dict[str, str]:
    """A card's rules text as the reader reads it: a love card's is written here, the maids' and
    reminiscences' come from the card data (their `text`, a card word of the catalogue)."""
    if card["type"] == "love":
        return msg("+%(n)s love; no serving needed.", n=card["love"])
    return card_ref(card["text"])


def comma_list(items: list[Any]) -> Any:
    """Items joined by commas ('+1 call, +2 servings', 'Laura x2, Scary Night'), as messages a
    language may join its own way."""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return msg("%(first)s, %(second)s", first=items[0], second=items[1])
    return msg("%(first)s, %(rest)s", first=items[0], rest=comma_list(items[1:]))


def who(s: State, seat: int) -> dict[str, int]:
    """A player, named by the service by their name of now."""
    return seat_ref(seat)


def log(s: State, text: Msg, private: dict[int, Msg] | None = None) -> None:
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
        log(s, msg("%(seat)s's kitchen entrance rushes into the waiting room (shuffled).", seat=who(s, seat)))
    return zone["deck"].pop()


def call(s: State, seat: int, n: int, rng: random.Random, why: str | None = None) -> list[str]:
    """Draw n cards into the hand (fewer if the whole house runs dry) and log it privately.
    `why`: the card id whose text calls them, named in the log."""
    got: list[str] = []
    for _ in range(n):
        c = take_top(s, seat, rng)
        if c is None:
            break
        got.append(c)
    s["seats"][seat]["hand"].extend(got)
    if n:
        k = len(got)
        if why is None and k == n:
            public = nmsg(
                "%(seat)s calls %(n)s staff member.", "%(seat)s calls %(n)s staff members.", "n", seat=who(s, seat), n=k
            )
        elif why is None:
            public = nmsg(
                "%(seat)s calls %(n)s staff member (only %(n)s left).",
                "%(seat)s calls %(n)s staff members (only %(n)s left).",
                "n",
                seat=who(s, seat),
                n=k,
            )
        elif k == n:
            public = nmsg(
                "%(seat)s calls %(n)s staff member (%(card)s).",
                "%(seat)s calls %(n)s staff members (%(card)s).",
                "n",
                seat=who(s, seat),
                n=k,
                card=name(s, why),
            )
        else:
            public = nmsg(
                "%(seat)s calls %(n)s staff member (%(card)s) (only %(n)s left).",
                "%(seat)s calls %(n)s staff members (%(card)s) (only %(n)s left).",
                "n",
                seat=who(s, seat),
                n=k,
                card=name(s, why),
            )
        if why is None:
            private = msg("You call %(cards)s.", cards=names(s, got))
        else:
            private = msg("You call %(cards)s (%(card)s).", cards=names(s, got), card=name(s, why))
        log(s, public, {seat: private})
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


MIN_PLAYERS, MAX_PLAYERS = 2, 6


SELECTIONS = (
    ("recommended", msg("The rulebook's first-game set")),
    ("random", msg("Ten at random")),
    ("by_hand", msg("Ticked below")),
)


def options_schema() -> list[OptionField]:
    cs = load_cardset()
    fields = [
        OptionField(
            "selection",
            msg("Which ten general maids"),
            "choice",
            "recommended",
            choices=SELECTIONS,
            help=msg("By hand: tick exactly ten maids below."),
        )
    ]
    for cid in cs["general"]:
        card = cs["cards"][cid]
        fields.append(
            OptionField(
                f"maid_{cid}",
                msg("%(card)s (%(cost)s)", card=card_ref(card["name"]), cost=card["cost"]),
                "bool",
                cid in cs["recommended"],
                help=msg("Used only when the maids are chosen by hand."),
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
    log(
        state,
        nmsg(
            "A romantic vacation for %(n)s master. General maids: %(maids)s.",
            "A romantic vacation for %(n)s masters. General maids: %(maids)s.",
            "n",
            n=n,
            maids=names(state, general),
        ),
    )
    log(
        state,
        msg("Everyone calls %(n)s staff.", n=5),
        {i: msg("You call %(cards)s.", cards=names(state, seats[i]["hand"])) for i in range(n)},
    )
    return state
