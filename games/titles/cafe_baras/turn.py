"""The turn: what the seat to move is asked, as typed prompts, and the safe answer when a deadline
passes; then applying an answer (add or serve, the added card's effects, refill), drawing, and the
end of a turn (the end of the game triggered and played out).
"""

from __future__ import annotations

import random
from typing import Any

from games.engine.errors import IllegalMove
from games.engine.log import entry
from games.engine.messages import card_ref, list_ref, msg, nmsg, seat_ref
from games.engine.prompts import Choose, ChooseMany, Option, Prompt

from .bots import bot_answer
from .cards import Card, CardSet, action_msg, customer_words, top_words
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
        ("card", id(card)),
        lambda: Option(
            card.id,
            card_ref(card.name),
            msg("%(top)s. Customer: %(customer)s.", top=top_words(card), customer=customer_words(card)),
        ),
    )


def _add_option(card: Card, cost: int) -> Option:
    def make() -> Option:
        detail = top_words(card)
        for a in card.action:
            detail = msg("%(top)s; when added: %(action)s", top=detail, action=action_msg(a))
        label = nmsg(
            "Add %(card)s for %(n)s coin", "Add %(card)s for %(n)s coins", "n", card=card_ref(card.name), n=cost
        )
        return Option(f"add:{card.id}", label, detail)

    return _memo(("add", id(card), cost), make)


def _serve_option(card: Card, result: tuple[int, bool, bool]) -> Option:
    def make() -> Option:
        coins, _, regular = result
        if regular:
            label = nmsg(
                "Serve the %(card)s customer: +%(n)s coin, becomes a regular",
                "Serve the %(card)s customer: +%(n)s coins, becomes a regular",
                "n",
                card=card_ref(card.name),
                n=coins,
            )
        else:
            label = nmsg(
                "Serve the %(card)s customer: +%(n)s coin",
                "Serve the %(card)s customer: +%(n)s coins",
                "n",
                card=card_ref(card.name),
                n=coins,
            )
        return Option(f"serve:{card.id}", label, customer_words(card, start=True))

    return _memo(("serve", id(card), result), make)


PASS = Option("pass", msg("Pass"), msg("Nothing to add or serve this turn."))


