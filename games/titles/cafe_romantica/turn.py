"""The turn of Café Romantica: who is asked what (the sealed draft, the sealed auction, actions in
turn order) and applying their answers; and the steps nobody answers: roll and shine, the auction's
outcome, the end-of-turn field shift and the start-of-turn win check.

apply() never changes its input: it copies the top-level dict and replaces only the parts that
change (seat dicts, lists); the card set stays one shared object. The steps nobody answers take a
state that apply already copied and change it.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from games.engine import Choose, Composite, IllegalMove, Number, Option, Order, entry
from games.engine.messages import Msg, card_ref, list_ref, msg, nmsg, seat_ref

from . import abilities, actions, auction, draft
from .cards import base_id, ids_of
from .state import State, seats_ref

# ---------------------------------------------------------------- the steps nobody answers


def tie_break_order(state: State) -> list[int]:
    """Who wins auction ties: a seat with the Strategist's ability first, then the reverse of the
    last turn's order (the player who acted last breaks ties first); on the first turn the reverse
    of the draft's choosing order."""
    last = state["order"] or state["choose_order"]
    order = last[::-1]
    cards = state["cards"]
    first = [s for s in order if abilities.has_effect(cards, state["seats"][s], "auction_priority")]
    return first + [s for s in order if s not in first]


def begin_turn(state: State, rng: random.Random) -> None:
    """Start of a turn: the win check, the turn cap, then roll and shine and open the auction."""
    seats = state["seats"]
    done3 = [i for i, s in enumerate(seats) if len(s["done"]) >= 3]
    if done3:
        state["phase"], state["end"], state["winners"] = "over", "win", done3
        won = nmsg(
            "%(seats)s begins the turn with three agendas and wins!",
            "%(seats)s begin the turn with three agendas and win!",
            "count",
            seats=seats_ref(done3),
            count=len(done3),
        )
        state["log"] = state["log"] + [entry(won)]
        return
    cap = state["options"]["turn_cap"]
    if cap and state["turns_done"] >= cap:
        state["phase"], state["end"] = "over", "cap"
        state["winners"] = cap_winners(state)
        won = nmsg(
            "The turn cap (%(cap)s) is reached: %(seats)s wins on agendas, then club ♥.",
            "The turn cap (%(cap)s) is reached: %(seats)s win on agendas, then club ♥.",
            "count",
            cap=cap,
            seats=seats_ref(state["winners"]),
            count=len(state["winners"]),
        )
        state["log"] = state["log"] + [entry(won)]
        return
    state["turn"] += 1
    roll_and_shine(state, rng)
    state["phase"] = "auction"
    state["sealed"] = {}


def cap_winners(state: State) -> list[int]:
    cards = state["cards"]
    keys = [(len(s["done"]), abilities.club_value(cards, s)) for s in state["seats"]]
    best = max(keys)
    return [i for i, k in enumerate(keys) if k == best]


def roll_and_shine(state: State, rng: random.Random) -> None:
    """Every seat rolls (a reroll ability rolls again when no host of hers shines); cards on that
    face shine and earn."""
    cards = state["cards"]
    seats = [dict(s) for s in state["seats"]]
    n = len(seats)
    rolls = [[rng.randint(1, 6)] for _ in range(n)]
    first = [r[0] for r in rolls]
    dice = list(first)
    for i, s in enumerate(seats):
        if abilities.has_effect(cards, s, "reroll"):
            if not abilities.host_shines(cards, s, first[i], first[:i] + first[i + 1 :]):
                dice[i] = rng.randint(1, 6)
                rolls[i].append(dice[i])
    max_done = max(len(s["done"]) for s in seats)
    lines = [
        msg(
            "Turn %(turn)s. Rolls: %(rolls)s.",
            turn=state["turn"],
            rolls=_joined([_roll_text(i, rolls[i]) for i in range(n)]),
        )
    ]
    rivals = []
    for i, s in enumerate(seats):
        others = dice[:i] + dice[i + 1 :]
        earned, rival, shone = abilities.earnings(cards, s, dice[i], others, max_done)
        s["hearts"] = (s["hearts"] if state["options"]["pooling"] else 0) + earned
        rivals.append(rival)
        if shone:
            lines.append(
                msg("%(seat)s earns %(hearts)s ♥ (%(cards)s).", seat=seat_ref(i), hearts=earned, cards=list_ref(shone))
            )
        else:
            lines.append(msg("%(seat)s earns %(hearts)s ♥.", seat=seat_ref(i), hearts=earned))
    for i, amount in enumerate(rivals):
        if not amount:
            continue
        for j in range(n):
            if j != i and dice[j] == dice[i]:
                took = min(amount, seats[j]["hearts"])
                if took:
                    seats[j]["hearts"] -= took
                    seats[i]["hearts"] += took
                    lines.append(
                        msg(
                            "%(seat)s takes %(hearts)s ♥ from %(other)s, who rolled the same number.",
                            seat=seat_ref(i),
                            hearts=took,
                            other=seat_ref(j),
                        )
                    )
    state["seats"] = seats
    state["rolls"], state["dice"] = rolls, dice
    state["log"] = state["log"] + [entry(line) for line in lines]


