"""Café Romantica's flow: setup, the draft, the sealed auction, actions in turn order, the end.

apply() never changes its input: it copies the top-level dict and replaces only the parts that
change (seat dicts, lists); the card set stays one shared object.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from games.engine import Choose, Composite, IllegalMove, Number, Option, OptionsError, Order, Outcome, entry

from . import abilities, actions, draft, turn
from .cards import CardDataError, deck_ids, ids_of, load_cardset

State = dict[str, Any]
SETTLE_LIMIT = 10_000


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
            entry("The deck is shuffled and the field dealt: two rows of four."),
            entry(f"Choosing order for managers and agendas: {turn.names_of({'names': players}, order)}."),
        ],
    }


# ---------------------------------------------------------------- prompts

_DRAFT_CACHE: dict[str, Composite] = {}


def draft_prompt(cards: dict[str, Any]) -> Composite:
    """Managers and agendas to rank, in data order (cached per card set: the order is canonical)."""
    key = cards.get("hash") or str(id(cards))
    if key not in _DRAFT_CACHE:
        ms, ags = cards["managers"], cards["agendas"]
        managers = tuple(Option(m, ms[m]["name"], ms[m]["text"]) for m in ids_of(cards, "managers"))
        agendas = tuple(
            Option(a, f"{ags[a]['name']} (cost {ags[a]['cost']})", ags[a]["text"]) for a in ids_of(cards, "agendas")
        )
        _DRAFT_CACHE[key] = Composite(
            "Rank the managers and the agendas, favourite first. The draft runs in a random choosing "
            "order: you get your best-ranked manager and three agendas still free.",
            (
                ("manager", Order("Managers, favourite first", managers)),
                ("agendas", Order("Agendas, favourite first", agendas)),
            ),
        )
    return _DRAFT_CACHE[key]


def auction_prompt(state: State, seat: int) -> Composite:
    return _auction_prompt(len(state["seats"]), state["seats"][seat]["hearts"])


@cache
def _auction_prompt(n: int, hearts: int) -> Composite:
    """The sealed-bid prompt depends only on the table size and the seat's ♥ (prompts are frozen)."""
    parts = tuple((str(p), Number(f"Most you would pay for turn order {p}", 0, hearts)) for p in range(1, n))
    return Composite(
        f"Sealed bids for turn order: you have {hearts} ♥. Give the most you would pay for each card; "
        f"the winner pays one more than the runner-up's limit. Turn order {n} goes to the last player for free.",
        parts,
    )


def action_prompt(state: State, seat: int) -> Choose:
    hearts = state["seats"][seat]["hearts"]
    opts = tuple(Option(a.id, *actions.describe(state, seat, a)) for a in actions.legal(state, seat))
    return Choose(
        f"Your action this turn (you have {hearts} ♥): recruit or buy, fave, complete an agenda, or pass.", opts
    )


def upcoming(state: State, seat: int) -> Choose | None:
    """The action question of a seat that acts later in this turn's order, or None.

    Its options are the actions the seat could take given the field and its own ♥ and club as they
    are now. Nothing another seat does in the action phase changes this seat's ♥, club, focus cards
    or agendas (so no cost or fave/agenda option changes); another seat can only take a field card,
    and then that option is refused when the question arrives (the next answer left is tried).
    The field does not shift or refill until the end of the turn, so nothing new can appear.
    None for the seat acting now, a seat that has acted (its next question is next turn's sealed
    bids), a seat that will pass without being asked (no ♥ or nothing affordable: taking cards away
    cannot change that), the sealed draft and auction (simultaneous), and after the game ends.
    """
    if state["phase"] != "actions" or isinstance(seat, bool) or not isinstance(seat, int):
        return None
    order, now = state["order"], state["acting"]
    if seat not in order[now + 1 :] or not actions.has_choice(state, seat):
        return None
    before = [state["names"][s] for s in order[now : order.index(seat)]]
    who = before[0] if len(before) == 1 else ", ".join(before[:-1]) + " and " + before[-1]
    hearts = state["seats"][seat]["hearts"]
    return Choose(
        f"Your action this turn, after {who} (you have {hearts} ♥): recruit or buy, fave, complete an agenda, "
        "or pass. A card they take first is gone; your ♥ stay yours.",
        action_prompt(state, seat).options,
    )


def prompts(state: State) -> dict[int, Any]:
    phase = state["phase"]
    if phase == "actions":
        seat = state["order"][state["acting"]]
        return {seat: action_prompt(state, seat)}
    if phase == "auction":
        return {s: auction_prompt(state, s) for s in turn.bidders(state) if str(s) not in state["sealed"]}
    if phase == "draft":
        p = draft_prompt(state["cards"])
        return {s: p for s in range(len(state["seats"])) if str(s) not in state["sealed"]}
    return {}


# ---------------------------------------------------------------- apply


