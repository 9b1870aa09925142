"""Café Baras' table: the state's shape and helpers, what a café provides (counted), a new table,
what the seat to move may do (as data), and guests claimed. The turn that changes it is turn.py's,
the end's scores scoring.py's.

State is plain JSON. The card set travels inside it (state["cardset"]) and is never copied: apply()
copies only the parts of the table that change. Every rule decision the rulebook leaves open is written
in README.md next to this file.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine.errors import OptionsError
from games.engine.log import entry
from games.engine.messages import card_ref, list_ref, msg, seat_ref

from .cards import Card, CardSet, compiled, load_cardset, verify

HAND_SIZE = 4
DISPLAY_SIZE = 4
START_COINS = 7
MIN_PLAYERS, MAX_PLAYERS = 2, 4

State = dict[str, Any]


# ---------------------------------------------------------------- small helpers


def cardset_of(state: State) -> CardSet:
    return compiled(state["cardset"])


def regulars_to_end(players: int) -> int:
    """The third regular ends the game; the fourth with two players."""
    return 4 if players == 2 else 3


def names_of(cs: CardSet, ids: list[str]) -> dict[str, Any]:
    """The cards' names as a list the reader's language joins ("Latte, Mocha and Bagel")."""
    return list_ref([card_ref(cs.cards[i].name) for i in ids])


def copy_state(state: State) -> State:
    """A copy deep enough that apply() never changes its input; the card set stays shared."""
    new = dict(state)
    for key in ("deck", "discard", "display", "guests", "box", "pending", "log"):
        new[key] = list(state[key])
    new["seats"] = [
        {
            "hand": list(s["hand"]),
            "coins": s["coins"],
            "counter": s["counter"],
            "cafe": list(s["cafe"]),
            "regulars": list(s["regulars"]),
            "guests": list(s["guests"]),
        }
        for s in state["seats"]
    ]
    return new


# ---------------------------------------------------------------- a café, counted


_TALLIES: dict[tuple[str, ...], tuple[dict[str, int], dict[str, int], dict[str, int], list[dict[str, Any]]]] = {}


def _tally(cs: CardSet, key: tuple[str, ...]) -> tuple:
    """(foods, decor, kinds, ongoing) of a café row, memoised: the same rows recur all game long.

    key = (set hash, counter id, café card ids...).
    """
    got = _TALLIES.get(key)
    if got is not None:
        return got
    foods: dict[str, int] = {}
    counter, cafe = key[1], key[2:]
    for f in cs.counters[counter]["provides"]:
        foods[f] = foods.get(f, 0) + 1
    decor: dict[str, int] = {}
    kinds = {"food": 0, "decor": 0, "equipment": 0}
    ongoing: list[dict[str, Any]] = []
    cards = cs.cards
    for cid in cafe:
        c = cards[cid]
        kinds[c.kind] += 1
        if c.food:
            foods[c.food] = foods.get(c.food, 0) + 1
        elif c.decor:
            decor[c.decor] = decor.get(c.decor, 0) + 1
        if c.ongoing:
            ongoing.extend(c.ongoing)
    if len(_TALLIES) > 50_000:
        _TALLIES.clear()
    got = _TALLIES[key] = (foods, decor, kinds, ongoing)
    return got


class Cafe:
    """What one seat's café provides: food symbols, decor, kinds, ongoing effects (computed, never stored).

    The dicts are shared with a memo: read them, never change them.
    """

    __slots__ = ("foods", "decor", "kinds", "ongoing", "seat", "key")

    def __init__(self, cs: CardSet, seat: dict[str, Any]):
        self.seat = seat
        self.key = (cs.hash, seat["counter"], *seat["cafe"])
        self.foods, self.decor, self.kinds, self.ongoing = _tally(cs, self.key)

    def count(self, sel: dict[str, str]) -> int:
        """How many of a selector's things this café (or its seat) has."""
        ((key, v),) = sel.items()
        return self.count_kv(key, v)

    def count_kv(self, key: str, v: str) -> int:
        if key == "food":
            return self.foods.get(v, 0)
        if key == "decor":
            return self.decor.get(v, 0)
        if key == "kind":
            return self.kinds[v]
        s = self.seat
        if v == "regulars":
            return len(s["regulars"])
        if v == "guests":
            return len(s["guests"])
        if v == "cards":
            return len(s["cafe"])
        if v == "coins":
            return s["coins"]
        if v == "distinct_food":
            return sum(1 for n in self.foods.values() if n > 0)
        return sum(1 for n in self.decor.values() if n > 0)

    def cost(self, card: Card) -> int:
        """A card's cost after this café's ongoing discounts (never below 0)."""
        cost = card.cost
        for o in self.ongoing:
            if "discount" in o:
                ((key, v),) = o["applies_to"].items()
                if (
                    (key == "kind" and card.kind == v)
                    or (key == "food" and card.food == v)
                    or (key == "decor" and card.decor == v)
                ):
                    cost -= o["discount"]
        return max(0, cost)

    def hand_size(self) -> int:
        return HAND_SIZE + sum(o["hand_size"] for o in self.ongoing if "hand_size" in o)

    def qualifies(self, needs: tuple[tuple[str, str, int], ...]) -> bool:
        """Whether this café meets every (selector key, value, at least) of a guest."""
        for key, v, at_least in needs:
            if self.count_kv(key, v) < at_least:
                return False
        return True


