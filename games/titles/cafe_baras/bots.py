"""A quick greedy bot: values each add or serve in points, with a little noise so games differ.

Used to fill seats, to replace absent players, and for the thousands of fuzz games, so it must be
fast (no search, no state copies) and purposeful enough that games end in a sensible number of turns.
"""

from __future__ import annotations

import random
from typing import Any

from .cards import Card, CardSet
from .state import Cafe, State, card_points, cardset_of, effect_limit, refill_need, serve_result

COIN = 0.5  # a coin is half a point at the end, and buys cards meanwhile
NOISE = 0.6


def _delta(cafe: Cafe, card: Card, key: str, v: str) -> int:
    """How much adding `card` raises one selector's count."""
    if key == "food":
        return card.food == v
    if key == "decor":
        return card.decor == v
    if key == "kind":
        return card.kind == v
    if v == "cards":
        return 1
    if v == "distinct_food":
        return bool(card.food) and cafe.foods.get(card.food, 0) == 0
    if v == "distinct_decor":
        return bool(card.decor) and cafe.decor.get(card.decor, 0) == 0
    return 0


def _guest_gain(cs: CardSet, cafe: Cafe, card: Card, guests: list[str]) -> float:
    """Points of face-up guests that adding `card` would let this café claim."""
    gain = 0.0
    for g in guests:
        needs = cs.guest_needs[g]
        met_after = True
        met_now = True
        for key, v, at_least in needs:
            now = cafe.count_kv(key, v)
            if now < at_least:
                met_now = False
                if now + _delta(cafe, card, key, v) < at_least:
                    met_after = False
                    break
        if met_after and not met_now:
            gain += cs.guests[g]["points"]
    return gain


def add_value(cs: CardSet, cafe: Cafe, card: Card, hand: list[str], guests: list[str]) -> float:
    """Rough worth in points of adding `card` (before paying for it)."""
    v = float(card_points(cafe, card))
    if "fixed" not in card.score:
        v += 1.0  # conditional scores tend to grow
    if card.food:
        v += 0.5
        have = cafe.foods.get(card.food, 0)
        for cid in hand:
            if cid == card.id:
                continue
            for w in cs.cards[cid].wants:
                if w.food == card.food and w.count == have + 1:
                    v += 0.6
    elif card.decor:
        if cafe.decor.get(card.decor, 0) == 0:
            v += 1.0 + sum(1.2 for cid in hand if cid != card.id and cs.cards[cid].pref == card.decor)
        else:
            v += 0.1
    for a in card.action:
        if "gain" in a:
            v += a["gain"] * COIN
        elif "gain_per" in a:
            v += 1.0
        elif "draw" in a:
            v += 0.5 * a["draw"]
        else:
            v += 0.5
    for o in card.ongoing:
        v += 1.2 if "serve_bonus" in o else 0.8
    return v + _guest_gain(cs, cafe, card, guests)


def serve_value(cs: CardSet, cafe: Cafe, card: Card) -> float:
    coins, _, regular = serve_result(cs, cafe, card)
    return coins * COIN + (cs.regular_points + 1.0 if regular else 0.0)


def desirability(cs: CardSet, cafe: Cafe, card: Card, hand: list[str], guests: list[str]) -> float:
    """How much a card is worth holding: the better of serving it and adding it."""
    return max(serve_value(cs, cafe, card), add_value(cs, cafe, card, hand, guests) - cafe.cost(card) * COIN)


def bot_answer(state: State, seat: int, rng: random.Random) -> Any:
    cs = cardset_of(state)
    me = state["seats"][seat]
    cafe = Cafe(cs, me)
    hand = me["hand"]
    guests = state["guests"]
    phase = state["phase"]
    if phase == "main":
        if not hand:
            return "pass"
        best, best_v = "", -1e9
        for cid in hand:
            card = cs.cards[cid]
            v = serve_value(cs, cafe, card) + rng.random() * NOISE
            if v > best_v:
                best, best_v = f"serve:{cid}", v
            cost = cafe.cost(card)
            if cost <= me["coins"]:
                v = add_value(cs, cafe, card, hand, guests) - cost * COIN + rng.random() * NOISE
                if v > best_v:
                    best, best_v = f"add:{cid}", v
        return best
    if phase == "effect":
        a = state["pending"][0]
        low, high = effect_limit(state, a)
        if "take" in a:
            ranked = sorted(state["display"], key=lambda c: -desirability(cs, cafe, cs.cards[c], hand, guests))
            return ranked[:low]
        ranked = sorted(hand, key=lambda c: desirability(cs, cafe, cs.cards[c], hand, guests))
        return [c for c in ranked[:high] if desirability(cs, cafe, cs.cards[c], hand, guests) < 1.0]
    need = refill_need(state, cs)
    scored = [(desirability(cs, cafe, cs.cards[c], hand, guests) + rng.random() * NOISE, c) for c in state["display"]]
    scored.sort(reverse=True)
    return [c for _, c in scored[:need]]
