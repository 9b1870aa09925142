"""What a seat sees: the shared view shape plus structured data to draw each area as a grid.

Hidden while the game runs: the deck's order and contents and the cards removed face down at setup
(only their counts show). Everything else in Café is open on the table.
"""

from __future__ import annotations

from typing import Any

from games.engine.log import read
from games.engine.words import counted

from . import actions as act_mod
from .cards import by_colour, card_shops
from .draft import card_text
from .grid import bounds, key, parse, reading_order
from .placement import cells_of
from .scoring import score, shop_points, supplied_shops, warehouse_points
from .state import ROUNDS
from .taps import cell_picks, option_taps
from .turn import placement_options, prompts


def square_info(code: str) -> dict[str, Any]:
    """A square code as fields a page draws from."""
    if code.startswith("bean:"):
        return {"kind": "bean", "colour": code[5:]}
    if code.startswith("roast"):
        return {"kind": "roast", "star": code == "roast*"}
    if code.startswith("shop:"):
        return {"kind": "shop", "shop": code[5:]}
    return {"kind": code}


def square_text(code: str, cards: dict[str, Any]) -> str:
    if code.startswith("bean:"):
        return f"{code[5:]} bean"
    if code == "roast*":
        return "roast★"
    if code.startswith("shop:"):
        sid = code[5:]
        shop = cards[sid.split(".")[0]]["shops"][sid]
        return f"shop {shop['vp']}VP"
    return code


def card_view(card: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": card["id"],
        "name": card["id"].replace("card", "Card ").replace("start", "Initial card "),
        "kind": "plan" if card["id"].startswith("card") else "initial",
        "lines": [card_text(card)],
        "squares": [{"square": code, **square_info(code)} for code in card["squares"]],
        "cups": card["cups"],
        "ships": card["ships"],
        "star": card.get("star", False),
        "shops": [
            {"id": sid, "need": by_colour(s["need"]), "vp": s["vp"], "size": s["size"]} for sid, s in card_shops(card)
        ],
    }


def _owners(seat: dict[str, Any]) -> dict[str, str]:
    """Which card shows at each cell (later cards lie on top)."""
    out: dict[str, str] = {}
    for cid, r, c, rot in seat["stack"]:
        for k in cells_of(r, c, rot):
            out[k] = cid
    return out


def area_data(seat: dict[str, Any], cards: dict[str, Any]) -> dict[str, Any]:
    top, left, bottom, right = bounds(seat["area"])
    owners = _owners(seat)
    cells = []
    for k, code in seat["area"].items():
        r, c = parse(k)
        cube = seat["cubes"].get(k)
        cells.append(
            {
                "row": r,
                "col": c,
                "square": code,
                **square_info(code),
                "card": owners[k],
                "cubes": {"colour": cube[0], "count": cube[1]} if cube else None,
            }
        )
    cells.sort(key=lambda x: (x["row"], x["col"]))
    visible = act_mod.visible_shops(seat["area"], cards)
    done = set(supplied_shops(seat, cards))
    shops = [
        {
            "id": sid,
            "need": by_colour(s["need"]),
            "held": by_colour(seat["shops"].get(sid, {})),
            "vp": s["vp"],
            "supplied": sid in done,
            "cells": [
                [*parse(k)] for k in reading_order(k for k, code in seat["area"].items() if code == f"shop:{sid}")
            ],
        }
        for sid, s in sorted(visible.items())
    ]
    return {"top": top, "left": left, "bottom": bottom, "right": right, "cells": cells, "shops": shops}


def _table(seat: dict[str, Any], cards: dict[str, Any]) -> dict[str, Any]:
    top, left, bottom, right = bounds(seat["area"])
    rows = []
    for r in range(top, bottom + 1):
        row = [str(r)]
        for c in range(left, right + 1):
            k = key(r, c)
            code = seat["area"].get(k)
            text = "" if code is None else square_text(code, cards)
            if k in seat["cubes"]:
                colour, n = seat["cubes"][k]
                text += f" [{n} {colour}]"
            row.append(text)
        rows.append(row)
    return {"header": ["row / col", *(str(c) for c in range(left, right + 1))], "rows": rows}