_SERVES: dict[tuple[tuple[str, ...], str], tuple[int, bool, bool]] = {}


def serve_result(cs: CardSet, cafe: Cafe, card: Card) -> tuple[int, bool, bool]:
    """serve_outcome, memoised per café row and customer (it depends on nothing else)."""
    key = (cafe.key, card.id)
    got = _SERVES.get(key)
    if got is None:
        if len(_SERVES) > 200_000:
            _SERVES.clear()
        got = _SERVES[key] = serve_outcome(cs, cafe, card)
    return got


def serve_outcome(cs: CardSet, cafe: Cafe, card: Card) -> tuple[int, bool, bool]:
    """(coins earned, every want fulfilled, becomes a regular) for serving `card`'s customer.

    Wants are matched per food type; one food symbol fulfils one want, a want for N of a food needs N
    symbols and earns one coin (plus the heart bonus if it carries a heart). When several wants of one
    type compete for too few symbols, the most lucrative set is fulfilled.
    """
    foods = cafe.foods
    coins = 0
    all_met = True
    served: set[str] = set()
    for food, wants in card.by_type:
        have = foods.get(food, 0)
        if len(wants) == 1:
            need, heart = wants[0]
            if need <= have:
                coins += 1 + (cs.heart_bonus if heart else 0)
                served.add(food)
            else:
                all_met = False
            continue
        best, best_n = 0, 0
        for mask in range(1, 1 << len(wants)):
            used = earned = n = 0
            for i, (need, heart) in enumerate(wants):
                if mask >> i & 1:
                    used += need
                    earned += 1 + (cs.heart_bonus if heart else 0)
                    n += 1
            if used <= have and (earned, n) > (best, best_n):
                best, best_n = earned, n
        coins += best
        if best_n:
            served.add(food)
        if best_n < len(wants):
            all_met = False
    for o in cafe.ongoing:
        if "serve_bonus" in o:
            if (o["food"] is None and coins > 0) or (o["food"] is not None and o["food"] in served):
                coins += o["serve_bonus"]
    regular = all_met and card.pref is not None and cafe.decor.get(card.pref, 0) > 0
    return coins, all_met, regular


def card_points(cafe: Cafe, card: Card) -> int:
    """A café card's end-of-game score: fixed, per something (capped), or if a threshold is met."""
    score = card.score
    if "fixed" in score:
        return score["fixed"]
    if "per" in score:
        pts = cafe.count(score["per"]) * score["points"]
        return min(pts, score["max"]) if score.get("max") else pts
    return score["points"] if cafe.count(score["if"]) >= score["at_least"] else 0


# ---------------------------------------------------------------- setup


