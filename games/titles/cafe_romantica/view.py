"""What one seat may see: the field, every club, own agendas in full, others' agendas by cost.

Never in another seat's view: a face-down agenda's name or benefit, the deck order, sealed bids
or draft preferences not yet revealed. Once the game is over everything is shown.
"""

from __future__ import annotations

from typing import Any

from games.engine import log as gamelog
from games.engine.words import agree, counted

from . import abilities
from .actions import host_detail
from .cards import base_id, in_host_order

State = dict[str, Any]

# while the sealed bids are open, the order held is the one that was bid for last turn
ORDER_HEADER = {"auction": "Last turn's order"}


def _card(cards: dict[str, Any], cid: str) -> dict[str, Any]:
    kind = base_id(cid)
    if kind in cards["hosts"]:
        h = cards["hosts"][kind]
        return {"id": cid, "name": h["name"], "kind": "host", "lines": [f"Cost {h['cost']} ♥", host_detail(h)]}
    f = cards["focus"][kind]
    return {"id": cid, "name": f["name"], "kind": "focus", "lines": [f"Cost {f['cost']} ♥", f["text"]]}


def status(state: State) -> str:
    names = state["names"]
    phase = state["phase"]
    if phase == "draft":
        waiting = [names[i] for i in range(len(names)) if str(i) not in state["sealed"]]
        return f"Draft of managers and agendas: waiting for {', '.join(waiting)}."
    if phase == "auction":
        waiting = [names[i] for i, s in enumerate(state["seats"]) if s["hearts"] > 0 and str(i) not in state["sealed"]]
        return f"Turn {state['turn']}: sealed bids for turn order, waiting for {', '.join(waiting)}."
    if phase == "actions":
        return f"Turn {state['turn']}: {names[state['order'][state['acting']]]} to act."
    winners = ", ".join(names[i] for i in state["winners"] or [])
    return f"Game over after {counted(state['turns_done'], 'turn')}: {winners} {agree(len(state['winners'] or []), 'wins', 'win')}."


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
                names[i],
                cards["managers"][s["manager"]]["name"] if s["manager"] else "",
                " & ".join(map(str, roll)),
                str(s["hearts"]),
                str(pos or ""),
                f"{len(s['done'])}/3",
            ]
        )
        data_i, lines = _seat_parts(cards, s, over or seat == i)
        seats_data.append({"name": names[i], **data_i})
        title = "Your club" if seat == i else f"{names[i]}'s club"
        panels.append({"title": title, "lines": lines})
    field = [_card(cards, c) if c else None for c in state["field"]]
    panels.insert(
        0,
        {
            "title": f"Turn {state['turn']}" if state["turn"] else "Setup",
            "table": {
                "header": ["Player", "Manager", "Roll", "♥", ORDER_HEADER.get(state["phase"], "Turn order"), "Agendas"],
                "rows": table_rows,
            },
        },
    )
    panels.insert(1, {"title": "Field (top row, then bottom row)", "cards": [c for c in field if c]})
    sealed_mine = None
    if seat is not None and str(seat) in state["sealed"]:
        sealed_mine = state["sealed"][str(seat)]
        panels.append({"title": "Your sealed answer", "lines": [_sealed_text(state, sealed_mine)]})
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


_SEAT_CACHE: dict[tuple[int, bool], tuple[Any, Any, dict[str, Any], list[str]]] = {}


def _seat_parts(cards: dict[str, Any], s: dict[str, Any], mine: bool) -> tuple[dict[str, Any], list[str]]:
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


def _build_seat_parts(cards: dict[str, Any], s: dict[str, Any], mine: bool) -> tuple[dict[str, Any], list[str]]:
    agendas = []
    for a in s["agendas"]:
        ag = cards["agendas"][a]
        done = a in s["done"]
        if done or mine:
            agendas.append({"id": a, "name": ag["name"], "cost": ag["cost"], "text": ag["text"], "done": done})
        else:
            agendas.append({"id": None, "name": "Face-down agenda", "cost": ag["cost"], "text": "", "done": False})
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
        lines.append(f"Manager: {m['name']}: {m['text']}")
    fl = cards["flyer"]
    lines.append(f"{fl['name']}: {host_detail(fl)}")
    for boy in boys:
        stack = s["club"][boy]
        h = cards["hosts"][boy]
        star = " ★ favourite" if boy == s["fave"] else ""
        bond = f" (bond {len(stack)})" if len(stack) > 1 else ""
        lines.append(f"{h['name']}{bond}{star}: {host_detail(h)}")
    for c in s["focus"]:
        f = cards["focus"][base_id(c)]
        lines.append(f"{f['name']}: {f['text']}")
    for ag in agendas:
        if ag["done"]:
            lines.append(f"Agenda completed: {ag['name']}: {ag['text']}")
        elif ag["id"]:
            lines.append(f"Agenda to complete: {ag['name']} (cost {ag['cost']}): {ag['text']}")
        else:
            lines.append(f"Face-down agenda (cost {ag['cost']})")
    return data, lines


def _reveal(e: dict[str, Any]) -> str:
    return e.get("reveal") or e["text"]


def _sealed_text(state: State, sealed: Any) -> str:
    if isinstance(sealed, list):
        return "Your limits: " + ", ".join(f"turn order {p} up to {v} ♥" for p, v in enumerate(sealed, start=1))
    cards = state["cards"]
    m = cards["managers"][sealed["manager"][0]]["name"]
    a = ", ".join(cards["agendas"][x]["name"] for x in sealed["agendas"][:3])
    return f"Your preferences: {m} first; agendas {a} first."
