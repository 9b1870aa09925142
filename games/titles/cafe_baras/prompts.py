"""What the seat to move is asked, as typed prompts; and the safe answer when a deadline passes."""

from __future__ import annotations

import random
from typing import Any

from games.engine.prompts import Choose, ChooseMany, Option, Prompt
from games.engine.words import counted

from .bots import bot_answer
from .cards import Card, CardSet, action_words, customer_words, top_words, upper_first
from .rules import State, cardset_of, effect_limit, main_choices, refill_need

_OPTIONS: dict[tuple[Any, ...], Option] = {}


def _memo(key: tuple[Any, ...], make) -> Option:
    """Options are immutable and recur every turn: build each one once."""
    got = _OPTIONS.get(key)
    if got is None:
        if len(_OPTIONS) > 100_000:
            _OPTIONS.clear()
        got = _OPTIONS[key] = make()
    return got


def card_option(card: Card) -> Option:
    return _memo(
        ("card", id(card)), lambda: Option(card.id, card.name, f"{top_words(card)}. Customer: {customer_words(card)}.")
    )


def _add_option(card: Card, cost: int) -> Option:
    def make() -> Option:
        actions = "".join(f"; when added: {action_words(a)}" for a in card.action)
        return Option(f"add:{card.id}", f"Add {card.name} for {counted(cost, 'coin')}", top_words(card) + actions)

    return _memo(("add", id(card), cost), make)


def _serve_option(card: Card, result: tuple[int, bool, bool]) -> Option:
    def make() -> Option:
        coins, _, regular = result
        label = f"Serve the {card.name} customer: +{counted(coins, 'coin')}" + (
            ", becomes a regular" if regular else ""
        )
        return Option(f"serve:{card.id}", label, upper_first(customer_words(card)))

    return _memo(("serve", id(card), result), make)


PASS = Option("pass", "Pass", "Nothing to add or serve this turn.")


def main_prompt(state: State, cs: CardSet) -> Choose:
    me = state["seats"][state["turn"]]
    if not me["hand"]:
        return Choose("You have no cards and none are left to take.", (PASS,))
    adds, serves = main_choices(state, cs)
    options = [_add_option(card, cost) for _, card, cost in adds]
    options += [_serve_option(card, result) for _, card, result in serves]
    return Choose(
        f"Your turn ({counted(me['coins'], 'coin')}): add a card to your café, or serve its customer.", tuple(options)
    )


def turn_ahead(state: State, seat: int) -> bool:
    """Whether `seat`, not the seat to move, gets another turn before the game ends. Exact.

    After the end is triggered the seats still to play are the seat to move and the next ones in
    order, `end["left"]` in all; before it, a trigger gives every other seat one more turn. The
    other end, every seat passing in a row, is foreseen too: a seat passes exactly when its hand is
    empty at its turn, and nobody changes another seat's hand.
    """
    n = len(state["seats"])
    turn = state["turn"]
    ahead = (seat - turn) % n  # turns before this seat's, the current one included
    end = state["end"]
    if end is not None and ahead >= end["left"]:
        return False
    passes = state["passes"]
    for k in range(ahead):
        if k == 0 and state["phase"] != "main":
            continue  # the seat to move has answered its main question: `passes` counts it already
        passes = 0 if state["seats"][(turn + k) % n]["hand"] else passes + 1
        if passes >= n:
            return False
    return True


def upcoming(state: State, seat: int) -> Choose | None:
    """The first question of `seat`'s next turn, while others play before it; None if asked now or none comes.

    It is the main question as the seat's own hand, coins and café make it now. No other seat's turn
    changes those (every effect acts on the seat that plays it; guests give points, not coins), so
    the options are exactly the ones the turn will offer. None when the game ends first.
    """
    n = len(state["seats"])
    if state["over"] or not isinstance(seat, int) or not 0 <= seat < n or seat == state["turn"]:
        return None
    if not turn_ahead(state, seat):
        return None
    cs = cardset_of(state)
    mine = main_prompt({**state, "turn": seat}, cs)
    before = [state["players"][(state["turn"] + k) % n] for k in range((seat - state["turn"]) % n)]
    who = before[0] if len(before) == 1 else ", ".join(before[:-1]) + " and " + before[-1]
    last = state["end"] is not None or bool(state["trigger"])
    when = f"Your next turn{' (your last)' if last else ''}, after {who}"
    me = state["seats"][seat]
    if not me["hand"]:
        return Choose(f"{when}: you have no cards, so you can only pass.", mine.options)
    return Choose(
        f"{when} ({counted(me['coins'], 'coin')}): add a card to your café, or serve its customer.", mine.options
    )


def prompts(state: State) -> dict[int, Prompt]:
    if state["over"]:
        return {}
    cs = cardset_of(state)
    seat = state["turn"]
    phase = state["phase"]
    if phase == "main":
        return {seat: main_prompt(state, cs)}
    if phase == "effect":
        a = state["pending"][0]
        low, high = effect_limit(state, a)
        source = cs.cards[state["source"]].name
        if "take" in a:
            opts = tuple(card_option(cs.cards[c]) for c in state["display"])
            return {
                seat: ChooseMany(
                    f"{source}: take {counted(low, 'card')} of your choice from the display.", opts, low, high
                )
            }
        opts = tuple(card_option(cs.cards[c]) for c in state["seats"][seat]["hand"])
        return {
            seat: ChooseMany(
                f"{source}: discard up to {counted(high, 'card')} from your hand; you then draw as many from the deck.",
                opts,
                low,
                high,
            )
        }
    need = refill_need(state, cs)
    opts = tuple(card_option(cs.cards[c]) for c in state["display"])
    return {seat: ChooseMany(f"Refill your hand: take {counted(need, 'card')} from the display.", opts, need, need)}


def default_answer(state: State, seat: int) -> Any:
    """What a seat plays when its deadline passes: the bot's move, made deterministic.

    Serving the best-paying customer every time would be "safe" but a table of absent players would
    then never end the game (serving alone gains no regulars), so the default plays like the bot,
    with a generator seeded from the turn number so the same state always gets the same answer.
    """
    return bot_answer(state, seat, random.Random(f"default:{state['turns']}:{state['phase']}"))
