"""The turn: starting, serving, employ and dismiss phases as a run of prompts to one seat.

`prompts` says who decides now; `apply` validates the answer against that very prompt, copies
the state, acts, then `advance` skips steps that hold no decision (a serving phase with nothing
to serve, an employ phase with nothing affordable) so a player is only asked real questions.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Choose, IllegalMove, Option, Prompt
from games.engine.words import counted

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
from .state import State, by_cost, call, clone, empty_maid_stacks, log, name, names, unique, who

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


def symbol_text(card: dict[str, Any]) -> str:
    """'+1 call, +2 servings': the symbols a maid gives when she serves."""
    words = ("call", "love", "serving", "employment")
    return ", ".join(
        f"+{n} {w if n == 1 or w == 'love' else w + 's'}" for n, w in zip(card["symbols"], words, strict=True) if n
    )


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
            detail = "; ".join(p for p in (symbol_text(card), card["text"]) if p)
            opts.append(Option(f"serve:{c}", f"Be served by {card['name']}", detail))
        if card["chamber"] and t["servings"] >= card["chamber"]:
            opts.append(
                Option(
                    f"chamber:{c}",
                    f"Chambermaid {card['name']}",
                    f"{counted(card['chamber'], 'serving')}; she stays in your private quarters",
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
                        f"Acquire {remi['name']} ({remi['vp']} VP)",
                        f"Dismiss {requirement_text(remi['requires'])} from your hand. {remi['text']}",
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
    playing_for: dict[int, str] = {}
    for stack in s["maid_stacks"] + s["love_stacks"]:
        left = s["town"][stack]
        cost = cards[stack]["cost"]
        if left > 0 and cost <= can:
            playing = playing_for.get(cost)
            if playing is None:
                plan = love_plan(s, hand, cost - t["love"], plans) or []
                playing = playing_for[cost] = f"; plays {names(s, plan)}" if plan else ""
            opts.append(
                Option(f"employ:{stack}", f"Employ {cards[stack]['name']} ({cost} love)", f"{left} left{playing}")
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
    status = f"{counted(t['servings'], 'serving')}, {t['love']} love, {counted(t['employments'], 'employment')}"
    if t["phase"] == "start":
        opts = tuple(
            Option(f"start:{c}", f"Dismiss a chambermaided {name(s, c)} and call {s['cards'][c]['start_draws']}")
            for c in start_cards(s, t["seat"])
        )
        return Choose("Start of your turn: use a chambermaid bonus?", opts + (Option("skip", "No, start serving"),))
    if t["phase"] == "serve":
        opts = tuple(serve_options(s)) + (Option("end", "Done serving: go to employing"),)
        return Choose(f"Serving phase ({status}). What next?", opts)
    opts = tuple(employ_options(s)) + (Option("end", "End my turn"),)
    return Choose(f"Employ phase ({status}). Employ whom? Love cards in your hand are played as needed.", opts)


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
            raise IllegalMove("The game is over.")
        raise IllegalMove("It is not your move now.")
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
        log(s, f"{who(s, seat)} dismisses a chambermaided {name(s, cid)}.")
        call(s, seat, cards[cid]["start_draws"], rng, f" ({name(s, cid)})")
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
        log(s, f"{who(s, seat)} is served by {name(s, cid)}" + (f" ({gains})." if gains else "."))
        if d:
            call(s, seat, d, rng)
        maid_effect(s, seat, cid, rng)
    elif verb == "chamber":
        zone["hand"].remove(cid)
        zone["quarters"].append(cid)
        t["servings"] -= cards[cid]["chamber"]
        log(s, f"{who(s, seat)} chambermaids {name(s, cid)} ({counted(cards[cid]['chamber'], 'serving')}).")
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
            log(s, f"{who(s, seat)} plays {names(s, plan)}.")
        t["love"] -= cost
        t["employments"] -= 1
        s["town"][cid] -= 1
        zone["discard"].append(cid)
        log(s, f"{who(s, seat)} employs {name(s, cid)}; {s['town'][cid]} left in the town.")


def end_turn(s: State, rng: random.Random) -> None:
    """Dismiss phase: hand then served staff to the kitchen entrance, call 5, check the game end."""
    t = s["turn"]
    seat = t["seat"]
    zone = s["seats"][seat]
    zone["discard"].extend(zone["hand"])
    zone["discard"].extend(zone["played"])
    zone["hand"] = []
    zone["played"] = []
    log(s, f"{who(s, seat)} dismisses their staff.")
    call(s, seat, HAND_SIZE + t["extra_draws"], rng)
    s["turns"] += 1
    empty = empty_maid_stacks(s)
    if len(empty) >= s["end_at"]:
        s["over"] = True
        s["end_reason"] = f"{counted(len(empty), 'maid stack')} in the town ran out: {names(s, empty)}."
        log(s, "The game ends: " + s["end_reason"])
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
    log(s, f"{who(s, 0)} takes the first turn.")
    advance(s, rng)
    return s


__all__ = ["apply", "begin", "prompts", "clone"]
