"""Card abilities as data-driven functions: what a seat earns on a roll, and what things cost it.

Host special rules apply once per stack when the boy shines (tucked copies show only their ♥).
Effects come from a seat's manager, its completed agendas and its focus cards; an effect kind
that differs only in numbers is one branch here, with the numbers read from the card data.
"""

from __future__ import annotations

from typing import Any

from games.engine.messages import card_ref, msg

from .cards import in_host_order

Cards = dict[str, Any]
Seat = dict[str, Any]


_EFFECTS: dict[int, tuple[Seat, Cards, list[dict[str, Any]]]] = {}


def effects(cards: Cards, seat: Seat) -> list[dict[str, Any]]:
    """Every effect working for a seat: manager, completed agendas, owned focus cards.

    Memoised on the seat dict itself (held, so its id is not recycled): apply never changes a seat
    dict in place, it makes a new one. Callers must not change the list returned.
    """
    hit = _EFFECTS.get(id(seat))
    if hit is not None and hit[0] is seat and hit[1] is cards:
        return hit[2]
    out = _effects(cards, seat)
    if len(_EFFECTS) > 256:
        _EFFECTS.clear()
    _EFFECTS[id(seat)] = (seat, cards, out)
    return out


def _effects(cards: Cards, seat: Seat) -> list[dict[str, Any]]:
    out = []
    if seat["manager"] is not None:
        out.append(cards["managers"][seat["manager"]]["effect"])
    agendas = cards["agendas"]
    out.extend(agendas[a]["effect"] for a in seat["done"])
    focus = cards["focus"]
    out.extend(focus[c.rsplit("-", 1)[0]]["effect"] for c in seat["focus"])
    return out


def has_effect(cards: Cards, seat: Seat, kind: str) -> bool:
    return any(e["kind"] == kind for e in effects(cards, seat))


def earnings(cards: Cards, seat: Seat, die: int, others: list[int], max_done: int) -> tuple[int, int, list[Any]]:
    """(♥ earned, ♥ to take from each other seat that rolled `die`, cards that shone, as messages) for one die.

    `others` are the other seats' dice; `max_done` the most agendas any seat has completed. The
    names come flyer first, then hosts in data order (a club's key order is lost in the database).
    """
    total = 0
    shone: list[Any] = []
    flyer = cards["flyer"]
    if die in flyer["faces"]:
        total += flyer["hearts"]
        shone.append(card_ref(flyer["name"]))
    hosts = cards["hosts"]
    club = seat["club"]
    fave = seat["fave"]
    host_shone = fave_shone = False
    bonded = rival = 0
    for boy in in_host_order(cards, club):
        stack = club[boy]
        h = hosts[boy]
        ab = h["ability"]
        kind = ab["kind"]
        faces = h["faces"]
        if die not in faces and not (kind == "crowd" and any(o in faces for o in others)):
            continue
        n = len(stack)
        host_shone = True
        shone.append(card_ref(h["name"]) if n == 1 else msg("%(card)s ×%(n)s", card=card_ref(h["name"]), n=n))
        total += h["hearts"] * n
        if n >= 2:
            bonded += 1
        if boy == fave:
            fave_shone = True
        if kind == "stack_bonus":
            total += ab["amount"] * (n - 1)
        elif kind == "underdog":
            if len(seat["done"]) < max_done:
                total += ab["amount"]
        elif kind == "favourite_bonus":
            if boy == fave:
                total += ab["amount"]
        elif kind == "buddy":
            if ab["with"] in club:
                total += ab["amount"]
        elif kind == "doubles":
            if die in others:
                total += ab["amount"]
        elif kind == "per_club":
            total += ab["amount"] * (len(club) - 1)
        elif kind == "rival":
            rival += ab["amount"]
    for e in effects(cards, seat):
        kind = e["kind"]
        if kind == "income":
            total += e["amount"]
        elif kind == "no_host_income":
            if not host_shone:
                total += e["amount"]
        elif kind == "catch_up":
            if len(seat["done"]) < max_done:
                total += e["amount"]
        elif kind == "fave_shine_bonus":
            if fave_shone:
                total += e["amount"]
        elif kind == "bond_bonus":
            total += e["amount"] * bonded
        elif kind == "face_bonus":
            if die == e["face"]:
                total += e["amount"]
    return total, rival, shone


def host_shines(cards: Cards, seat: Seat, die: int, others: list[int]) -> bool:
    """Whether any host of the seat shines on `die` (Cool also on the others' dice)."""
    hosts = cards["hosts"]
    for boy in seat["club"]:
        h = hosts[boy]
        if die in h["faces"] or (h["ability"]["kind"] == "crowd" and any(o in h["faces"] for o in others)):
            return True
    return False


def discount(cards: Cards, seat: Seat, target: str) -> int:
    """Sum of a seat's discounts on `target` (host, host_new, focus, agenda)."""
    return sum(e["amount"] for e in effects(cards, seat) if e["kind"] == "discount" and e["target"] == target)


def fave_discount(cards: Cards, seat: Seat) -> int:
    """How much less a seat pays to bond with its favourite."""
    bonus = sum(e["amount"] for e in effects(cards, seat) if e["kind"] == "fave_discount_bonus")
    return cards["fave_discount"] + bonus


def discounts(cards: Cards, seat: Seat) -> dict[str, int]:
    """Every discount of a seat at once: host, host_new, focus, agenda and the favourite's bond."""
    out = {"host": 0, "host_new": 0, "focus": 0, "agenda": 0, "fave": cards["fave_discount"]}
    for e in effects(cards, seat):
        kind = e["kind"]
        if kind == "discount":
            out[e["target"]] += e["amount"]
        elif kind == "fave_discount_bonus":
            out["fave"] += e["amount"]
    return out


def recruit_cost(cards: Cards, seat: Seat, boy: str, disc: dict[str, int] | None = None) -> int:
    """A host's printed cost less every discount that applies, never below 1."""
    disc = disc or discounts(cards, seat)
    cost = cards["hosts"][boy]["cost"] - disc["host"]
    if boy in seat["club"]:
        if seat["fave"] == boy:
            cost -= disc["fave"]
    else:
        cost -= disc["host_new"]
    return max(1, cost)


def focus_cost(cards: Cards, seat: Seat, kind: str, disc: dict[str, int] | None = None) -> int:
    disc = disc or discounts(cards, seat)
    return max(1, cards["focus"][kind]["cost"] - disc["focus"])


def agenda_cost(cards: Cards, seat: Seat, agenda: str, disc: dict[str, int] | None = None) -> int:
    disc = disc or discounts(cards, seat)
    return max(1, cards["agendas"][agenda]["cost"] - disc["agenda"])


def fave_cost(cards: Cards, boy: str) -> int:
    """Faving pays the boy's printed recruit cost; no discount applies (README decision)."""
    return cards["hosts"][boy]["cost"]


def club_value(cards: Cards, seat: Seat) -> int:
    """The ♥ printed on a seat's club: the flyer plus every host card (turn cap scoring)."""
    hosts = cards["hosts"]
    return cards["flyer"]["hearts"] + sum(hosts[b]["hearts"] * len(s) for b, s in seat["club"].items())