def apply(state: State, seat: int, answer: Any, rng: random.Random) -> State:
    phase = state["phase"]
    if phase == "over":
        raise IllegalMove("The game is over.")
    if not isinstance(seat, int) or not 0 <= seat < len(state["seats"]):
        raise IllegalMove("There is no such seat at this table.")
    new = dict(state)
    if phase == "actions":
        if seat != state["order"][state["acting"]]:
            raise IllegalMove(f"It is {state['names'][state['order'][state['acting']]]}'s turn to act, not yours.")
        actions.perform(new, seat, actions.find(state, seat, answer))
        new["acting"] = state["acting"] + 1
    elif phase == "auction":
        if str(seat) in state["sealed"]:
            raise IllegalMove("You have already sent your bids for this turn.")
        if state["seats"][seat]["hearts"] <= 0:
            raise IllegalMove("You have no ♥ to bid this turn.")
        got = auction_prompt(state, seat).validate(answer)
        new["sealed"] = dict(state["sealed"], **{str(seat): [got[str(p)] for p in range(1, len(state["seats"]))]})
        new["log"] = state["log"] + [entry(f"{state['names'][seat]} has sent sealed bids.")]
        if len(new["sealed"]) == len(turn.bidders(new)):
            turn.resolve_auction(new)
    else:
        if str(seat) in state["sealed"]:
            raise IllegalMove("You have already sent your preferences.")
        got = draft_prompt(state["cards"]).validate(answer)
        new["sealed"] = dict(state["sealed"], **{str(seat): got})
        new["log"] = state["log"] + [entry(f"{state['names'][seat]} has sent draft preferences.")]
        if len(new["sealed"]) == len(state["seats"]):
            resolve_draft(new)
            turn.begin_turn(new, rng)
    settle(new, rng)
    return new


def resolve_draft(state: State) -> None:
    n = len(state["seats"])
    prefs = {s: state["sealed"][str(s)] for s in range(n)}
    managers, agendas = draft.resolve(
        state["choose_order"], {s: p["manager"] for s, p in prefs.items()}, {s: p["agendas"] for s, p in prefs.items()}
    )
    cards = state["cards"]
    seats = []
    lines = []
    for s in range(n):
        seats.append(dict(state["seats"][s], manager=managers[s], agendas=agendas[s]))
        costs = ", ".join(str(cards["agendas"][a]["cost"]) for a in agendas[s])
        mine = ", ".join(cards["agendas"][a]["name"] for a in agendas[s])
        name = state["names"][s]
        m = cards["managers"][managers[s]]["name"]
        line = entry(
            f"{name} manages as {m}, with a Recruitment Flyer and three face-down agendas (costs {costs}).",
            {s: f"You manage as {m}, with a Recruitment Flyer and the agendas {mine} (costs {costs})."},
        )
        line["reveal"] = f"{name} manages as {m}, with the agendas {mine} (costs {costs})."
        lines.append(line)
    state["seats"] = seats
    state["sealed"] = {}
    state["log"] = state["log"] + lines


def settle(state: State, rng: random.Random) -> None:
    """Run every step nobody has to answer: auctions with no bidder, passes forced by an empty
    purse, turn ends and the next turn's start, until someone must decide or the game is over."""
    for _ in range(SETTLE_LIMIT):
        phase = state["phase"]
        if phase == "auction":
            if turn.bidders(state):
                return
            turn.resolve_auction(state)
        elif phase == "actions":
            order = state["order"]
            while state["acting"] < len(order) and not actions.has_choice(state, order[state["acting"]]):
                state["log"] = state["log"] + [entry(forced_pass(state, order[state["acting"]]))]
                state["acting"] += 1
            if state["acting"] < len(order):
                return
            turn.end_turn(state, rng)
            turn.begin_turn(state, rng)
        else:
            return
    raise RuntimeError("Café Romantica: no player had anything to decide for 10000 steps (card data?)")


def forced_pass(state: State, seat: int) -> str:
    """Why a seat passes without being asked: no ♥ at all, or too few for anything on offer."""
    name, hearts = state["names"][seat], state["seats"][seat]["hearts"]
    if hearts <= 0:
        return f"{name} has no ♥ to spend."
    kept = "they carry over" if state["options"]["pooling"] else "unspent ♥ are lost"
    return f"{name} has {hearts} ♥, too few for anything on offer, and passes ({kept})."


# ---------------------------------------------------------------- the end


def outcome(state: State) -> Outcome | None:
    if state["phase"] != "over":
        return None
    cards = state["cards"]
    seats = state["seats"]
    scores = {i: len(s["done"]) for i, s in enumerate(seats)}
    values = {i: abilities.club_value(cards, s) for i, s in enumerate(seats)}
    breakdown = {i: [("Agendas completed", scores[i])] for i in scores}
    winners = list(state["winners"])
    if state["end"] == "win":
        tiebreak = "shared win: they began the same turn with three agendas" if len(winners) > 1 else ""
    else:
        top = max(scores.values())
        tied = [i for i in scores if scores[i] == top]
        tiebreak = "turn cap: most agendas"
        if len(tied) > 1:
            tiebreak += ", then most club ♥"
        if len(winners) > 1:
            tiebreak += " (shared win)"
    return Outcome(scores, breakdown, winners, tiebreak, {"end": state["end"], "club_value": values})


def default_answer(state: State, seat: int) -> Any:
    """Deadline answers: the data order for the draft, zero bids, a pass."""
    phase = state["phase"]
    if phase == "draft":
        cards = state["cards"]
        return {"manager": list(ids_of(cards, "managers")), "agendas": list(ids_of(cards, "agendas"))}
    if phase == "auction":
        return {str(p): 0 for p in range(1, len(state["seats"]))}
    return actions.PASS


def turns_played(state: State) -> int:
    return state["turns_done"]
