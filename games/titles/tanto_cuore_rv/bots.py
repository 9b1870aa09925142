"""Bot and deadline answers.

The bot plays a plain greedy game (acquire reminiscences, serve maids that give servings first,
employ the dearest staff it can), with a little randomness so fuzzing covers every branch. The
deadline answer is the most passive legal answer.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Choose, ChooseMany

from .effects import forced_payment, payment_choices
from .state import State, kind_of
from .turn import prompts

EXPLORE = 0.1


def default_answer(s: State, seat: int) -> Any:
    p = prompts(s)[seat]
    kind = s["stage"]["kind"]
    if kind == "main":
        return "skip" if s["turn"]["phase"] == "start" else "end"
    if kind == "keep":
        return [o.id for o in p.options[: p.min_count]]
    if isinstance(p, ChooseMany):
        return []
    ids = [o.id for o in p.options]
    for passive in ("keep", "no", "none"):
        if passive in ids:
            return passive
    return ids[0]


def _value(s: State, cid: str) -> int:
    c = s["cards"][cid]
    return (c["cost"] or 0) + (3 if c["type"] == "love" else 0)


def _main(s: State, p: Choose, rng: random.Random) -> str:
    ids = [o.id for o in p.options]
    t = s["turn"]
    cards = s["cards"]
    if rng.random() < EXPLORE:
        return rng.choice(ids)
    if t["phase"] == "start":
        return ids[0] if rng.random() < 0.7 else "skip"
    if t["phase"] == "serve":
        remis = [i for i in ids if i.startswith("remi:")]
        if remis:
            return max(remis, key=lambda i: cards[i[5:]]["vp"])

        def rank(i: str) -> tuple[int, int]:
            verb, _, cid = i.partition(":")
            c = cards.get(cid)
            if verb == "serve" and c["type"] == "general_maid":
                d, lv, sv, e = c["symbols"]
                return (3 if sv else 2, d + lv + e + sv)
            if verb == "chamber":
                return (1 if cid != "beatrice_escudo" or t["servings"] >= 2 else 0, c["vp"])
            return (-1, 0)

        best = max((i for i in ids if i != "end"), key=rank, default="end")
        return best if best == "end" or rank(best)[0] >= 0 else "end"
    employs = [i for i in ids if i.startswith("employ:")]
    if not employs:
        return "end"
    late = s["turns"] > 6 * len(s["players"])
    return max(employs, key=lambda i: (_value(s, i[7:]) + (4 if late and cards[i[7:]]["vp"] > 0 else 0), rng.random()))


def bot_answer(s: State, seat: int, rng: random.Random) -> Any:
    p = prompts(s)[seat]
    kind = s["stage"]["kind"]
    if kind == "main":
        return _main(s, p, rng)
    if kind == "keep":
        ranked = sorted(p.options, key=lambda o: -_value(s, kind_of(o.id)))
        return [o.id for o in ranked[: p.min_count]]
    if kind == "remi_pay":
        rid = s["stage"]["remi"]
        hand = s["seats"][seat]["hand"]
        requires = s["cards"][rid]["requires"]
        pay = forced_payment(s, hand, requires)
        if pay is None:  # cheapest kind of each cost, by the option ids offered
            pay = []
            pool = payment_choices(s, hand, requires)
            for cost in requires:
                pick = min((c for c in pool if s["cards"][c]["cost"] == cost), key=lambda c: _value(s, c))
                pool.remove(pick)
                pay.append(pick)
        seen: dict[str, int] = {}
        out = []
        for c in pay:
            seen[c] = seen.get(c, 0) + 1
            out.append(c if seen[c] == 1 else f"{c}#{seen[c]}")
        return out
    if kind == "exchange":  # two cheapest maids back for a dearer one, half the time
        if rng.random() < 0.5:
            return []
        return [o.id for o in sorted(p.options, key=lambda o: _value(s, kind_of(o.id)))[: p.max_count]]
    return p.random_answer(rng)
