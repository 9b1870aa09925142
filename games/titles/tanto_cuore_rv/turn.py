"""The turn: starting, serving, employ and dismiss phases as a run of prompts to one seat.

`prompts` says who decides now; `apply` validates the answer against that very prompt, copies
the state, acts, then `advance` skips steps that hold no decision (a serving phase with nothing
to serve, an employ phase with nothing affordable) so a player is only asked real questions.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Choose, IllegalMove, Option, Prompt
from games.engine.messages import Msg, msg, nmsg

from .effects import (
    MAIN,
    OTHERS_DECIDE,
    STAGES,
    acquire,
    can_pay,
    forced_payment,
    maid_effect,
    requirement_text,
)
from .state import State, by_cost, call, card_text, clone, comma_list, empty_maid_stacks, log, name, names, unique, who

HAND_SIZE = 5


def new_turn(s: State, seat: int) -> None:
    s["turn"] = {
        "seat": seat,
        "phase": "start",
        "servings": 1,
        "love": 0,
        "employments": 1,
        "remi_done": False,
        "extra_draws": 0,
        "number": s["turns"] + 1,
    }
    s["stage"] = dict(MAIN)


def start_cards(s: State, seat: int) -> list[str]:
    """Chambermaids whose bonus acts at the start of the turn (Valencia)."""
    cards = s["cards"]
    return [c for c in unique(s["seats"][seat]["quarters"]) if cards[c].get("start_draws")]


def symbol_words(card: dict[str, Any]) -> list[Msg]:
    """'+1 call', '+2 servings': the symbols a maid gives when she serves, one message each."""
    d, lv, sv, e = card["symbols"]
    out = []
    if d:
        out.append(nmsg("+%(n)s call", "+%(n)s calls", "n", n=d))
    if lv:
        out.append(msg("+%(n)s love", n=lv))
    if sv:
        out.append(nmsg("+%(n)s serving", "+%(n)s servings", "n", n=sv))
    if e:
        out.append(nmsg("+%(n)s employment", "+%(n)s employments", "n", n=e))
    return out


def symbol_text(card: dict[str, Any]) -> Msg | None:
    """'+1 call, +2 servings': the symbols a maid gives when she serves (None: none)."""
    words = symbol_words(card)
    return comma_list(words) if words else None


def love_plans(s: State, hand: list[str]) -> list[list[str]]:
    """For each total of love the hand's love cards can make, the fewest cards that make it.

    Index = love total. Entries the hand cannot make exactly are empty lists except index 0.
    One small subset-sum table per hand, so every stack's offer reuses it.
    """
    cards = s["cards"]
    plans: list[list[str] | None] = [[]]
    for c in hand:
        card = cards[c]
        if card["type"] != "love":
            continue
        v = card["love"]
        plans.extend([None] * v)
        for total in range(len(plans) - 1 - v, -1, -1):
            base = plans[total]
            if base is not None:
                cur = plans[total + v]
                if cur is None or len(cur) > len(base) + 1:
                    plans[total + v] = base + [c]
    return [p if p is not None else [] for p in plans] if plans else [[]]


def love_plan(s: State, hand: list[str], need: int, plans: list[list[str]] | None = None) -> list[str] | None:
    """The love cards from the hand to play for `need` more love: least love wasted, then fewest cards."""
    if need <= 0:
        return []
    if plans is None:
        plans = love_plans(s, hand)
    for total in range(need, len(plans)):
        if plans[total]:
            return plans[total]
    return None


def does_something(card: dict[str, Any]) -> bool:
    """A maid with no symbol and no text (Sophia, Beatrice) is never offered for serving: it would
    only spend the serving and move her out of the hand, where a reminiscence could use her."""
    return any(card["symbols"]) or card["effect"]["kind"] != "none"


def serve_options(s: State) -> list[Option]:
    t = s["turn"]
    seat = t["seat"]
    cards = s["cards"]
    hand = s["seats"][seat]["hand"]
    opts: list[Option] = []
    for c in by_cost(s, unique(hand)):
        card = cards[c]
        if card["type"] == "love":
            continue
        if t["servings"] >= 1 and does_something(card):
            gains = symbol_text(card)
            text = card_text(card)
            detail = msg("%(symbols)s; %(text)s", symbols=gains, text=text) if gains else text
            opts.append(Option(f"serve:{c}", msg("Be served by %(card)s", card=name(s, c)), detail))
        if card["chamber"] and t["servings"] >= card["chamber"]:
            opts.append(
                Option(
                    f"chamber:{c}",
                    msg("Chambermaid %(card)s", card=name(s, c)),
                    nmsg(
                        "%(n)s serving; she stays in your private quarters",
                        "%(n)s servings; she stays in your private quarters",
                        "n",
                        n=card["chamber"],
                    ),
                )
            )
    if not t["remi_done"]:
        costs = [cards[c]["cost"] for c in hand]
        for r in unique(s["remi_row"]):
            remi = cards[r]
            if can_pay(s, hand, remi["requires"], costs):
                opts.append(
                    Option(
                        f"remi:{r}",
                        msg("Acquire %(card)s (%(vp)s VP)", card=name(s, r), vp=remi["vp"]),
                        msg(
                            "Dismiss %(needs)s from your hand. %(text)s",
                            needs=requirement_text(remi["requires"]),
                            text=card_text(remi),
                        ),
                    )
                )
    return opts


def can_serve(s: State) -> bool:
    """Is there anything to do in the serving phase? (cheap: no labels built)"""
    t = s["turn"]
    cards = s["cards"]
    hand = s["seats"][t["seat"]]["hand"]
    sv = t["servings"]
    for c in hand:
        card = cards[c]
        if card["type"] == "love":
            continue
        if (sv >= 1 and does_something(card)) or (card["chamber"] and sv >= card["chamber"]):
            return True
    if not t["remi_done"]:
        costs = [cards[c]["cost"] for c in hand]
        return any(can_pay(s, hand, cards[r]["requires"], costs) for r in s["remi_row"])
    return False


def can_employ(s: State) -> bool:
    """Is any stack affordable with the love at hand? (cheap: no labels built)"""
    t = s["turn"]
    if t["employments"] < 1:
        return False
    cards = s["cards"]
    can = t["love"] + sum(cards[c].get("love", 0) for c in s["seats"][t["seat"]]["hand"] if cards[c]["type"] == "love")
    town = s["town"]
    return any(town[k] > 0 and cards[k]["cost"] <= can for k in town)


def employ_options(s: State) -> list[Option]:
    t = s["turn"]
    if t["employments"] < 1:
        return []
    hand = s["seats"][t["seat"]]["hand"]
    cards = s["cards"]
    plans = love_plans(s, hand)
    can = t["love"] + len(plans) - 1
    opts = []
    playing_for: dict[int, Any] = {}  # by cost: the love cards played for it (None: none needed)
    for stack in s["maid_stacks"] + s["love_stacks"]:
        left = s["town"][stack]
        cost = cards[stack]["cost"]
        if left > 0 and cost <= can:
            if cost not in playing_for:
                plan = love_plan(s, hand, cost - t["love"], plans)
                playing_for[cost] = names(s, plan) if plan else None
            playing = playing_for[cost]
            detail = msg("%(n)s left; plays %(cards)s", n=left, cards=playing) if playing else msg("%(n)s left", n=left)
            opts.append(
                Option(
                    f"employ:{stack}", msg("Employ %(card)s (%(cost)s love)", card=name(s, stack), cost=cost), detail
                )
            )
    return opts


_MAIN_CACHE: dict[tuple, Prompt] = {}


def _main_prompt(s: State) -> Prompt:
    """The seat's own prompt, memoised on everything it reads (the service, the bot and apply
    all ask for the same prompt in one step; the key is content, so it can never go stale)."""
    t = s["turn"]
    zone = s["seats"][t["seat"]]
    key = (
        s.get("cardset_hash"),
        t["seat"],
        t["phase"],
        t["servings"],
        t["love"],
        t["employments"],
        t["remi_done"],
        tuple(zone["hand"]),
        tuple(zone["quarters"]) if t["phase"] == "start" else (),
        tuple(s["remi_row"]),
        tuple(s["town"].items()),
    )
    hit = _MAIN_CACHE.get(key)
    if hit is None:
        if len(_MAIN_CACHE) > 256:
            _MAIN_CACHE.clear()
        hit = _MAIN_CACHE[key] = _build_main_prompt(s)
    return hit


def _build_main_prompt(s: State) -> Prompt:
    t = s["turn"]
    if t["phase"] == "start":
        opts = tuple(
            Option(
                f"start:{c}",
                msg("Dismiss a chambermaided %(card)s and call %(n)s", card=name(s, c), n=s["cards"][c]["start_draws"]),
            )
            for c in start_cards(s, t["seat"])
        )
        return Choose(
            msg("Start of your turn: use a chambermaid bonus?"), opts + (Option("skip", msg("No, start serving")),)
        )
    status = turn_status(t)
    if t["phase"] == "serve":
        opts = tuple(serve_options(s)) + (Option("end", msg("Done serving: go to employing")),)
        return Choose(msg("Serving phase (%(status)s). What next?", status=status), opts)
    opts = tuple(employ_options(s)) + (Option("end", msg("End my turn")),)
    return Choose(
        msg("Employ phase (%(status)s). Employ whom? Love cards in your hand are played as needed.", status=status),
        opts,
    )


def turn_status(t: dict[str, Any]) -> Msg:
    """'1 serving, 0 love, 1 employment': what the turn has left to spend."""
    return msg(
        "%(servings)s, %(love)s love, %(employments)s",
        servings=nmsg("%(n)s serving", "%(n)s servings", "n", n=t["servings"]),
        love=t["love"],
        employments=nmsg("%(n)s employment", "%(n)s employments", "n", n=t["employments"]),
    )


def prompts(state: State) -> dict[int, Prompt]:
    if state["over"]:
        return {}
    stage = state["stage"]
    kind = stage["kind"]
    if kind == "main":
        return {state["turn"]["seat"]: _main_prompt(state)}
    ask = STAGES[kind][0]
    if kind in OTHERS_DECIDE:
        return {seat: ask(state, seat) for seat in stage["waiting"]}
    seat = state["turn"]["seat"]
    return {seat: ask(state, seat)}


def apply(state: State, seat: int, answer: Any, rng: random.Random) -> State:
    ps = prompts(state)
    if seat not in ps:
        if state["over"]:
            raise IllegalMove(msg("The game is over."))
        raise IllegalMove(msg("It is not your move now."))
    answer = ps[seat].validate(answer)
    s = clone(state)
    kind = s["stage"]["kind"]
    if kind == "main":
        _main_answer(s, seat, answer, rng)
    else:
        STAGES[kind][1](s, seat, answer, rng)
    advance(s, rng)
    return s


def _main_answer(s: State, seat: int, answer: str, rng: random.Random) -> None:
    t = s["turn"]
    zone = s["seats"][seat]
    cards = s["cards"]
    verb, _, cid = answer.partition(":")
    if t["phase"] == "start":
        if verb == "skip":
            t["phase"] = "serve"
            return
        zone["quarters"].remove(cid)
        zone["discard"].append(cid)
        log(s, msg("%(seat)s dismisses a chambermaided %(card)s.", seat=who(s, seat), card=name(s, cid)))
        call(s, seat, cards[cid]["start_draws"], rng, cid)
        return
    if verb == "end":
        t["phase"] = "employ" if t["phase"] == "serve" else "end"
        return
    if verb == "serve":
        zone["hand"].remove(cid)
        zone["played"].append(cid)
        t["servings"] -= 1
        d, lv, sv, e = cards[cid]["symbols"]
        t["love"] += lv
        t["servings"] += sv
        t["employments"] += e
        gains = symbol_text(cards[cid])
        if gains:
            log(
                s,
                msg("%(seat)s is served by %(card)s (%(gains)s).", seat=who(s, seat), card=name(s, cid), gains=gains),
            )
        else:
            log(s, msg("%(seat)s is served by %(card)s.", seat=who(s, seat), card=name(s, cid)))
        if d:
            call(s, seat, d, rng)
        maid_effect(s, seat, cid, rng)
    elif verb == "chamber":
        zone["hand"].remove(cid)
        zone["quarters"].append(cid)
        t["servings"] -= cards[cid]["chamber"]
        log(
            s,
            nmsg(
                "%(seat)s chambermaids %(card)s (%(n)s serving).",
                "%(seat)s chambermaids %(card)s (%(n)s servings).",
                "n",
                seat=who(s, seat),
                card=name(s, cid),
                n=cards[cid]["chamber"],
            ),
        )
    elif verb == "remi":
        pay = forced_payment(s, zone["hand"], cards[cid]["requires"])
        if pay is None:
            s["stage"] = {"kind": "remi_pay", "remi": cid}
        else:
            acquire(s, seat, cid, pay, rng)
    elif verb == "employ":
        cost = cards[cid]["cost"]
        plan = love_plan(s, zone["hand"], cost - t["love"]) or []
        for c in plan:
            zone["hand"].remove(c)
            zone["played"].append(c)
            t["love"] += cards[c]["love"]
        if plan:
            log(s, msg("%(seat)s plays %(cards)s.", seat=who(s, seat), cards=names(s, plan)))
        t["love"] -= cost
        t["employments"] -= 1
        s["town"][cid] -= 1
        zone["discard"].append(cid)
        log(
            s,
            msg(
                "%(seat)s employs %(card)s; %(n)s left in the town.",
                seat=who(s, seat),
                card=name(s, cid),
                n=s["town"][cid],
            ),
        )


def end_turn(s: State, rng: random.Random) -> None:
    """Dismiss phase: hand then served staff to the kitchen entrance, call 5, check the game end."""
    t = s["turn"]
    seat = t["seat"]
    zone = s["seats"][seat]
    zone["discard"].extend(zone["hand"])
    zone["discard"].extend(zone["played"])
    zone["hand"] = []
    zone["played"] = []
    log(s, msg("%(seat)s dismisses their staff.", seat=who(s, seat)))
    call(s, seat, HAND_SIZE + t["extra_draws"], rng)
    s["turns"] += 1
    empty = empty_maid_stacks(s)
    if len(empty) >= s["end_at"]:
        s["over"] = True
        s["end_reason"] = nmsg(
            "%(n)s maid stack in the town ran out: %(cards)s.",
            "%(n)s maid stacks in the town ran out: %(cards)s.",
            "n",
            n=len(empty),
            cards=names(s, empty),
        )
        log(s, msg("The game ends: %(reason)s", reason=s["end_reason"]))
        return
    new_turn(s, (seat + 1) % len(s["players"]))


def advance(s: State, rng: random.Random) -> None:
    """Move past every step that holds no decision."""
    while not s["over"] and s["stage"]["kind"] == "main":
        t = s["turn"]
        if t["phase"] == "start" and not start_cards(s, t["seat"]):
            t["phase"] = "serve"
        elif t["phase"] == "serve" and not can_serve(s):
            t["phase"] = "employ"
        elif t["phase"] == "employ" and not can_employ(s):
            t["phase"] = "end"
        elif t["phase"] == "end":
            end_turn(s, rng)
        else:
            return


def begin(s: State, rng: random.Random) -> State:
    """The first turn of a fresh table (called by setup)."""
    new_turn(s, 0)
    log(s, msg("%(seat)s takes the first turn.", seat=who(s, 0)))
    advance(s, rng)
    return s


__all__ = ["apply", "begin", "prompts", "clone"]
