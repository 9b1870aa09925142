"""The turn: what the seat to move is asked, as typed prompts, and the safe answer when a deadline
passes; then applying an answer (add or serve, the added card's effects, refill), drawing, and the
end of a turn (the end of the game triggered and played out).
"""

from __future__ import annotations

import random
from typing import Any

from games.engine.errors import IllegalMove
from games.engine.log import entry
from games.engine.prompts import Choose, ChooseMany, Option, Prompt
from games.engine.words import counted

from .bots import bot_answer
from .cards import Card, CardSet, action_words, customer_words, top_words, upper_first
from .state import (
    DISPLAY_SIZE,
    Cafe,
    State,
    cardset_of,
    choice_needed,
    claim_guests,
    copy_state,
    effect_limit,
    main_choices,
    names_of,
    private_line,
    refill_need,
    regulars_to_end,
    serve_result,
)

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


# ---------------------------------------------------------------- apply


def apply(state: State, seat: int, answer: Any, rng: random.Random) -> State:
    if state["over"]:
        raise IllegalMove("The game is over.")
    if seat != state["turn"]:
        raise IllegalMove(f"It is not your turn: {state['players'][state['turn']]} is playing.")
    cs = cardset_of(state)
    phase = state["phase"]
    if phase == "main":
        return _main(state, cs, seat, answer, rng)
    if phase == "effect":
        return _effect(state, cs, seat, answer, rng)
    return _refill(state, cs, seat, answer, rng)


def _main(state: State, cs: CardSet, seat: int, answer: Any, rng: random.Random) -> State:
    me = state["seats"][seat]
    name = state["players"][seat]
    if answer == "pass":
        if me["hand"]:
            raise IllegalMove("You still have cards: add one to your café or serve its customer.")
        new = copy_state(state)
        new["passes"] += 1
        new["log"].append(entry(f"{name} has no cards and passes."))
        return _after_action(new, cs, seat, rng)
    if not isinstance(answer, str) or ":" not in answer:
        raise IllegalMove("Choose a card to add or a customer to serve.")
    verb, _, cid = answer.partition(":")
    if verb not in ("add", "serve"):
        raise IllegalMove("Choose a card to add or a customer to serve.")
    if cid not in me["hand"]:
        raise IllegalMove("That card is not in your hand.")
    card = cs.cards[cid]
    cafe = Cafe(cs, me)
    if verb == "add":
        cost = cafe.cost(card)
        if cost > me["coins"]:
            raise IllegalMove(f"{card.name} costs {counted(cost, 'coin')} and you have {me['coins']}.")
        new = copy_state(state)
        m = new["seats"][seat]
        m["hand"].remove(cid)
        m["coins"] -= cost
        m["cafe"].append(cid)
        new["passes"] = 0
        new["log"].append(entry(f"{name} added {card.name} to their café for {counted(cost, 'coin')}."))
        new["pending"] = [dict(a) for a in card.action]
        new["source"] = cid
        return _run_pending(new, cs, seat, rng)
    coins, _, regular = serve_result(cs, cafe, card)
    new = copy_state(state)
    m = new["seats"][seat]
    m["hand"].remove(cid)
    m["coins"] += coins
    new["passes"] = 0
    if regular:
        m["regulars"].append(cid)
        new["log"].append(
            entry(f"{name} served the {card.name} customer for {counted(coins, 'coin')}; they became a regular.")
        )
        if len(m["regulars"]) >= regulars_to_end(len(new["seats"])):
            new["trigger"] = [*new["trigger"], "regular"]
    else:
        new["discard"].append(cid)
        new["log"].append(entry(f"{name} served the {card.name} customer for {counted(coins, 'coin')}."))
    return _after_action(new, cs, seat, rng)


def _run_pending(state: State, cs: CardSet, seat: int, rng: random.Random) -> State:
    """Resolve the added card's actions in order; stop at a choice (take / recycle) the seat must make."""
    me = state["seats"][seat]
    name = state["players"][seat]
    while state["pending"]:
        a = state["pending"][0]
        if "take" in a or "recycle" in a:
            if choice_needed(state, a):
                state["phase"] = "effect"
                return state
            state["pending"].pop(0)
            continue
        state["pending"].pop(0)
        if "gain" in a:
            me["coins"] += a["gain"]
            state["log"].append(entry(f"{name} gained {counted(a['gain'], 'coin')}."))
        elif "gain_per" in a:
            got = Cafe(cs, me).count(a["gain_per"]) * a["coins"]
            if a.get("max"):
                got = min(got, a["max"])
            me["coins"] += got
            state["log"].append(entry(f"{name} gained {counted(got, 'coin')}."))
        elif "draw" in a:
            _draw_to_hand(state, cs, seat, a["draw"], rng)
    state["phase"] = "main"
    state["source"] = None
    return _after_action(state, cs, seat, rng)


