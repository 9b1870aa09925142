"""One turn of Café Romantica outside the players' answers: roll and shine, the auction's
outcome, the end-of-turn field shift and the start-of-turn win check.

Functions here take a state that the caller already copied (see game.py) and change it.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import entry

from . import abilities, auction
from .cards import base_id

State = dict[str, Any]


def names_of(state: State, seats: list[int]) -> str:
    return ", ".join(state["names"][s] for s in seats)


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
        state["log"] = state["log"] + [entry(f"{names_of(state, done3)} begin the turn with three agendas and win!")]
        return
    cap = state["options"]["turn_cap"]
    if cap and state["turns_done"] >= cap:
        state["phase"], state["end"] = "over", "cap"
        state["winners"] = cap_winners(state)
        state["log"] = state["log"] + [
            entry(f"The turn cap ({cap}) is reached: {names_of(state, state['winners'])} win on agendas, then club ♥.")
        ]
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
        f"Turn {state['turn']}. Rolls: " + "; ".join(_roll_text(state["names"][i], rolls[i]) for i in range(n)) + "."
    ]
    rivals = []
    for i, s in enumerate(seats):
        others = dice[:i] + dice[i + 1 :]
        earned, rival, shone = abilities.earnings(cards, s, dice[i], others, max_done)
        s["hearts"] = (s["hearts"] if state["options"]["pooling"] else 0) + earned
        rivals.append(rival)
        what = f" ({', '.join(shone)})" if shone else ""
        lines.append(f"{state['names'][i]} earns {earned} ♥{what}.")
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
                        f"{state['names'][i]} takes {took} ♥ from {state['names'][j]}, who rolled the same number."
                    )
    state["seats"] = seats
    state["rolls"], state["dice"] = rolls, dice
    state["log"] = state["log"] + [entry(line) for line in lines]


def _roll_text(name: str, roll: list[int]) -> str:
    return f"{name} {roll[0]}" if len(roll) == 1 else f"{name} {roll[0]}, rolled again {roll[1]}"


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
        shown = "; ".join(f"{state['names'][s]} {', '.join(map(str, limits[s]))}" for s in range(n))
        lines.append(f"Sealed limits (turn order 1 to {n - 1}): {shown}.")
    for pos, (seat, price) in enumerate(results, start=1):
        if price:
            seats[seat] = dict(seats[seat], hearts=seats[seat]["hearts"] - price)
        lines.append(f"{state['names'][seat]} takes turn order {pos} for {price} ♥.")
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
    state["log"] = state["log"] + [entry(f"End of turn {state['turn']}: the field moves down and is refilled.")]


def card_conservation(state: State) -> list[str]:
    """Every deck card somewhere, exactly once: deck, field, clubs, focus cards."""
    ids = list(state["deck"]) + [c for c in state["field"] if c is not None]
    for s in state["seats"]:
        for boy, stack in s["club"].items():
            assert all(base_id(c) == boy for c in stack), f"a stack of {boy} holds another boy"
            ids += stack
        ids += s["focus"]
    return ids