def main_prompt(state: State, cs: CardSet) -> Choose:
    me = state["seats"][state["turn"]]
    if not me["hand"]:
        return Choose(msg("You have no cards and none are left to take."), (PASS,))
    adds, serves = main_choices(state, cs)
    options = [_add_option(card, cost) for _, card, cost in adds]
    options += [_serve_option(card, result) for _, card, result in serves]
    return Choose(
        nmsg(
            "Your turn (%(n)s coin): add a card to your café, or serve its customer.",
            "Your turn (%(n)s coins): add a card to your café, or serve its customer.",
            "n",
            n=me["coins"],
        ),
        tuple(options),
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
    who = list_ref([seat_ref((state["turn"] + k) % n) for k in range((seat - state["turn"]) % n)])
    last = state["end"] is not None or bool(state["trigger"])
    me = state["seats"][seat]
    if not me["hand"]:
        if last:
            text = msg("Your next turn (your last), after %(who)s: you have no cards, so you can only pass.", who=who)
        else:
            text = msg("Your next turn, after %(who)s: you have no cards, so you can only pass.", who=who)
        return Choose(text, mine.options)
    if last:
        text = nmsg(
            "Your next turn (your last), after %(who)s (%(n)s coin): add a card to your café, or serve its customer.",
            "Your next turn (your last), after %(who)s (%(n)s coins): add a card to your café, or serve its customer.",
            "n",
            who=who,
            n=me["coins"],
        )
    else:
        text = nmsg(
            "Your next turn, after %(who)s (%(n)s coin): add a card to your café, or serve its customer.",
            "Your next turn, after %(who)s (%(n)s coins): add a card to your café, or serve its customer.",
            "n",
            who=who,
            n=me["coins"],
        )
    return Choose(text, mine.options)


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
        source = card_ref(cs.cards[state["source"]].name)
        if "take" in a:
            opts = tuple(card_option(cs.cards[c]) for c in state["display"])
            text = nmsg(
                "%(source)s: take %(n)s card of your choice from the display.",
                "%(source)s: take %(n)s cards of your choice from the display.",
                "n",
                source=source,
                n=low,
            )
            return {seat: ChooseMany(text, opts, low, high)}
        opts = tuple(card_option(cs.cards[c]) for c in state["seats"][seat]["hand"])
        text = nmsg(
            "%(source)s: discard up to %(n)s card from your hand; you then draw as many from the deck.",
            "%(source)s: discard up to %(n)s cards from your hand; you then draw as many from the deck.",
            "n",
            source=source,
            n=high,
        )
        return {seat: ChooseMany(text, opts, low, high)}
    need = refill_need(state, cs)
    opts = tuple(card_option(cs.cards[c]) for c in state["display"])
    text = nmsg(
        "Refill your hand: take %(n)s card from the display.",
        "Refill your hand: take %(n)s cards from the display.",
        "n",
        n=need,
    )
    return {seat: ChooseMany(text, opts, need, need)}


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
        raise IllegalMove(msg("The game is over."))
    if seat != state["turn"]:
        raise IllegalMove(msg("It is not your turn: %(seat)s is playing.", seat=seat_ref(state["turn"])))
    cs = cardset_of(state)
    phase = state["phase"]
    if phase == "main":
        return _main(state, cs, seat, answer, rng)
    if phase == "effect":
        return _effect(state, cs, seat, answer, rng)
    return _refill(state, cs, seat, answer, rng)


def _main(state: State, cs: CardSet, seat: int, answer: Any, rng: random.Random) -> State:
    me = state["seats"][seat]
    who = seat_ref(seat)
    if answer == "pass":
        if me["hand"]:
            raise IllegalMove(msg("You still have cards: add one to your café or serve its customer."))
        new = copy_state(state)
        new["passes"] += 1
        new["log"].append(entry(msg("%(seat)s has no cards and passes.", seat=who)))
        return _after_action(new, cs, seat, rng)
    if not isinstance(answer, str) or ":" not in answer:
        raise IllegalMove(msg("Choose a card to add or a customer to serve."))
    verb, _, cid = answer.partition(":")
    if verb not in ("add", "serve"):
        raise IllegalMove(msg("Choose a card to add or a customer to serve."))
    if cid not in me["hand"]:
        raise IllegalMove(msg("That card is not in your hand."))
    card = cs.cards[cid]
    cafe = Cafe(cs, me)
    if verb == "add":
        cost = cafe.cost(card)
        if cost > me["coins"]:
            raise IllegalMove(
                nmsg(
                    "%(card)s costs %(n)s coin and you have %(have)s.",
                    "%(card)s costs %(n)s coins and you have %(have)s.",
                    "n",
                    card=card_ref(card.name),
                    n=cost,
                    have=me["coins"],
                )
            )
        new = copy_state(state)
        m = new["seats"][seat]
        m["hand"].remove(cid)
        m["coins"] -= cost
        m["cafe"].append(cid)
        new["passes"] = 0
        new["log"].append(
            entry(
                nmsg(
                    "%(seat)s added %(card)s to their café for %(n)s coin.",
                    "%(seat)s added %(card)s to their café for %(n)s coins.",
                    "n",
                    seat=who,
                    card=card_ref(card.name),
                    n=cost,
                )
            )
        )
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
            entry(
                nmsg(
                    "%(seat)s served the %(card)s customer for %(n)s coin; they became a regular.",
                    "%(seat)s served the %(card)s customer for %(n)s coins; they became a regular.",
                    "n",
                    seat=who,
                    card=card_ref(card.name),
                    n=coins,
                )
            )
        )
        if len(m["regulars"]) >= regulars_to_end(len(new["seats"])):
            new["trigger"] = [*new["trigger"], "regular"]
    else:
        new["discard"].append(cid)
        new["log"].append(
            entry(
                nmsg(
                    "%(seat)s served the %(card)s customer for %(n)s coin.",
                    "%(seat)s served the %(card)s customer for %(n)s coins.",
                    "n",
                    seat=who,
                    card=card_ref(card.name),
                    n=coins,
                )
            )
        )
    return _after_action(new, cs, seat, rng)


def _run_pending(state: State, cs: CardSet, seat: int, rng: random.Random) -> State:
    """Resolve the added card's actions in order; stop at a choice (take / recycle) the seat must make."""
    me = state["seats"][seat]
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
            state["log"].append(entry(_gained(seat, a["gain"])))
        elif "gain_per" in a:
            got = Cafe(cs, me).count(a["gain_per"]) * a["coins"]
            if a.get("max"):
                got = min(got, a["max"])
            me["coins"] += got
            state["log"].append(entry(_gained(seat, got)))
        elif "draw" in a:
            _draw_to_hand(state, cs, seat, a["draw"], rng)
    state["phase"] = "main"
    state["source"] = None
    return _after_action(state, cs, seat, rng)


def _gained(seat: int, n: int) -> dict[str, Any]:
    return nmsg("%(seat)s gained %(n)s coin.", "%(seat)s gained %(n)s coins.", "n", seat=seat_ref(seat), n=n)


def _effect(state: State, cs: CardSet, seat: int, answer: Any, rng: random.Random) -> State:
    a = state["pending"][0]
    low, high = effect_limit(state, a)
    picks = _pick_list(answer, low, high)
    me = state["seats"][seat]
    who = seat_ref(seat)
    pool = state["display"] if "take" in a else me["hand"]
    for p in picks:
        if p not in pool:
            if "take" in a:
                raise IllegalMove(msg("That card is not in the display."))
            raise IllegalMove(msg("That card is not in your hand."))
    new = copy_state(state)
    new["pending"].pop(0)
    m = new["seats"][seat]
    if "take" in a:
        for p in picks:
            new["display"].remove(p)
            m["hand"].append(p)
        new["log"].append(entry(msg("%(seat)s took %(cards)s from the display.", seat=who, cards=names_of(cs, picks))))
    else:
        for p in picks:
            m["hand"].remove(p)
            new["discard"].append(p)
        if picks:
            new["log"].append(entry(msg("%(seat)s discarded %(cards)s.", seat=who, cards=names_of(cs, picks))))
            _draw_to_hand(new, cs, seat, len(picks), rng)
        else:
            new["log"].append(entry(msg("%(seat)s kept their hand.", seat=who)))
    return _run_pending(new, cs, seat, rng)