def _effect(state: State, cs: CardSet, seat: int, answer: Any, rng: random.Random) -> State:
    a = state["pending"][0]
    low, high = effect_limit(state, a)
    picks = _pick_list(answer, low, high)
    me = state["seats"][seat]
    name = state["players"][seat]
    pool = state["display"] if "take" in a else me["hand"]
    for p in picks:
        if p not in pool:
            where = "the display" if "take" in a else "your hand"
            raise IllegalMove(f"That card is not in {where}.")
    new = copy_state(state)
    new["pending"].pop(0)
    m = new["seats"][seat]
    if "take" in a:
        for p in picks:
            new["display"].remove(p)
            m["hand"].append(p)
        new["log"].append(entry(f"{name} took {names_of(cs, picks)} from the display."))
    else:
        for p in picks:
            m["hand"].remove(p)
            new["discard"].append(p)
        if picks:
            new["log"].append(entry(f"{name} discarded {names_of(cs, picks)}."))
            _draw_to_hand(new, cs, seat, len(picks), rng)
        else:
            new["log"].append(entry(f"{name} kept their hand."))
    return _run_pending(new, cs, seat, rng)


def _pick_list(answer: Any, low: int, high: int) -> list[str]:
    if not isinstance(answer, list | tuple) or not all(isinstance(a, str) for a in answer):
        raise IllegalMove("Pick cards from the choices offered.")
    if len(set(answer)) != len(answer):
        raise IllegalMove("Each card can be picked only once.")
    if not low <= len(answer) <= high:
        raise IllegalMove(f"Pick exactly {counted(low, 'card')}." if low == high else f"Pick {low} to {high} cards.")
    return list(answer)


def _after_action(state: State, cs: CardSet, seat: int, rng: random.Random) -> State:
    """The card is played and resolved: claim guests, then refill (asking only if there is a choice)."""
    claim_guests(state, cs, seat)
    need = refill_need(state, cs)
    if 0 < need < len(state["display"]):
        state["phase"] = "refill"
        return state
    if need:
        taken = list(state["display"])
        state["display"] = []
        state["seats"][seat]["hand"].extend(taken)
        state["log"].append(entry(f"{state['players'][seat]} took {names_of(cs, taken)} from the display."))
    return _end_turn(state, cs, seat, rng)


def _refill(state: State, cs: CardSet, seat: int, answer: Any, rng: random.Random) -> State:
    need = refill_need(state, cs)
    picks = _pick_list(answer, need, need)
    for p in picks:
        if p not in state["display"]:
            raise IllegalMove("That card is not in the display.")
    new = copy_state(state)
    for p in picks:
        new["display"].remove(p)
    new["seats"][seat]["hand"].extend(picks)
    new["log"].append(entry(f"{new['players'][seat]} took {names_of(cs, picks)} from the display."))
    return _end_turn(new, cs, seat, rng)


def _draw(state: State, rng: random.Random) -> str | None:
    """The top card of the deck; an empty deck is first rebuilt by shuffling the discard pile."""
    if not state["deck"]:
        if not state["discard"]:
            return None
        deck = state["discard"]
        rng.shuffle(deck)
        state["deck"], state["discard"] = deck, []
        state["reshuffles"] += 1
        state["log"].append(entry("The deck ran out: the discard pile was shuffled into a new deck."))
    return state["deck"].pop()


def _draw_to_hand(state: State, cs: CardSet, seat: int, n: int, rng: random.Random) -> None:
    got = []
    for _ in range(n):
        cid = _draw(state, rng)
        if cid is None:
            break
        got.append(cid)
    state["seats"][seat]["hand"].extend(got)
    name = state["players"][seat]
    if not got:
        state["log"].append(entry(f"{name} could not draw: no cards are left."))
        return
    state["log"].append(
        private_line(
            f"{name} drew {counted(len(got), 'card')} from the deck.",
            seat,
            f"You drew {names_of(cs, got)}.",
            f"{name} drew {names_of(cs, got)}.",
        )
    )


def _fill_display(state: State, cs: CardSet, rng: random.Random) -> None:
    added = []
    while len(state["display"]) < DISPLAY_SIZE:
        cid = _draw(state, rng)
        if cid is None:
            break
        state["display"].append(cid)
        added.append(cid)
    if added:
        state["log"].append(entry(f"New in the display: {names_of(cs, added)}."))


def _end_turn(state: State, cs: CardSet, seat: int, rng: random.Random) -> State:
    _fill_display(state, cs, rng)
    n = len(state["seats"])
    state["turns"] += 1
    name = state["players"][seat]
    end = state["end"]
    if end is None and state["trigger"]:
        why = {
            "regular": f"gained their {_ordinal(regulars_to_end(n))} regular",
            "guest": "claimed the last special guest",
        }
        reason = " and ".join(why[t] for t in state["trigger"])
        state["end"] = end = {"by": seat, "reason": f"{name} {reason}", "left": n - 1}
        state["log"].append(entry(f"{name} {reason}: every other player has one more turn."))
    elif end is not None and seat != end["by"]:
        state["end"] = end = {**end, "left": end["left"] - 1}
    state["trigger"] = []
    if end is not None and end["left"] <= 0:
        return _finish(state, end["reason"])
    if state["passes"] >= n:
        return _finish(state, "nobody has a card left to play")
    nxt = (seat + 1) % n
    state["turn"] = nxt
    state["phase"] = "main"
    state["pending"] = []
    claim_guests(state, cs, nxt)
    return state


def _finish(state: State, reason: str) -> State:
    state["over"] = True
    state["phase"] = "over"
    state["end_reason"] = reason
    state["pending"] = []
    state["log"].append(entry("The game is over."))
    return state


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")
