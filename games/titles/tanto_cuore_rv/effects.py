"""Card effects: what a served maid's text and an acquired reminiscence do.

Each effect kind is one function driven by the card's data (numbers live in the seeds). An
effect that needs a decision sets `state["stage"]` to a small dict; `STAGES` holds, per stage
kind, the prompt it asks and the handler of the answer. Decisions that are no decision at all
(one kind of card in hand, nothing to take) are resolved at once, so nobody is asked in vain.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from games.engine import Choose, ChooseMany, IllegalMove, Option
from games.engine.messages import Msg, msg, nmsg

from .state import (
    State,
    by_cost,
    call,
    instance_ids,
    kind_of,
    log,
    name,
    names,
    remove_all,
    take_top,
    unique,
    who,
)

MAIN = {"kind": "main"}


def active(s: State) -> int:
    return s["turn"]["seat"]


def is_maid(card: dict[str, Any]) -> bool:
    return card["type"] in ("maid_chief", "chambermaid_chief", "general_maid")


# ----------------------------------------------------------------------------- maid effects


def maid_effect(s: State, seat: int, cid: str, rng: random.Random) -> None:
    """Resolve the text of a maid who just served `seat` (symbols are already received)."""
    eff = s["cards"][cid]["effect"]
    kind = eff["kind"]
    s["stage"] = dict(MAIN)
    if kind == "none":
        return
    if kind == "others_draw":
        for other in others(s, seat):
            call(s, other, eff["n"], rng, cid)
    elif kind == "others_bottom":
        waiting = [o for o in others(s, seat) if len(s["seats"][o]["hand"]) >= eff["min_hand"]]
        s["stage"] = {"kind": "bottom", "waiting": waiting, "card": cid}
        for o in list(waiting):
            hand = unique(s["seats"][o]["hand"])
            if len(hand) == 1:
                _bottom(s, o, hand[0])
        _others_done(s)
    elif kind == "return_for_draws":
        s["stage"] = {"kind": "riya", "card": cid}
    elif kind == "exchange":
        if sum(1 for c in s["seats"][seat]["hand"] if is_maid(s["cards"][c])) >= eff["give"]:
            s["stage"] = {"kind": "exchange", "card": cid}
    elif kind == "end_serving":
        s["turn"]["phase"] = "employ"
        log(s, msg("%(card)s ends %(seat)s's serving phase.", card=name(s, cid), seat=who(s, seat)))
    elif kind == "gain_to_deck_top":
        target = eff["card"]
        if s["town"].get(target, 0) > 0:
            s["town"][target] -= 1
            s["seats"][seat]["deck"].append(target)
            log(
                s,
                msg(
                    "%(seat)s sends a %(card)s from the town into their waiting room (on top).",
                    seat=who(s, seat),
                    card=name(s, target),
                ),
            )
        else:
            log(s, msg("No %(card)s is left in the town for %(by)s.", card=name(s, target), by=name(s, cid)))
    elif kind == "free_chief":
        if _free_chief_stacks(s, eff["max_cost"]):
            s["stage"] = {"kind": "free_chief", "card": cid}
    elif kind == "mill_top":
        targets = [i for i in range(len(s["players"])) if s["seats"][i]["deck"]]
        if len(targets) == 1:
            _mill(s, seat, targets[0], cid)
        elif targets:
            s["stage"] = {"kind": "mill", "card": cid}
        else:
            log(s, msg("Every waiting room is empty: %(card)s finds nothing to smash.", card=name(s, cid)))
    elif kind == "put_back":
        if s["seats"][seat]["hand"]:
            s["stage"] = {"kind": "put_back", "card": cid}
    elif kind == "free_chambermaids":
        if any(s["cards"][c].get("chamber") for c in s["seats"][seat]["hand"]):
            s["stage"] = {"kind": "laura", "card": cid}
    elif kind == "reveal_take":
        revealed: list[str] = []
        for _ in range(eff["n"]):
            c = take_top(s, seat, rng)
            if c is None:
                break
            revealed.append(c)
        log(
            s,
            msg(
                "%(seat)s reveals the top of their waiting room: %(cards)s.",
                seat=who(s, seat),
                cards=names(s, revealed),
            ),
        )
        s["stage"] = {"kind": "reveal", "card": cid, "cards": revealed}
        if len(unique(revealed)) <= 1:
            _reveal_take(s, seat, revealed[0] if revealed else None)
    else:  # pragma: no cover - the loader only lets known kinds through
        raise ValueError(f"unknown maid effect {kind!r}")


def others(s: State, seat: int) -> list[int]:
    n = len(s["players"])
    return [(seat + k) % n for k in range(1, n)]


def _others_done(s: State) -> None:
    if not s["stage"].get("waiting"):
        s["stage"] = dict(MAIN)


# Caldina Alley: the others with a big hand each send one card to the back of their waiting room.
def _bottom(s: State, seat: int, cid: str) -> None:
    zone = s["seats"][seat]
    zone["hand"].remove(cid)
    zone["deck"].insert(0, cid)
    s["stage"]["waiting"].remove(seat)
    log(
        s,
        msg("%(seat)s sends a staff member to the back of their waiting room.", seat=who(s, seat)),
        {seat: msg("You send %(card)s to the back of your waiting room.", card=name(s, cid))},
    )


def _bottom_prompt(s: State, seat: int) -> Choose:
    hand = by_cost(s, unique(s["seats"][seat]["hand"]))
    by = name(s, s["stage"]["card"])
    return Choose(
        msg(
            "%(card)s (%(seat)s): send one staff member from your hand to the back of your waiting room.",
            card=by,
            seat=who(s, active(s)),
        ),
        tuple(Option(c, name(s, c)) for c in hand),
    )


def _bottom_answer(s: State, seat: int, answer: str, rng: random.Random) -> None:
    _bottom(s, seat, answer)
    _others_done(s)


# Riya Naragashi: go back to the town, end serving and employing, call 5 more at the end.
def _riya_prompt(s: State, seat: int) -> Choose:
    extra = s["cards"][s["stage"]["card"]]["effect"]["extra"]
    return Choose(
        msg("Return %(card)s to the town?", card=name(s, s["stage"]["card"])),
        (
            Option(
                "return",
                msg("Return her"),
                msg("Your serving and employ phases end; you call %(n)s more at the end.", n=extra),
            ),
            Option("keep", msg("Keep her"), msg("Go on with your turn.")),
        ),
    )


def _riya_answer(s: State, seat: int, answer: str, rng: random.Random) -> None:
    cid = s["stage"]["card"]
    s["stage"] = dict(MAIN)
    if answer == "keep":
        return
    s["seats"][seat]["played"].remove(cid)
    s["town"][cid] = s["town"].get(cid, 0) + 1
    s["turn"]["extra_draws"] += s["cards"][cid]["effect"]["extra"]
    s["turn"]["phase"] = "end"
    log(
        s,
        msg(
            "%(seat)s returns %(card)s to the town: no employing this turn, %(n)s more staff at the end.",
            seat=who(s, seat),
            card=name(s, cid),
            n=5,
        ),
    )


# Chinatsu Kooriyama: two maids from the hand back to the town for one maid into the hand.
def _exchange_prompt(s: State, seat: int) -> ChooseMany:
    eff = s["cards"][s["stage"]["card"]]["effect"]
    hand = by_cost(s, [c for c in s["seats"][seat]["hand"] if is_maid(s["cards"][c])])
    return ChooseMany(
        nmsg(
            "%(card)s: return %(n)s maid from your hand to the town to take one costing %(cost)s or less into your "
            "hand? Pick none to skip.",
            "%(card)s: return %(n)s maids from your hand to the town to take one costing %(cost)s or less into your "
            "hand? Pick none to skip.",
            "n",
            card=name(s, s["stage"]["card"]),
            n=eff["give"],
            cost=eff["max_cost"],
        ),
        tuple(Option(i, name(s, c)) for i, c in instance_ids(hand)),
        0,
        eff["give"],
    )


def _exchange_answer(s: State, seat: int, answer: list[str], rng: random.Random) -> None:
    cid = s["stage"]["card"]
    eff = s["cards"][cid]["effect"]
    if not answer:
        s["stage"] = dict(MAIN)
        log(s, msg("%(seat)s keeps their maids (%(card)s).", seat=who(s, seat), card=name(s, cid)))
        return
    if len(answer) != eff["give"]:
        raise IllegalMove(
            nmsg(
                "Pick exactly %(n)s maid, or none to skip.",
                "Pick exactly %(n)s maids, or none to skip.",
                "n",
                n=eff["give"],
            )
        )
    given = [kind_of(a) for a in answer]
    remove_all(s["seats"][seat]["hand"], given)
    for g in given:
        s["town"][g] = s["town"].get(g, 0) + 1
    log(s, msg("%(seat)s returns %(cards)s to the town.", seat=who(s, seat), cards=names(s, given)))
    if _town_maids(s, eff["max_cost"]):
        s["stage"] = {"kind": "exchange_take", "card": cid}
    else:
        s["stage"] = dict(MAIN)
        log(s, msg("No maid costing %(cost)s or less is left to take.", cost=eff["max_cost"]))


def _town_maids(s: State, max_cost: int) -> list[str]:
    cards = s["cards"]
    return [m for m in s["maid_stacks"] if s["town"][m] > 0 and cards[m]["cost"] <= max_cost]


def _town_prompt(s: State, text: Msg, max_cost: int) -> Choose:
    return Choose(
        text,
        tuple(
            Option(m, name(s, m), msg("costs %(cost)s, %(n)s left", cost=s["cards"][m]["cost"], n=s["town"][m]))
            for m in by_cost(s, _town_maids(s, max_cost))
        ),
    )


def _exchange_take_prompt(s: State, seat: int) -> Choose:
    eff = s["cards"][s["stage"]["card"]]["effect"]
    return _town_prompt(
        s, msg("Take which maid into your hand (cost %(cost)s or less)?", cost=eff["max_cost"]), eff["max_cost"]
    )


def _exchange_take_answer(s: State, seat: int, answer: str, rng: random.Random) -> None:
    s["town"][answer] -= 1
    s["seats"][seat]["hand"].append(answer)
    s["stage"] = dict(MAIN)
    log(s, msg("%(seat)s takes %(card)s from the town into their hand.", seat=who(s, seat), card=name(s, answer)))


# Germaine Mahle: a cheap chambermaid chief from the town to the kitchen entrance, then call 1.
def _free_chief_stacks(s: State, max_cost: int) -> list[str]:
    cards = s["cards"]
    return [
        m
        for m in s["maid_stacks"]
        if cards[m]["type"] == "chambermaid_chief" and cards[m]["cost"] <= max_cost and s["town"][m] > 0
    ]


def _free_chief_prompt(s: State, seat: int) -> Choose:
    eff = s["cards"][s["stage"]["card"]]["effect"]
    stacks = _free_chief_stacks(s, eff["max_cost"])
    return Choose(
        msg(
            "%(card)s: put a chambermaid chief from the town into your kitchen entrance and call %(n)s?",
            card=name(s, s["stage"]["card"]),
            n=eff["draws"],
        ),
        tuple(Option(m, msg("Take %(card)s", card=name(s, m)), msg("%(n)s left", n=s["town"][m])) for m in stacks)
        + (Option("no", msg("No thanks")),),
    )


def _free_chief_answer(s: State, seat: int, answer: str, rng: random.Random) -> None:
    cid = s["stage"]["card"]
    s["stage"] = dict(MAIN)
    if answer == "no":
        return
    s["town"][answer] -= 1
    s["seats"][seat]["discard"].append(answer)
    log(
        s,
        msg(
            "%(seat)s puts %(card)s from the town into their kitchen entrance.", seat=who(s, seat), card=name(s, answer)
        ),
    )
    call(s, seat, s["cards"][cid]["effect"]["draws"], rng, cid)


# Evita Catala: the top card of any waiting room to its kitchen entrance; a love card = +1 serving.
def _mill(s: State, seat: int, target: int, cid: str) -> None:
    zone = s["seats"][target]
    top = zone["deck"].pop()
    zone["discard"].append(top)
    s["stage"] = dict(MAIN)
    if s["cards"][top]["type"] == "love":
        n = s["cards"][cid]["effect"]["bonus_servings"]
        s["turn"]["servings"] += n
        log(
            s,
            nmsg(
                "%(card)s sends %(top)s from %(target)s's waiting room to the kitchen entrance: a love card, so "
                "%(seat)s gains %(n)s serving.",
                "%(card)s sends %(top)s from %(target)s's waiting room to the kitchen entrance: a love card, so "
                "%(seat)s gains %(n)s servings.",
                "n",
                card=name(s, cid),
                top=name(s, top),
                target=who(s, target),
                seat=who(s, seat),
                n=n,
            ),
        )
    else:
        log(
            s,
            msg(
                "%(card)s sends %(top)s from %(target)s's waiting room to the kitchen entrance.",
                card=name(s, cid),
                top=name(s, top),
                target=who(s, target),
            ),
        )


def _mill_prompt(s: State, seat: int) -> Choose:
    targets = [i for i in range(len(s["players"])) if s["seats"][i]["deck"]]
    return Choose(
        msg(
            "%(card)s: whose waiting room loses its top card? A love card gives you +1 serving.",
            card=name(s, s["stage"]["card"]),
        ),
        tuple(
            Option(
                f"seat:{i}",
                msg("Your own") if i == seat else who(s, i),
                nmsg("%(n)s card waiting", "%(n)s cards waiting", "n", n=len(s["seats"][i]["deck"])),
            )
            for i in targets
        ),
    )


def _mill_answer(s: State, seat: int, answer: str, rng: random.Random) -> None:
    _mill(s, seat, int(answer.split(":")[1]), s["stage"]["card"])


# Nonnette Soyeux: one card from the hand on top of the waiting room.
def _put_back_prompt(s: State, seat: int) -> Choose:
    hand = by_cost(s, unique(s["seats"][seat]["hand"]))
    return Choose(
        msg(
            "%(card)s: send one staff member from your hand into your waiting room (on top)?",
            card=name(s, s["stage"]["card"]),
        ),
        tuple(Option(c, name(s, c)) for c in hand) + (Option("none", msg("Keep my hand")),),
    )


def _put_back_answer(s: State, seat: int, answer: str, rng: random.Random) -> None:
    s["stage"] = dict(MAIN)
    if answer == "none":
        return
    zone = s["seats"][seat]
    zone["hand"].remove(answer)
    zone["deck"].append(answer)
    log(
        s,
        msg("%(seat)s sends a staff member into their waiting room (on top).", seat=who(s, seat)),
        {seat: msg("You send %(card)s into your waiting room (on top).", card=name(s, answer))},
    )


# Laura: any number of chambermaids from the hand to the private quarters, no servings spent.
def _laura_prompt(s: State, seat: int) -> ChooseMany:
    maids = by_cost(s, [c for c in s["seats"][seat]["hand"] if s["cards"][c].get("chamber")])
    return ChooseMany(
        msg("%(card)s: chambermaid which maids from your hand, free of servings?", card=name(s, s["stage"]["card"])),
        tuple(Option(i, name(s, c)) for i, c in instance_ids(maids)),
        0,
        len(maids),
    )


def _laura_answer(s: State, seat: int, answer: list[str], rng: random.Random) -> None:
    s["stage"] = dict(MAIN)
    picked = [kind_of(a) for a in answer]
    zone = s["seats"][seat]
    remove_all(zone["hand"], picked)
    zone["quarters"].extend(picked)
    if picked:
        log(s, msg("%(seat)s chambermaids %(cards)s (no servings).", seat=who(s, seat), cards=names(s, picked)))


# Lydia Leon: one revealed card into the hand, the rest to the kitchen entrance.
def _reveal_take(s: State, seat: int, cid: str | None) -> None:
    revealed = list(s["stage"]["cards"])
    zone = s["seats"][seat]
    if cid is not None:
        revealed.remove(cid)
        zone["hand"].append(cid)
    zone["discard"].extend(revealed)
    s["stage"] = dict(MAIN)
    if cid is not None:
        log(
            s,
            msg(
                "%(seat)s takes %(card)s into their hand and dismisses the rest.", seat=who(s, seat), card=name(s, cid)
            ),
        )


def _reveal_prompt(s: State, seat: int) -> Choose:
    cards = by_cost(s, unique(s["stage"]["cards"]))
    return Choose(
        msg(
            "%(card)s: take which revealed card into your hand? The rest are dismissed.",
            card=name(s, s["stage"]["card"]),
        ),
        tuple(Option(c, name(s, c)) for c in cards),
    )


def _reveal_answer(s: State, seat: int, answer: str, rng: random.Random) -> None:
    _reveal_take(s, seat, answer)


# ----------------------------------------------------------------------------- reminiscences


def can_pay(s: State, hand: list[str], requires: list[int], costs: list[int] | None = None) -> bool:
    """Does the hand hold one card of each required employ cost? (`costs`: the hand's, if known)"""
    if costs is None:
        cards = s["cards"]
        costs = [cards[c]["cost"] for c in hand]
    return all(costs.count(c) >= requires.count(c) for c in requires)


def payment_choices(s: State, hand: list[str], requires: list[int]) -> list[str]:
    """Hand cards that could go toward a requirement (by employ cost)."""
    costs = set(requires)
    return by_cost(s, [c for c in hand if s["cards"][c]["cost"] in costs])


def forced_payment(s: State, hand: list[str], requires: list[int]) -> list[str] | None:
    """The payment when only one choice of card kinds meets it, else None."""
    pay: list[str] = []
    for cost, k in Counter(requires).items():
        fits = [c for c in hand if s["cards"][c]["cost"] == cost]
        if len(fits) == k:
            pay.extend(fits)
        elif len(set(fits)) == 1:
            pay.extend(fits[:k])
        else:
            return None
    return pay


def requirement_text(requires: list[int]) -> Msg:
    """'cost 3 + cost 2': the employ costs a reminiscence asks for."""
    text = msg("cost %(n)s", n=requires[-1]) if requires else msg("nothing")
    for c in reversed(requires[:-1]):
        text = msg("%(first)s + %(rest)s", first=msg("cost %(n)s", n=c), rest=text)
    return text


def _remi_pay_prompt(s: State, seat: int) -> ChooseMany:
    r = s["cards"][s["stage"]["remi"]]
    options = payment_choices(s, s["seats"][seat]["hand"], r["requires"])
    return ChooseMany(
        msg(
            "Acquire %(card)s: dismiss which staff from your hand (%(needs)s)? Pick none to change your mind.",
            card=name(s, s["stage"]["remi"]),
            needs=requirement_text(r["requires"]),
        ),
        tuple(
            Option(i, msg("%(card)s (cost %(cost)s)", card=name(s, c), cost=s["cards"][c]["cost"]))
            for i, c in instance_ids(options)
        ),
        0,
        len(r["requires"]),
    )


def _remi_pay_answer(s: State, seat: int, answer: list[str], rng: random.Random) -> None:
    rid = s["stage"]["remi"]
    if not answer:
        s["stage"] = dict(MAIN)
        return
    pay = [kind_of(a) for a in answer]
    requires = s["cards"][rid]["requires"]
    if sorted((s["cards"][c]["cost"] for c in pay), reverse=True) != requires:
        raise IllegalMove(
            msg(
                "%(card)s needs exactly one staff member of each: %(needs)s.",
                card=name(s, rid),
                needs=requirement_text(requires),
            )
        )
    acquire(s, seat, rid, pay, rng)


def acquire(s: State, seat: int, rid: str, pay: list[str], rng: random.Random) -> None:
    """Dismiss the payment, put the reminiscence in the private quarters, refill the row, apply it."""
    zone = s["seats"][seat]
    remove_all(zone["hand"], pay)
    zone["discard"].extend(pay)
    s["remi_row"].remove(rid)
    zone["memories"].append(rid)
    s["turn"]["remi_done"] = True
    r = s["cards"][rid]
    log(
        s,
        msg(
            "%(seat)s acquires %(card)s by dismissing staff (%(needs)s).",
            seat=who(s, seat),
            card=name(s, rid),
            needs=requirement_text(r["requires"]),
        ),
        {seat: msg("You acquire %(card)s by dismissing %(cards)s.", card=name(s, rid), cards=names(s, pay))},
    )
    if s["remi_deck"]:
        new = s["remi_deck"].pop()
        s["remi_row"].append(new)
        log(s, msg("%(card)s is turned face up.", card=name(s, new)))
    s["stage"] = dict(MAIN)
    remi_effect(s, seat, rid, rng)


def remi_effect(s: State, seat: int, rid: str, rng: random.Random) -> None:
    eff = s["cards"][rid]["effect"]
    kind = eff["kind"]
    if kind == "gain":
        t = s["turn"]
        t["love"] += eff.get("love", 0)
        t["servings"] += eff.get("servings", 0)
        t["employments"] += eff.get("employments", 0)
        if eff.get("draws"):
            call(s, seat, eff["draws"], rng, rid)
    elif kind == "others_keep":
        n = eff["n"]
        waiting = [o for o in others(s, seat) if len(s["seats"][o]["hand"]) > n]
        s["stage"] = {"kind": "keep", "waiting": waiting, "card": rid}
        for o in list(waiting):
            if len(unique(s["seats"][o]["hand"])) == 1:
                hand = s["seats"][o]["hand"]
                _keep(s, o, hand[:n])
        _others_done(s)
    elif kind == "end_game":
        s["over"] = True
        s["end_reason"] = msg(
            "%(seat)s acquired %(card)s: the game ends at once.", seat=who(s, seat), card=name(s, rid)
        )
        log(s, s["end_reason"])
    elif kind == "take_from_town":
        if _town_maids(s, eff["max_cost"]):
            s["stage"] = {"kind": "remi_take", "card": rid}
    elif kind != "none":  # pragma: no cover - the loader only lets known kinds through
        raise ValueError(f"unknown reminiscence effect {kind!r}")


# Scary Night: every other player keeps only n staff by their side.
def _keep(s: State, seat: int, keep: list[str]) -> None:
    zone = s["seats"][seat]
    rest = list(zone["hand"])
    remove_all(rest, keep)
    zone["hand"] = list(keep)
    zone["discard"].extend(rest)
    s["stage"]["waiting"].remove(seat)
    log(
        s,
        nmsg(
            "%(seat)s dismisses %(n)s staff member down to %(keep)s.",
            "%(seat)s dismisses %(n)s staff members down to %(keep)s.",
            "n",
            seat=who(s, seat),
            n=len(rest),
            keep=len(keep),
        ),
        {seat: msg("You dismiss %(cards)s and keep %(kept)s.", cards=names(s, rest), kept=names(s, keep))},
    )


def _keep_prompt(s: State, seat: int) -> ChooseMany:
    rid = s["stage"]["card"]
    n = s["cards"][rid]["effect"]["n"]
    hand = by_cost(s, s["seats"][seat]["hand"])
    return ChooseMany(
        msg(
            "%(card)s (%(seat)s): keep which %(n)s staff by your side? The others are dismissed.",
            card=name(s, rid),
            seat=who(s, active(s)),
            n=n,
        ),
        tuple(Option(i, name(s, c)) for i, c in instance_ids(hand)),
        n,
        n,
    )


def _keep_answer(s: State, seat: int, answer: list[str], rng: random.Random) -> None:
    _keep(s, seat, [kind_of(a) for a in answer])
    _others_done(s)


def _remi_take_prompt(s: State, seat: int) -> Choose:
    eff = s["cards"][s["stage"]["card"]]["effect"]
    return _town_prompt(
        s,
        msg(
            "%(card)s: put which maid (cost %(cost)s or less) into your kitchen entrance?",
            card=name(s, s["stage"]["card"]),
            cost=eff["max_cost"],
        ),
        eff["max_cost"],
    )


def _remi_take_answer(s: State, seat: int, answer: str, rng: random.Random) -> None:
    s["town"][answer] -= 1
    s["seats"][seat]["discard"].append(answer)
    s["stage"] = dict(MAIN)
    log(
        s,
        msg(
            "%(seat)s puts %(card)s from the town into their kitchen entrance.", seat=who(s, seat), card=name(s, answer)
        ),
    )


Stage = tuple[Callable[[State, int], Any], Callable[[State, int, Any, random.Random], None]]
STAGES: dict[str, Stage] = {
    "bottom": (_bottom_prompt, _bottom_answer),
    "riya": (_riya_prompt, _riya_answer),
    "exchange": (_exchange_prompt, _exchange_answer),
    "exchange_take": (_exchange_take_prompt, _exchange_take_answer),
    "free_chief": (_free_chief_prompt, _free_chief_answer),
    "mill": (_mill_prompt, _mill_answer),
    "put_back": (_put_back_prompt, _put_back_answer),
    "laura": (_laura_prompt, _laura_answer),
    "reveal": (_reveal_prompt, _reveal_answer),
    "remi_pay": (_remi_pay_prompt, _remi_pay_answer),
    "keep": (_keep_prompt, _keep_answer),
    "remi_take": (_remi_take_prompt, _remi_take_answer),
}
# Stages where other seats decide (several at once), not the seat whose turn it is.
OTHERS_DECIDE = {"bottom", "keep"}