def _roll_text(seat: int, roll: list[int]) -> Msg:
    if len(roll) == 1:
        return msg("%(seat)s %(die)s", seat=seat_ref(seat), die=roll[0])
    return msg("%(seat)s %(die)s, rolled again %(again)s", seat=seat_ref(seat), die=roll[0], again=roll[1])


# a short series in a log line, one message per length so that a translator sets its separators
# ("P0 1; P1 4; P2 6", a seat's limits "4, 1"): a list in words ("1, 4 and 6") would read wrongly here
_SERIES = {
    1: msg("%(a)s"),
    2: msg("%(a)s; %(b)s"),
    3: msg("%(a)s; %(b)s; %(c)s"),
    4: msg("%(a)s; %(b)s; %(c)s; %(d)s"),
}
_NUMBERS = {
    1: msg("%(a)s"),
    2: msg("%(a)s, %(b)s"),
    3: msg("%(a)s, %(b)s, %(c)s"),
}


def _series(table: dict[int, Msg], items: list[Any]) -> Msg:
    return {**table[len(items)], "$p": dict(zip("abcd", items, strict=False))}


def _joined(items: list[Any]) -> Msg:
    """Seats' entries of one line ("P0 1; P1 4"), in turn."""
    return _series(_SERIES, items)


def _numbers(items: list[int]) -> Msg:
    """A seat's numbers, one per turn order card ("4, 1")."""
    return _series(_NUMBERS, items)


def bidders(state: State) -> list[int]:
    """Seats asked for sealed limits: anyone with ♥ to bid (a seat with none bids 0)."""
    return [i for i, s in enumerate(state["seats"]) if s["hearts"] > 0]


def resolve_auction(state: State) -> None:
    """Play the proxy auction from the sealed limits, reveal them, charge the winners."""
    n = len(state["seats"])
    limits = {s: state["sealed"].get(str(s), [0] * (n - 1)) for s in range(n)}
    results = auction.resolve(tie_break_order(state), limits)
    seats = list(state["seats"])
    lines = []
    if state["sealed"]:
        shown = _joined([msg("%(seat)s %(limits)s", seat=seat_ref(s), limits=_numbers(limits[s])) for s in range(n)])
        lines.append(msg("Sealed limits (turn order 1 to %(last)s): %(limits)s.", last=n - 1, limits=shown))
    for pos, (seat, price) in enumerate(results, start=1):
        if price:
            seats[seat] = dict(seats[seat], hearts=seats[seat]["hearts"] - price)
        lines.append(
            msg("%(seat)s takes turn order %(pos)s for %(price)s ♥.", seat=seat_ref(seat), pos=pos, price=price)
        )
    state["seats"] = seats
    state["order"] = [s for s, _ in results]
    state["prices"] = [p for _, p in results]
    state["sealed"] = {}
    state["phase"] = "actions"
    state["acting"] = 0
    state["log"] = state["log"] + [entry(line) for line in lines]


def end_turn(state: State, rng: random.Random) -> None:
    """The bottom row goes under the deck in random order, the top row moves down, gaps refill."""
    field = state["field"]
    bottom = [c for c in field[4:] if c is not None]
    rng.shuffle(bottom)
    deck = state["deck"] + bottom
    new_field = [None, None, None, None] + field[:4]
    for i in range(8):
        if new_field[i] is None and deck:
            new_field[i] = deck[0]
            deck = deck[1:]
    state["deck"], state["field"] = deck, new_field
    if not state["options"]["pooling"]:
        state["seats"] = [dict(s, hearts=0) if s["hearts"] else s for s in state["seats"]]
    state["turns_done"] += 1
    state["log"] = state["log"] + [
        entry(msg("End of turn %(turn)s: the field moves down and is refilled.", turn=state["turn"]))
    ]


