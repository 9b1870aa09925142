"""What one seat may see: the field, every club, own agendas in full, others' agendas by cost.

Never in another seat's view: a face-down agenda's name or benefit, the deck order, sealed bids
or draft preferences not yet revealed. Once the game is over everything is shown.
"""

from __future__ import annotations

from typing import Any

from games.engine import log as gamelog
from games.engine.messages import Msg, card_ref, list_ref, msg, nmsg, seat_ref

from . import abilities
from .actions import host_detail
from .cards import base_id, in_host_order

State = dict[str, Any]

# while the sealed bids are open, the order held is the one that was bid for last turn
ORDER_HEADER = {"auction": msg("Last turn's order")}


def _card(cards: dict[str, Any], cid: str) -> dict[str, Any]:
    kind = base_id(cid)
    if kind in cards["hosts"]:
        h = cards["hosts"][kind]
        lines = [msg("Cost %(cost)s ♥", cost=h["cost"]), host_detail(h)]
        return {"id": cid, "name": card_ref(h["name"]), "kind": "host", "lines": lines}
    f = cards["focus"][kind]
    lines = [msg("Cost %(cost)s ♥", cost=f["cost"]), card_ref(f["text"])]
    return {"id": cid, "name": card_ref(f["name"]), "kind": "focus", "lines": lines}


def status(state: State) -> Msg:
    names = state["names"]
    phase = state["phase"]
    if phase == "draft":
        waiting = [seat_ref(i) for i in range(len(names)) if str(i) not in state["sealed"]]
        return msg("Draft of managers and agendas: waiting for %(seats)s.", seats=list_ref(waiting))
    if phase == "auction":
        waiting = [
            seat_ref(i) for i, s in enumerate(state["seats"]) if s["hearts"] > 0 and str(i) not in state["sealed"]
        ]
        return msg(
            "Turn %(turn)s: sealed bids for turn order, waiting for %(seats)s.",
            turn=state["turn"],
            seats=list_ref(waiting),
        )
    if phase == "actions":
        return msg(
            "Turn %(turn)s: %(seat)s to act.", turn=state["turn"], seat=seat_ref(state["order"][state["acting"]])
        )
    winners = list(state["winners"] or [])
    won = nmsg(
        "%(seats)s wins", "%(seats)s win", "count", seats=list_ref([seat_ref(i) for i in winners]), count=len(winners)
    )
    return nmsg(
        "Game over after %(turns)s turn: %(won)s.",
        "Game over after %(turns)s turns: %(won)s.",
        "turns",
        turns=state["turns_done"],
        won=won,
    )


def view(state: State, seat: int | None) -> dict[str, Any]:
    out = view_body(state, seat)
    over = state["phase"] == "over"
    out["log"] = gamelog.read(state["log"], seat) if not over else [_reveal(e) for e in state["log"]]
    return out


def view_body(state: State, seat: int | None) -> dict[str, Any]:
    """The view without its log (the log is checked on its own by the invariants)."""
    cards = state["cards"]
    over = state["phase"] == "over"
    names = state["names"]
    n = len(names)
    panels: list[dict[str, Any]] = []
    table_rows = []
    seats_data = []
    for i, s in enumerate(state["seats"]):
        pos = state["order"].index(i) + 1 if i in state["order"] else None
        roll = state["rolls"][i] if state["rolls"] else []
        table_rows.append(
            [
                seat_ref(i),
                card_ref(cards["managers"][s["manager"]]["name"]) if s["manager"] else "",
                _roll(roll),
                s["hearts"],
                pos or "",
                msg("%(done)s/3", done=len(s["done"])),
            ]
        )
        data_i, lines = _seat_parts(cards, s, over or seat == i)
        seats_data.append({"name": seat_ref(i), **data_i})
        title = msg("Your club") if seat == i else msg("%(seat)s's club", seat=seat_ref(i))
        panels.append({"title": title, "lines": lines})
    field = [_card(cards, c) if c else None for c in state["field"]]
    panels.insert(
        0,
        {
            "title": msg("Turn %(turn)s", turn=state["turn"]) if state["turn"] else msg("Setup"),
            "table": {
                "header": [
                    msg("Player"),
                    msg("Manager"),
                    msg("Roll"),
                    "♥",
                    ORDER_HEADER.get(state["phase"], msg("Turn order")),
                    msg("Agendas"),
                ],
                "rows": table_rows,
            },
        },
    )
    panels.insert(1, {"title": msg("Field (top row, then bottom row)"), "cards": [c for c in field if c]})
    sealed_mine = None
    if seat is not None and str(seat) in state["sealed"]:
        sealed_mine = state["sealed"][str(seat)]
        panels.append({"title": msg("Your sealed answer"), "lines": [_sealed_text(state, sealed_mine)]})
    data = {
        "turn": state["turn"],
        "turns_done": state["turns_done"],
        "phase": state["phase"],
        "options": dict(state["options"]),
        "dice": list(state["dice"]),
        "rolls": [list(r) for r in state["rolls"]],
        "order": list(state["order"]),
        "prices": list(state["prices"]),
        "acting": state["order"][state["acting"]] if state["phase"] == "actions" else None,
        "field": [c["id"] if c else None for c in field],
        "deck_count": len(state["deck"]),
        "answered": sorted(int(k) for k in state["sealed"]),
        "my_sealed": sealed_mine,
        "seats": seats_data,
        "winners": state["winners"],
        "players": n,
    }
    return {"status": status(state), "panels": panels, "data": data}