def view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    cards = state["cards"]
    names = state["names"]
    over = state["phase"] == "over"
    waiting = prompts(state)
    if over:
        out = score(state)
        best = ", ".join(names[w] for w in out.winners) or "nobody"
        status = f"Game over: {best} {'win' if len(out.winners) > 1 else 'wins'}."
        if len(names) == 1:
            status = f"Game over: {counted(out.scores[0], 'point')}, rank {out.extra['rank']}."
    elif state["phase"] == "draft":
        status = f"Round {state['round']} of {ROUNDS}: {names[state['to_pick'][0]]} picks a plan card."
    else:
        status = f"Round {state['round']} of {ROUNDS}: placing cards and taking actions; waiting for " + ", ".join(
            names[i] for i in sorted(waiting)
        )
    panels: list[dict[str, Any]] = []
    if state["display"]:
        panels.append(
            {
                "title": "Plan cards on offer",
                "cards": [card_view(cards[c]) for c in state["display"]],
                "lines": [f"Deck: {counted(len(state['deck']), 'card')}."],
            }
        )
    seats_data = []
    for i, s in enumerate(state["seats"]):
        points = shop_points(s, cards) + warehouse_points(s["warehouse"])
        wh = ", ".join(f"{n} {c}" for c, n in by_colour(s["warehouse"]).items())
        lines = [
            f"Company: {s['company']}. Warehouse: {wh}.",
            f"Actions: {s['left']} left of {s['actions']}." if s["stage"] == "act" else f"Actions: {s['actions']}.",
            f"Points so far: {points} (shops {shop_points(s, cards)}, warehouse {warehouse_points(s['warehouse'])}).",
        ]
        if s["hand"]:
            lines.insert(0, f"To place: {s['hand'].replace('card', 'card ')}.")
        title = "Your business area" if i == seat else f"{names[i]}'s business area"
        if i == state["master"]:
            title += " (master)"
        panels.append({"title": title, "lines": lines, "table": _table(s, cards)})
        seats_data.append(
            {
                "seat": i,
                "name": names[i],
                "company": s["company"],
                "master": i == state["master"],
                "stage": s["stage"],
                "warehouse": by_colour(s["warehouse"]),
                "actions": s["actions"],
                "actions_left": s["left"] if s["stage"] == "act" else 0,
                "hand": card_view(cards[s["hand"]]) if s["hand"] else None,
                "area": area_data(s, cards),
                "stack": [{"card": cid, "row": r, "col": c, "rot": rot} for cid, r, c, rot in s["stack"]],
                "points": points,
            }
        )
    data: dict[str, Any] = {
        "round": state["round"],
        "rounds": ROUNDS,
        "phase": state["phase"],
        "master": state["master"],
        "deck_count": len(state["deck"]),
        "removed_count": len(state["removed"]),
        "display": [card_view(cards[c]) for c in state["display"]],
        "discard": list(state["discard"]),
        "to_pick": list(state["to_pick"]),
        "supply": by_colour(state["supply"]),
        "seats": seats_data,
        "you": seat,
    }
    if seat is not None and seat in waiting and state["phase"] == "play":
        s = state["seats"][seat]
        if s["stage"] == "place":
            card = cards[s["hand"]]
            data["placements"] = [
                {
                    "id": p.id,
                    "row": p.row,
                    "col": p.col,
                    "rot": p.rot,
                    "covered": p.covered,
                    "cells": [
                        {"row": parse(k)[0], "col": parse(k)[1], "square": code, **square_info(code)}
                        for k, code in zip(cells_of(p.row, p.col, p.rot), card["squares"], strict=True)
                    ],
                }
                for p in placement_options(state, seat)
            ]
        else:
            facts = act_mod.area_facts(s["area"])
            data["actions"] = [
                {
                    "id": a.id,
                    "label": a.label,
                    "cost": a.cost,
                    "kind": a.kind,
                    "cells": [[*parse(k)] for k in a.cells],
                    "taps": option_taps(a, s, cards, facts),
                }
                for a in act_mod.options(s, cards, state["supply"])
            ]
            data["tap_picks"] = cell_picks(s, facts)
    if over:
        data["deck"] = list(state["deck"])
        data["removed"] = list(state["removed"])
        out = score(state)
        data["scores"] = {str(k): v for k, v in out.scores.items()}
        data["winners"] = out.winners
        panels.append(
            {
                "title": "Final scores",
                "table": {
                    "header": ["Player", "Coffee shops", "Warehouse", "Total"],
                    "rows": [
                        [names[i], *(str(p) for _, p in out.breakdown[i]), str(out.scores[i])] for i in out.scores
                    ],
                },
                "lines": [f"Tie-break: {out.tiebreak}."] if out.tiebreak else [],
            }
        )
    return {"status": status, "panels": panels, "log": read(state["log"], seat), "data": data}