def card_conservation(state: State) -> list[str]:
    """Every deck card somewhere, exactly once: deck, field, clubs, focus cards."""
    ids = list(state["deck"]) + [c for c in state["field"] if c is not None]
    for s in state["seats"]:
        for boy, stack in s["club"].items():
            assert all(base_id(c) == boy for c in stack), f"a stack of {boy} holds another boy"
            ids += stack
        ids += s["focus"]
    return ids


# ---------------------------------------------------------------- prompts

SETTLE_LIMIT = 10_000


_DRAFT_CACHE: dict[str, Composite] = {}


def draft_prompt(cards: dict[str, Any]) -> Composite:
    """Managers and agendas to rank, in data order (cached per card set: the order is canonical)."""
    key = cards.get("hash") or str(id(cards))
    if key not in _DRAFT_CACHE:
        ms, ags = cards["managers"], cards["agendas"]
        managers = tuple(Option(m, card_ref(ms[m]["name"]), card_ref(ms[m]["text"])) for m in ids_of(cards, "managers"))
        agendas = tuple(
            Option(
                a,
                msg("%(card)s (cost %(cost)s)", card=card_ref(ags[a]["name"]), cost=ags[a]["cost"]),
                card_ref(ags[a]["text"]),
            )
            for a in ids_of(cards, "agendas")
        )
        _DRAFT_CACHE[key] = Composite(
            msg(
                "Rank the managers and the agendas, favourite first. The draft runs in a random choosing "
                "order: you get your best-ranked manager and three agendas still free."
            ),
            (
                ("manager", Order(msg("Managers, favourite first"), managers)),
                ("agendas", Order(msg("Agendas, favourite first"), agendas)),
            ),
        )
    return _DRAFT_CACHE[key]


def auction_prompt(state: State, seat: int) -> Composite:
    return _auction_prompt(len(state["seats"]), state["seats"][seat]["hearts"])


@cache
def _auction_prompt(n: int, hearts: int) -> Composite:
    """The sealed-bid prompt depends only on the table size and the seat's ♥ (prompts are frozen)."""
    parts = tuple(
        (str(p), Number(msg("Most you would pay for turn order %(pos)s", pos=p), 0, hearts)) for p in range(1, n)
    )
    return Composite(
        msg(
            "Sealed bids for turn order: you have %(hearts)s ♥. Give the most you would pay for each card; "
            "the winner pays one more than the runner-up's limit. Turn order %(last)s goes to the last player "
            "for free.",
            hearts=hearts,
            last=n,
        ),
        parts,
    )