def _pick_list(answer: Any, low: int, high: int) -> list[str]:
    if not isinstance(answer, list | tuple) or not all(isinstance(a, str) for a in answer):
        raise IllegalMove(msg("Pick cards from the choices offered."))
    if len(set(answer)) != len(answer):
        raise IllegalMove(msg("Each card can be picked only once."))
    if not low <= len(answer) <= high:
        if low == high:
            raise IllegalMove(nmsg("Pick exactly %(n)s card.", "Pick exactly %(n)s cards.", "n", n=low))
        raise IllegalMove(msg("Pick %(low)s to %(high)s cards.", low=low, high=high))
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
        state["log"].append(
            entry(msg("%(seat)s took %(cards)s from the display.", seat=seat_ref(seat), cards=names_of(cs, taken)))
        )
    return _end_turn(state, cs, seat, rng)


def _refill(state: State, cs: CardSet, seat: int, answer: Any, rng: random.Random) -> State:
    need = refill_need(state, cs)
    picks = _pick_list(answer, need, need)
    for p in picks:
        if p not in state["display"]:
            raise IllegalMove(msg("That card is not in the display."))
    new = copy_state(state)
    for p in picks:
        new["display"].remove(p)
    new["seats"][seat]["hand"].extend(picks)
    new["log"].append(
        entry(msg("%(seat)s took %(cards)s from the display.", seat=seat_ref(seat), cards=names_of(cs, picks)))
    )
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
        state["log"].append(entry(msg("The deck ran out: the discard pile was shuffled into a new deck.")))
    return state["deck"].pop()


def _draw_to_hand(state: State, cs: CardSet, seat: int, n: int, rng: random.Random) -> None:
    got = []
    for _ in range(n):
        cid = _draw(state, rng)
        if cid is None:
            break
        got.append(cid)
    state["seats"][seat]["hand"].extend(got)
    who = seat_ref(seat)
    if not got:
        state["log"].append(entry(msg("%(seat)s could not draw: no cards are left.", seat=who)))
        return
    state["log"].append(
        private_line(
            nmsg(
                "%(seat)s drew %(n)s card from the deck.",
                "%(seat)s drew %(n)s cards from the deck.",
                "n",
                seat=who,
                n=len(got),
            ),
            seat,
            msg("You drew %(cards)s.", cards=names_of(cs, got)),
            msg("%(seat)s drew %(cards)s.", seat=who, cards=names_of(cs, got)),
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
        state["log"].append(entry(msg("New in the display: %(cards)s.", cards=names_of(cs, added))))


def _end_turn(state: State, cs: CardSet, seat: int, rng: random.Random) -> State:
    _fill_display(state, cs, rng)
    n = len(state["seats"])
    state["turns"] += 1
    end = state["end"]
    if end is None and state["trigger"]:
        reason = _end_reason(seat, regulars_to_end(n), set(state["trigger"]))
        state["end"] = end = {"by": seat, "reason": reason, "left": n - 1}
        state["log"].append(entry(msg("%(reason)s: every other player has one more turn.", reason=reason)))
    elif end is not None and seat != end["by"]:
        state["end"] = end = {**end, "left": end["left"] - 1}
    state["trigger"] = []
    if end is not None and end["left"] <= 0:
        return _finish(state, end["reason"])
    if state["passes"] >= n:
        return _finish(state, msg("nobody has a card left to play"))
    nxt = (seat + 1) % n
    state["turn"] = nxt
    state["phase"] = "main"
    state["pending"] = []
    claim_guests(state, cs, nxt)
    return state


def _finish(state: State, reason: Any) -> State:
    state["over"] = True
    state["phase"] = "over"
    state["end_reason"] = reason
    state["pending"] = []
    state["log"].append(entry(msg("The game is over.")))
    return state


def _end_reason(seat: int, regulars: int, trigger: set[str]) -> dict[str, Any]:
    """Why the end came, a whole sentence with the seat in it (stored in state["end"]["reason"])."""
    who = seat_ref(seat)
    if trigger == {"guest"}:
        return msg("%(seat)s claimed the last special guest", seat=who)
    both = "guest" in trigger
    if regulars == 4:
        if both:
            return msg("%(seat)s gained their fourth regular and claimed the last special guest", seat=who)
        return msg("%(seat)s gained their fourth regular", seat=who)
    if regulars == 3:
        if both:
            return msg("%(seat)s gained their third regular and claimed the last special guest", seat=who)
        return msg("%(seat)s gained their third regular", seat=who)
    if both:
        return msg("%(seat)s gained regular number %(n)s and claimed the last special guest", seat=who, n=regulars)
    return msg("%(seat)s gained regular number %(n)s", seat=who, n=regulars)
