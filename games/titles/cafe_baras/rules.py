"""Café Baras rules: the table, the turn (add or serve, effects, refill), guests, the end and scoring.

State is plain JSON. The card set travels inside it (state["cardset"]) and is never copied: apply()
copies only the parts of the table that change. Every rule decision the rulebook leaves open is written
in README.md next to this file.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine.errors import IllegalMove, OptionsError
from games.engine.log import entry
from games.engine.protocol import Outcome
from games.engine.words import counted

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


def names_of(cs: CardSet, ids: list[str]) -> str:
    names = [cs.cards[i].name for i in ids]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


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
    log.append(entry(f"The display shows {names_of(cs, display)}."))
    log.append(entry("Special guests in play: " + ", ".join(cs.guests[g]["name"] for g in face_up) + "."))
    for i, s in enumerate(seats):
        counter = cs.counters[s["counter"]]["name"]
        log.append(
            _private(
                f"{players[i]} takes the {counter}, {START_COINS} coins and 4 cards.",
                i,
                f"You take the {counter}, {START_COINS} coins and 4 cards: {names_of(cs, s['hand'])}.",
                f"{players[i]} takes the {counter}, {START_COINS} coins and {names_of(cs, s['hand'])}.",
            )
        )
    log.append(entry(f"{players[start]} starts (chosen at random)."))
    _claim_guests(state, cs, start)
    return state


def _private(text: str, seat: int, mine: str, reveal: str) -> dict[str, Any]:
    """A log line with a private version for one seat and a full version shown once the game is over."""
    e = entry(text, {seat: mine})
    e["reveal"] = reveal
    return e


# ---------------------------------------------------------------- prompts (as data; the prompt objects live in turn.py)


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


def choice_needed(state: State, action: dict[str, Any]) -> bool:
    """Whether a pending choice action can still be made (otherwise it is skipped)."""
    if "take" in action:
        return bool(state["display"])
    return bool(state["seats"][state["turn"]]["hand"])


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


def effect_limit(state: State, action: dict[str, Any]) -> tuple[int, int]:
    """(min, max) number of cards the pending choice action picks."""
    if "take" in action:
        k = min(action["take"], len(state["display"]))
        return k, k
    return 0, min(action["recycle"], len(state["seats"][state["turn"]]["hand"]))


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


def refill_need(state: State, cs: CardSet) -> int:
    """How many display cards the seat to move takes to refill their hand."""
    me = state["seats"][state["turn"]]
    return max(0, min(Cafe(cs, me).hand_size() - len(me["hand"]), len(state["display"])))


def _after_action(state: State, cs: CardSet, seat: int, rng: random.Random) -> State:
    """The card is played and resolved: claim guests, then refill (asking only if there is a choice)."""
    _claim_guests(state, cs, seat)
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
        _private(
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


def _claim_guests(state: State, cs: CardSet, seat: int) -> None:
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
            state["log"].append(entry(f"{state['players'][seat]} claimed the special guest {guest['name']}."))
            if not state["guests"]:
                state["trigger"] = [*state["trigger"], "guest"]


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
    _claim_guests(state, cs, nxt)
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


# ---------------------------------------------------------------- scoring


CATEGORIES = ("Coins (1 point per 2)", "Café cards", "Regulars", "Special guests")


def score_seat(cs: CardSet, seat: dict[str, Any]) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """(breakdown by category, points of each café card) for one seat."""
    cafe = Cafe(cs, seat)
    per_card = [(cs.cards[c].name, card_points(cafe, cs.cards[c])) for c in seat["cafe"]]
    breakdown = [
        (CATEGORIES[0], seat["coins"] // 2),
        (CATEGORIES[1], sum(p for _, p in per_card)),
        (CATEGORIES[2], len(seat["regulars"]) * cs.regular_points),
        (CATEGORIES[3], sum(cs.guests[g]["points"] for g in seat["guests"])),
    ]
    return breakdown, per_card


def outcome(state: State) -> Outcome | None:
    """None while the game goes on; then scores by the rulebook's four categories, ties share the win."""
    if not state["over"]:
        return None
    cs = cardset_of(state)
    scores, breakdown, cards = {}, {}, {}
    for i, seat in enumerate(state["seats"]):
        parts, per_card = score_seat(cs, seat)
        breakdown[i] = parts
        scores[i] = sum(p for _, p in parts)
        cards[i] = per_card
    top = max(scores.values())
    winners = [i for i, s in scores.items() if s == top]
    return Outcome(
        scores=scores,
        breakdown=breakdown,
        winners=winners,
        tiebreak="shared win" if len(winners) > 1 else "",
        extra={"card_points": cards, "end_reason": state["end_reason"], "turns": state["turns"]},
    )