def action_prompt(state: State, seat: int) -> Choose:
    hearts = state["seats"][seat]["hearts"]
    opts = tuple(Option(a.id, *actions.describe(state, seat, a)) for a in actions.legal(state, seat))
    return Choose(
        msg(
            "Your action this turn (you have %(hearts)s ♥): recruit or buy, fave, complete an agenda, or pass.",
            hearts=hearts,
        ),
        opts,
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
    before = seats_ref(order[now : order.index(seat)])
    hearts = state["seats"][seat]["hearts"]
    return Choose(
        msg(
            "Your action this turn, after %(seats)s (you have %(hearts)s ♥): recruit or buy, fave, complete an "
            "agenda, or pass. A card they take first is gone; your ♥ stay yours.",
            seats=before,
            hearts=hearts,
        ),
        action_prompt(state, seat).options,
    )


def prompts(state: State) -> dict[int, Any]:
    phase = state["phase"]
    if phase == "actions":
        seat = state["order"][state["acting"]]
        return {seat: action_prompt(state, seat)}
    if phase == "auction":
        return {s: auction_prompt(state, s) for s in bidders(state) if str(s) not in state["sealed"]}
    if phase == "draft":
        p = draft_prompt(state["cards"])
        return {s: p for s in range(len(state["seats"])) if str(s) not in state["sealed"]}
    return {}


# ---------------------------------------------------------------- apply


def apply(state: State, seat: int, answer: Any, rng: random.Random) -> State:
    phase = state["phase"]
    if phase == "over":
        raise IllegalMove(msg("The game is over."))
    if not isinstance(seat, int) or not 0 <= seat < len(state["seats"]):
        raise IllegalMove(msg("There is no such seat at this table."))
    new = dict(state)
    if phase == "actions":
        if seat != state["order"][state["acting"]]:
            now = seat_ref(state["order"][state["acting"]])
            raise IllegalMove(msg("It is %(seat)s's turn to act, not yours.", seat=now))
        actions.perform(new, seat, actions.find(state, seat, answer))
        new["acting"] = state["acting"] + 1
    elif phase == "auction":
        if str(seat) in state["sealed"]:
            raise IllegalMove(msg("You have already sent your bids for this turn."))
        if state["seats"][seat]["hearts"] <= 0:
            raise IllegalMove(msg("You have no ♥ to bid this turn."))
        got = auction_prompt(state, seat).validate(answer)
        new["sealed"] = dict(state["sealed"], **{str(seat): [got[str(p)] for p in range(1, len(state["seats"]))]})
        new["log"] = state["log"] + [entry(msg("%(seat)s has sent sealed bids.", seat=seat_ref(seat)))]
        if len(new["sealed"]) == len(bidders(new)):
            resolve_auction(new)
    else:
        if str(seat) in state["sealed"]:
            raise IllegalMove(msg("You have already sent your preferences."))
        got = draft_prompt(state["cards"]).validate(answer)
        new["sealed"] = dict(state["sealed"], **{str(seat): got})
        new["log"] = state["log"] + [entry(msg("%(seat)s has sent draft preferences.", seat=seat_ref(seat)))]
        if len(new["sealed"]) == len(state["seats"]):
            resolve_draft(new)
            begin_turn(new, rng)
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
        costs = _numbers([cards["agendas"][a]["cost"] for a in agendas[s]])
        mine = list_ref([card_ref(cards["agendas"][a]["name"]) for a in agendas[s]])
        name = seat_ref(s)
        m = card_ref(cards["managers"][managers[s]]["name"])
        line = entry(
            msg(
                "%(seat)s manages as %(manager)s, with a Recruitment Flyer and three face-down agendas "
                "(costs %(costs)s).",
                seat=name,
                manager=m,
                costs=costs,
            ),
            {
                s: msg(
                    "You manage as %(manager)s, with a Recruitment Flyer and the agendas %(agendas)s (costs %(costs)s).",
                    manager=m,
                    agendas=mine,
                    costs=costs,
                )
            },
        )
        line["reveal"] = msg(
            "%(seat)s manages as %(manager)s, with the agendas %(agendas)s (costs %(costs)s).",
            seat=name,
            manager=m,
            agendas=mine,
            costs=costs,
        )
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
            if bidders(state):
                return
            resolve_auction(state)
        elif phase == "actions":
            order = state["order"]
            while state["acting"] < len(order) and not actions.has_choice(state, order[state["acting"]]):
                state["log"] = state["log"] + [entry(forced_pass(state, order[state["acting"]]))]
                state["acting"] += 1
            if state["acting"] < len(order):
                return
            end_turn(state, rng)
            begin_turn(state, rng)
        else:
            return
    raise RuntimeError("Café Romantica: no player had anything to decide for 10000 steps (card data?)")


def forced_pass(state: State, seat: int) -> Msg:
    """Why a seat passes without being asked: no ♥ at all, or too few for anything on offer."""
    name, hearts = seat_ref(seat), state["seats"][seat]["hearts"]
    if hearts <= 0:
        return msg("%(seat)s has no ♥ to spend.", seat=name)
    if state["options"]["pooling"]:
        return msg(
            "%(seat)s has %(hearts)s ♥, too few for anything on offer, and passes (they carry over).",
            seat=name,
            hearts=hearts,
        )
    return msg(
        "%(seat)s has %(hearts)s ♥, too few for anything on offer, and passes (unspent ♥ are lost).",
        seat=name,
        hearts=hearts,
    )


def default_answer(state: State, seat: int) -> Any:
    """Deadline answers: the data order for the draft, zero bids, a pass."""
    phase = state["phase"]
    if phase == "draft":
        cards = state["cards"]
        return {"manager": list(ids_of(cards, "managers")), "agendas": list(ids_of(cards, "agendas"))}
    if phase == "auction":
        return {str(p): 0 for p in range(1, len(state["seats"]))}
    return actions.PASS
