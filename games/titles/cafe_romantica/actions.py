"""The one action a seat takes in turn order: recruit/buy, fave, complete an agenda, or pass.

Option ids are stable so answers can be left in advance: a field card's own id ("cool-3"),
"fave:<boy>", "agenda:<agenda id>", "pass".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import IllegalMove, entry
from games.engine.messages import Msg, card_ref, list_ref, msg, seat_ref

from . import abilities
from .cards import base_id, in_host_order

State = dict[str, Any]
PASS = "pass"


@dataclass(frozen=True)
class Action:
    id: str
    kind: str  # recruit | buy | fave | agenda | pass
    target: str  # boy, focus kind or agenda id ("" for pass)
    cost: int


def shines(faces: list[int], hearts: int) -> Msg:
    """ "Shines on 4, earns 3 ♥." """
    if len(faces) == 6:
        return msg("Shines on every roll, earns %(hearts)s ♥.", hearts=hearts)
    return msg("Shines on %(faces)s, earns %(hearts)s ♥.", faces=list_ref(faces), hearts=hearts)


_DETAIL: dict[int, tuple[dict[str, Any], Msg]] = {}


def host_detail(host: dict[str, Any]) -> Msg:
    """ "Shines on 4, earns 3 ♥. <rule>" (memoised per card dict, which is never changed; the
    message is shared: callers must not change it)."""
    hit = _DETAIL.get(id(host))
    if hit is not None and hit[0] is host:
        return hit[1]
    text = shines(host["faces"], host["hearts"])
    if host["text"]:
        text = msg("%(shines)s %(rule)s", shines=text, rule=card_ref(host["text"]))
    if len(_DETAIL) > 4096:
        _DETAIL.clear()
    _DETAIL[id(host)] = (host, text)
    return text


_LAST: list[Any] = [None, None, None, None]  # field, seat dict, card set, actions


def candidates(state: State, seat: int) -> list[Action]:
    """Every action the seat could take now, affordable or not (pass last).

    They depend only on the field, the seat's own dict and the card set; states are never changed
    in place (a change makes a new list/dict), so the last answer is reused while those three are
    the very same objects (held here, so their ids cannot be recycled).
    """
    cards = state["cards"]
    me = state["seats"][seat]
    field = state["field"]
    last = _LAST
    if last[0] is field and last[1] is me and last[2] is cards:
        return last[3]
    out = _candidates(cards, me, field)
    last[:] = [field, me, cards, out]
    return out


def _candidates(cards: dict[str, Any], me: dict[str, Any], field: list[str | None]) -> list[Action]:
    hosts = cards["hosts"]
    disc = abilities.discounts(cards, me)
    out = []
    for cid in field:
        if cid is None:
            continue
        kind = cid.rsplit("-", 1)[0]
        if kind in hosts:
            out.append(Action(cid, "recruit", kind, abilities.recruit_cost(cards, me, kind, disc)))
        else:
            out.append(Action(cid, "buy", kind, abilities.focus_cost(cards, me, kind, disc)))
    for boy in in_host_order(cards, me["club"]):  # data order: a club's key order is lost in the database
        if boy != me["fave"]:
            out.append(Action(f"fave:{boy}", "fave", boy, abilities.fave_cost(cards, boy)))
    for a in me["agendas"]:
        if a not in me["done"]:
            out.append(Action(f"agenda:{a}", "agenda", a, abilities.agenda_cost(cards, me, a, disc)))
    out.append(Action(PASS, "pass", "", 0))
    return out


def legal(state: State, seat: int) -> list[Action]:
    hearts = state["seats"][seat]["hearts"]
    return [a for a in candidates(state, seat) if a.cost <= hearts]


def has_choice(state: State, seat: int) -> bool:
    """False when passing is all the seat can do (it then passes without being asked)."""
    hearts = state["seats"][seat]["hearts"]
    return hearts > 0 and any(a.cost <= hearts for a in candidates(state, seat) if a.kind != "pass")


def where(slot: int) -> Msg:
    """A field place as a player reads it: "Top row, card 2."."""
    if slot < 4:
        return msg("Top row, card %(n)s.", n=slot % 4 + 1)
    return msg("Bottom row, card %(n)s.", n=slot % 4 + 1)


def action_name(state: State, seat: int, a: Action) -> Msg:
    """An action in a few words, without its cost ("Recruit Cool")."""
    cards = state["cards"]
    if a.kind == "recruit":
        boy = card_ref(cards["hosts"][a.target]["name"])
        if a.target in state["seats"][seat]["club"]:
            return msg("Bond with %(card)s", card=boy)
        return msg("Recruit %(card)s", card=boy)
    if a.kind == "buy":
        return msg("Buy %(card)s", card=card_ref(cards["focus"][a.target]["name"]))
    if a.kind == "fave":
        return msg("Fave %(card)s", card=card_ref(cards["hosts"][a.target]["name"]))
    if a.kind == "agenda":
        return msg("Complete %(card)s", card=card_ref(cards["agendas"][a.target]["name"]))
    return msg("Pass")


def describe(state: State, seat: int, a: Action) -> tuple[Msg, Msg]:
    """(label, detail) of an action as a player reads it, as messages."""
    cards = state["cards"]
    if a.kind == "pass":
        return action_name(state, seat, a), msg("Do nothing this turn.")
    label = msg("%(action)s (%(cost)s ♥)", action=action_name(state, seat, a), cost=a.cost)
    if a.kind == "recruit":
        h = cards["hosts"][a.target]
        return label, msg("%(where)s %(detail)s", where=where(state["field"].index(a.id)), detail=host_detail(h))
    if a.kind == "buy":
        f = cards["focus"][a.target]
        return label, msg("%(where)s %(detail)s", where=where(state["field"].index(a.id)), detail=card_ref(f["text"]))
    if a.kind == "fave":
        less = abilities.discounts(cards, state["seats"][seat])["fave"]
        return label, msg("Bonding with him then costs %(less)s ♥ less (minimum 1).", less=less)
    return label, card_ref(cards["agendas"][a.target]["text"])


def find(state: State, seat: int, answer: Any) -> Action:
    """The legal action an answer names, or IllegalMove saying why not."""
    if not isinstance(answer, str):
        raise IllegalMove(msg("Pick one of the actions offered."))
    me = state["seats"][seat]
    for a in candidates(state, seat):
        if a.id == answer:
            if a.cost > me["hearts"]:
                raise IllegalMove(
                    msg(
                        "%(action)s costs %(cost)s ♥ and you have %(hearts)s ♥.",
                        action=action_name(state, seat, a),
                        cost=a.cost,
                        hearts=me["hearts"],
                    )
                )
            return a
    cards = state["cards"]
    if answer.startswith("fave:"):
        boy = answer[5:]
        if boy == me["fave"]:
            raise IllegalMove(msg("He is already your favourite."))
        raise IllegalMove(msg("You can only fave a boy in your club."))
    if answer.startswith("agenda:"):
        if answer[7:] in me["done"]:
            raise IllegalMove(msg("That agenda is already completed."))
        raise IllegalMove(msg("That is not one of your agendas."))
    if base_id(answer) in cards["hosts"] or base_id(answer) in cards["focus"]:
        raise IllegalMove(msg("That card is no longer in the field."))
    raise IllegalMove(msg("That is not one of the actions offered."))


def perform(state: State, seat: int, action: Action) -> None:
    """Carry out a legal action on an already copied state."""
    cards = state["cards"]
    who = seat_ref(seat)
    me = dict(state["seats"][seat])
    me["hearts"] -= action.cost
    private = None
    if action.kind == "recruit":
        state["field"] = [None if c == action.id else c for c in state["field"]]
        club = dict(me["club"])
        stack = club.get(action.target, [])
        club[action.target] = stack + [action.id]
        me["club"] = club
        boy = card_ref(cards["hosts"][action.target]["name"])
        if stack:
            text = msg(
                "%(seat)s bonds with %(card)s (bond %(bond)s) for %(cost)s ♥.",
                seat=who,
                card=boy,
                bond=len(stack) + 1,
                cost=action.cost,
            )
        else:
            text = msg("%(seat)s recruits %(card)s for %(cost)s ♥.", seat=who, card=boy, cost=action.cost)
    elif action.kind == "buy":
        state["field"] = [None if c == action.id else c for c in state["field"]]
        me["focus"] = me["focus"] + [action.id]
        card = card_ref(cards["focus"][action.target]["name"])
        text = msg("%(seat)s buys %(card)s for %(cost)s ♥.", seat=who, card=card, cost=action.cost)
    elif action.kind == "fave":
        me["fave"] = action.target
        card = card_ref(cards["hosts"][action.target]["name"])
        text = msg("%(seat)s faves %(card)s for %(cost)s ♥.", seat=who, card=card, cost=action.cost)
    elif action.kind == "agenda":
        me["done"] = me["done"] + [action.target]
        ag = cards["agendas"][action.target]
        text = msg(
            "%(seat)s completes the agenda %(card)s for %(cost)s ♥: %(benefit)s",
            seat=who,
            card=card_ref(ag["name"]),
            cost=action.cost,
            benefit=card_ref(ag["text"]),
        )
        private = None
    else:
        text = msg("%(seat)s passes.", seat=who)
    seats = list(state["seats"])
    seats[seat] = me
    state["seats"] = seats
    state["log"] = state["log"] + [entry(text, private)]
