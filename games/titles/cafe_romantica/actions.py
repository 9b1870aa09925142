"""The one action a seat takes in turn order: recruit/buy, fave, complete an agenda, or pass.

Option ids are stable so answers can be left in advance: a field card's own id ("cool-3"),
"fave:<boy>", "agenda:<agenda id>", "pass".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import IllegalMove, entry

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


def _faces(faces: list[int]) -> str:
    return "on every roll" if len(faces) == 6 else "on " + ", ".join(map(str, faces))


_DETAIL: dict[int, tuple[dict[str, Any], str]] = {}


def host_detail(host: dict[str, Any]) -> str:
    """ "Shines on 4, earns 3 ♥. <rule>" (memoised per card dict, which is never changed)."""
    hit = _DETAIL.get(id(host))
    if hit is not None and hit[0] is host:
        return hit[1]
    text = f"Shines {_faces(host['faces'])}, earns {host['hearts']} ♥."
    text = f"{text} {host['text']}" if host["text"] else text
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


def describe(state: State, seat: int, a: Action) -> tuple[str, str]:
    """(label, detail) of an action as a player reads it."""
    cards = state["cards"]
    if a.kind == "recruit":
        h = cards["hosts"][a.target]
        slot = state["field"].index(a.id)
        where = f"{'Top' if slot < 4 else 'Bottom'} row, card {slot % 4 + 1}."
        verb = "Bond with" if a.target in state["seats"][seat]["club"] else "Recruit"
        return f"{verb} {h['name']} ({a.cost} ♥)", f"{where} {host_detail(h)}"
    if a.kind == "buy":
        f = cards["focus"][a.target]
        slot = state["field"].index(a.id)
        where = f"{'Top' if slot < 4 else 'Bottom'} row, card {slot % 4 + 1}."
        return f"Buy {f['name']} ({a.cost} ♥)", f"{where} {f['text']}"
    if a.kind == "fave":
        h = cards["hosts"][a.target]
        less = abilities.discounts(cards, state["seats"][seat])["fave"]
        return f"Fave {h['name']} ({a.cost} ♥)", f"Bonding with him then costs {less} ♥ less (minimum 1)."
    if a.kind == "agenda":
        ag = cards["agendas"][a.target]
        return f"Complete {ag['name']} ({a.cost} ♥)", ag["text"]
    return "Pass", "Do nothing this turn."


def find(state: State, seat: int, answer: Any) -> Action:
    """The legal action an answer names, or IllegalMove saying why not."""
    if not isinstance(answer, str):
        raise IllegalMove("Pick one of the actions offered.")
    me = state["seats"][seat]
    for a in candidates(state, seat):
        if a.id == answer:
            if a.cost > me["hearts"]:
                what = describe(state, seat, a)[0].rsplit(" (", 1)[0]
                raise IllegalMove(f"{what} costs {a.cost} ♥ and you have {me['hearts']} ♥.")
            return a
    cards = state["cards"]
    if answer.startswith("fave:"):
        boy = answer[5:]
        if boy == me["fave"]:
            raise IllegalMove("He is already your favourite.")
        raise IllegalMove("You can only fave a boy in your club.")
    if answer.startswith("agenda:"):
        if answer[7:] in me["done"]:
            raise IllegalMove("That agenda is already completed.")
        raise IllegalMove("That is not one of your agendas.")
    if base_id(answer) in cards["hosts"] or base_id(answer) in cards["focus"]:
        raise IllegalMove("That card is no longer in the field.")
    raise IllegalMove("That is not one of the actions offered.")


def perform(state: State, seat: int, action: Action) -> None:
    """Carry out a legal action on an already copied state."""
    cards = state["cards"]
    name = state["names"][seat]
    me = dict(state["seats"][seat])
    me["hearts"] -= action.cost
    private = None
    if action.kind == "recruit":
        state["field"] = [None if c == action.id else c for c in state["field"]]
        club = dict(me["club"])
        stack = club.get(action.target, [])
        club[action.target] = stack + [action.id]
        me["club"] = club
        boy = cards["hosts"][action.target]["name"]
        if stack:
            text = f"{name} bonds with {boy} (bond {len(stack) + 1}) for {action.cost} ♥."
        else:
            text = f"{name} recruits {boy} for {action.cost} ♥."
    elif action.kind == "buy":
        state["field"] = [None if c == action.id else c for c in state["field"]]
        me["focus"] = me["focus"] + [action.id]
        text = f"{name} buys {cards['focus'][action.target]['name']} for {action.cost} ♥."
    elif action.kind == "fave":
        me["fave"] = action.target
        text = f"{name} faves {cards['hosts'][action.target]['name']} for {action.cost} ♥."
    elif action.kind == "agenda":
        me["done"] = me["done"] + [action.target]
        ag = cards["agendas"][action.target]
        text = f"{name} completes the agenda {ag['name']} for {action.cost} ♥: {ag['text']}"
        private = None
    else:
        text = f"{name} passes."
    seats = list(state["seats"])
    seats[seat] = me
    state["seats"] = seats
    state["log"] = state["log"] + [entry(text, private)]