def setup(players: list[str], options: dict[str, Any], rng: random.Random) -> State:
    n = len(players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise OptionsError(f"Café Baras is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}.")
    unknown = set(options or {}) - {"cardset"}
    if unknown:
        raise OptionsError(f"Café Baras has no option {', '.join(sorted(unknown))}.")
    cardset = (options or {}).get("cardset") or load_cardset()
    if not verify(cardset):
        raise OptionsError("The card set is not one load_cardset() returned, or it was changed after loading.")
    cs = compiled(cardset)
    if len(cs.counters) < n:
        raise OptionsError(f"The card set has only {len(cs.counters)} counters for {n} players.")

    deck = list(cs.order)
    rng.shuffle(deck)
    display = [deck.pop() for _ in range(DISPLAY_SIZE)]
    guests = list(cs.guest_order)
    rng.shuffle(guests)
    face_up, box = guests[: n + 1], guests[n + 1 :]
    seats = []
    for i in range(n):
        hand = [deck.pop() for _ in range(HAND_SIZE)]
        seats.append(
            {
                "hand": hand,
                "coins": START_COINS,
                "counter": cs.counter_order[i],
                "cafe": [],
                "regulars": [],
                "guests": [],
            }
        )
    start = rng.randrange(n)
    state: State = {
        "cardset": cardset,
        "players": list(players),
        "deck": deck,
        "discard": [],
        "display": display,
        "guests": face_up,
        "box": box,
        "seats": seats,
        "turn": start,
        "phase": "main",
        "pending": [],
        "source": None,  # the card whose action is being resolved
        "trigger": [],  # what this turn did that triggers the end ("regular", "guest")
        "end": None,  # {"by": seat, "reason": str, "left": turns still to play} once triggered
        "turns": 0,
        "passes": 0,
        "reshuffles": 0,
        "over": False,
        "end_reason": "",
        "log": [],
    }
    log = state["log"]
    log.append(entry(msg("The display shows %(cards)s.", cards=names_of(cs, display))))
    guest_names = list_ref([card_ref(cs.guests[g]["name"]) for g in face_up])
    log.append(entry(msg("Special guests in play: %(guests)s.", guests=guest_names)))
    for i, s in enumerate(seats):
        counter = card_ref(cs.counters[s["counter"]]["name"])
        hand = names_of(cs, s["hand"])
        log.append(
            private_line(
                msg(
                    "%(seat)s takes the %(counter)s, %(coins)s coins and 4 cards.",
                    seat=seat_ref(i),
                    counter=counter,
                    coins=START_COINS,
                ),
                i,
                msg(
                    "You take the %(counter)s, %(coins)s coins and 4 cards: %(cards)s.",
                    counter=counter,
                    coins=START_COINS,
                    cards=hand,
                ),
                msg(
                    "%(seat)s takes the %(counter)s, %(coins)s coins and %(cards)s.",
                    seat=seat_ref(i),
                    counter=counter,
                    coins=START_COINS,
                    cards=hand,
                ),
            )
        )
    log.append(entry(msg("%(seat)s starts (chosen at random).", seat=seat_ref(start))))
    claim_guests(state, cs, start)
    return state


def private_line(text: Any, seat: int, mine: Any, reveal: Any) -> dict[str, Any]:
    """A log line with a private version for one seat and a full version shown once the game is over."""
    e = entry(text, {seat: mine})
    e["reveal"] = reveal
    return e


# ---------------------------------------------------------------- what the seat to move may do (as data; the prompts are turn.py's)


def current(state: State) -> int | None:
    return None if state["over"] else state["turn"]


def main_choices(state: State, cs: CardSet) -> tuple[list[tuple[str, Card, int]], list[tuple[str, Card, tuple]]]:
    """(addable: [(id, card, cost)], servable: [(id, card, (coins, all_met, regular))]) for the seat to move."""
    seat = state["seats"][state["turn"]]
    cafe = Cafe(cs, seat)
    adds, serves = [], []
    for cid in seat["hand"]:
        card = cs.cards[cid]
        cost = cafe.cost(card)
        if cost <= seat["coins"]:
            adds.append((cid, card, cost))
        serves.append((cid, card, serve_result(cs, cafe, card)))
    return adds, serves


def choice_needed(state: State, action: dict[str, Any]) -> bool:
    """Whether a pending choice action can still be made (otherwise it is skipped)."""
    if "take" in action:
        return bool(state["display"])
    return bool(state["seats"][state["turn"]]["hand"])


def effect_limit(state: State, action: dict[str, Any]) -> tuple[int, int]:
    """(min, max) number of cards the pending choice action picks."""
    if "take" in action:
        k = min(action["take"], len(state["display"]))
        return k, k
    return 0, min(action["recycle"], len(state["seats"][state["turn"]]["hand"]))


def refill_need(state: State, cs: CardSet) -> int:
    """How many display cards the seat to move takes to refill their hand."""
    me = state["seats"][state["turn"]]
    return max(0, min(Cafe(cs, me).hand_size() - len(me["hand"]), len(state["display"])))


def claim_guests(state: State, cs: CardSet, seat: int) -> None:
    """Claim every face-up guest the seat's café now satisfies (automatic; see README)."""
    if not state["guests"]:
        return
    me = state["seats"][seat]
    cafe = Cafe(cs, me)
    for gid in list(state["guests"]):
        guest = cs.guests[gid]
        if cafe.qualifies(cs.guest_needs[gid]):
            state["guests"].remove(gid)
            me["guests"].append(gid)
            state["log"].append(
                entry(
                    msg(
                        "%(seat)s claimed the special guest %(guest)s.",
                        seat=seat_ref(seat),
                        guest=card_ref(guest["name"]),
                    )
                )
            )
            if not state["guests"]:
                state["trigger"] = [*state["trigger"], "guest"]