_SEAT_CACHE: dict[tuple[int, bool], tuple[Any, Any, dict[str, Any], list[Any]]] = {}


def _seat_parts(cards: dict[str, Any], s: dict[str, Any], mine: bool) -> tuple[dict[str, Any], list[Any]]:
    """A seat's data and panel lines (copies). Memoised on the seat dict itself, which apply never
    changes in place (a change makes a new dict), so a view of an unchanged seat is not rebuilt."""
    hit = _SEAT_CACHE.get((id(s), mine))
    if hit is None or hit[0] is not s or hit[1] is not cards:
        data, lines = _build_seat_parts(cards, s, mine)
        if len(_SEAT_CACHE) > 512:
            _SEAT_CACHE.clear()
        hit = _SEAT_CACHE[(id(s), mine)] = (s, cards, data, lines)
    data, lines = hit[2], hit[3]
    out = dict(data, club=dict(data["club"]), focus=list(data["focus"]), agendas=[dict(a) for a in data["agendas"]])
    return out, list(lines)


def _build_seat_parts(cards: dict[str, Any], s: dict[str, Any], mine: bool) -> tuple[dict[str, Any], list[Any]]:
    agendas = []
    for a in s["agendas"]:
        ag = cards["agendas"][a]
        done = a in s["done"]
        if done or mine:
            agendas.append(
                {"id": a, "name": card_ref(ag["name"]), "cost": ag["cost"], "text": card_ref(ag["text"]), "done": done}
            )
        else:
            agendas.append({"id": None, "name": msg("Face-down agenda"), "cost": ag["cost"], "text": "", "done": False})
    boys = in_host_order(cards, s["club"])  # data order: a club's key order is lost in the database
    data = {
        "manager": s["manager"],
        "hearts": s["hearts"],
        "club": {b: len(s["club"][b]) for b in boys},
        "focus": list(s["focus"]),
        "fave": s["fave"],
        "agendas": agendas,
        "club_value": abilities.club_value(cards, s),
    }
    lines = []
    if s["manager"]:
        m = cards["managers"][s["manager"]]
        lines.append(msg("Manager: %(card)s: %(text)s", card=card_ref(m["name"]), text=card_ref(m["text"])))
    fl = cards["flyer"]
    lines.append(msg("%(card)s: %(text)s", card=card_ref(fl["name"]), text=host_detail(fl)))
    for boy in boys:
        n = len(s["club"][boy])
        h = cards["hosts"][boy]
        card, text = card_ref(h["name"]), host_detail(h)
        if boy == s["fave"]:
            if n > 1:
                lines.append(msg("%(card)s (bond %(bond)s) ★ favourite: %(text)s", card=card, bond=n, text=text))
            else:
                lines.append(msg("%(card)s ★ favourite: %(text)s", card=card, text=text))
        elif n > 1:
            lines.append(msg("%(card)s (bond %(bond)s): %(text)s", card=card, bond=n, text=text))
        else:
            lines.append(msg("%(card)s: %(text)s", card=card, text=text))
    for c in s["focus"]:
        f = cards["focus"][base_id(c)]
        lines.append(msg("%(card)s: %(text)s", card=card_ref(f["name"]), text=card_ref(f["text"])))
    for ag in agendas:
        if ag["done"]:
            lines.append(msg("Agenda completed: %(card)s: %(text)s", card=ag["name"], text=ag["text"]))
        elif ag["id"]:
            lines.append(
                msg(
                    "Agenda to complete: %(card)s (cost %(cost)s): %(text)s",
                    card=ag["name"],
                    cost=ag["cost"],
                    text=ag["text"],
                )
            )
        else:
            lines.append(msg("Face-down agenda (cost %(cost)s)", cost=ag["cost"]))
    return data, lines


def _roll(roll: list[int]) -> Any:
    """A seat's die as the table shows it: "4", or "2 & 5" when rolled again."""
    if len(roll) == 2:
        return msg("%(die)s & %(again)s", die=roll[0], again=roll[1])
    return roll[0] if roll else ""


def _reveal(e: dict[str, Any]) -> Any:
    return e.get("reveal") or e["text"]


def _sealed_text(state: State, sealed: Any) -> Msg:
    if isinstance(sealed, list):
        limits = [msg("turn order %(pos)s up to %(limit)s ♥", pos=p, limit=v) for p, v in enumerate(sealed, start=1)]
        return msg("Your limits: %(limits)s", limits=list_ref(limits))
    cards = state["cards"]
    m = card_ref(cards["managers"][sealed["manager"][0]]["name"])
    a = list_ref([card_ref(cards["agendas"][x]["name"]) for x in sealed["agendas"][:3]])
    return msg("Your preferences: %(manager)s first; agendas %(agendas)s first.", manager=m, agendas=a)
