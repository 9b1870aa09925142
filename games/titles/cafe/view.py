"""What a seat sees: the shared view shape plus structured data to draw each area as a grid.

Hidden while the game runs: the deck's order and contents and the cards removed face down at setup
(only their counts show). Everything else in Café is open on the table.
"""

from __future__ import annotations

from typing import Any

from games.engine.log import read
from games.engine.messages import card_ref, list_ref, msg, nmsg, seat_ref

from . import actions as act_mod
from .cards import by_colour, card_shops
from .draft import card_text, square_word
from .grid import bounds, key, parse, reading_order
from .placement import cells_of
from .scoring import score, shop_points, supplied_shops, warehouse_points
from .state import ROUNDS
from .taps import cell_picks, option_taps
from .turn import placement_options, prompts
from .words import amount, card_title, colour
from .words import card as card_name


def square_info(code: str) -> dict[str, Any]:
    """A square code as fields a page draws from."""
    if code.startswith("bean:"):
        return {"kind": "bean", "colour": code[5:]}
    if code.startswith("roast"):
        return {"kind": "roast", "star": code == "roast*"}
    if code.startswith("shop:"):
        return {"kind": "shop", "shop": code[5:]}
    return {"kind": code}


def square_text(code: str, cards: dict[str, Any]) -> Any:
    if code.startswith("bean:"):
        return msg("%(colour)s bean", colour=colour(code[5:]))
    if code.startswith("shop:"):
        sid = code[5:]
        shop = cards[sid.split(".")[0]]["shops"][sid]
        return msg("shop %(vp)sVP", vp=shop["vp"])
    return square_word(code)


def card_view(card: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": card["id"],
        "name": card_title(card["id"]),
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
        row: list[Any] = [str(r)]
        for c in range(left, right + 1):
            k = key(r, c)
            code = seat["area"].get(k)
            text: Any = "" if code is None else square_text(code, cards)
            if k in seat["cubes"]:
                col, n = seat["cubes"][k]
                text = msg("%(square)s [%(n)s %(colour)s]", square=text, n=n, colour=colour(col))
            row.append(text)
        rows.append(row)
    return {"header": [msg("row / col"), *(str(c) for c in range(left, right + 1))], "rows": rows}


def view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    cards = state["cards"]
    names = [seat_ref(i) for i in range(len(state["seats"]))]
    over = state["phase"] == "over"
    waiting = prompts(state)
    if over:
        out = score(state)
        if len(names) == 1:
            status = nmsg(
                "Game over: %(n)s point, rank %(rank)s.",
                "Game over: %(n)s points, rank %(rank)s.",
                "n",
                n=out.scores[0],
                rank=out.extra["rank"],
            )
        elif not out.winners:
            status = msg("Game over: nobody wins.")
        elif len(out.winners) > 1:
            status = msg("Game over: %(players)s win.", players=list_ref([names[w] for w in out.winners]))
        else:
            status = msg("Game over: %(player)s wins.", player=names[out.winners[0]])
    elif state["phase"] == "draft":
        status = msg(
            "Round %(round)s of %(rounds)s: %(seat)s picks a plan card.",
            round=state["round"],
            rounds=ROUNDS,
            seat=names[state["to_pick"][0]],
        )
    else:
        status = msg(
            "Round %(round)s of %(rounds)s: placing cards and taking actions; waiting for %(players)s",
            round=state["round"],
            rounds=ROUNDS,
            players=list_ref([names[i] for i in sorted(waiting)]),
        )
    panels: list[dict[str, Any]] = []
    if state["display"]:
        panels.append(
            {
                "title": msg("Plan cards on offer"),
                "cards": [card_view(cards[c]) for c in state["display"]],
                "lines": [nmsg("Deck: %(n)s card.", "Deck: %(n)s cards.", "n", n=len(state["deck"]))],
            }
        )
    seats_data = []
    for i, s in enumerate(state["seats"]):
        points = shop_points(s, cards) + warehouse_points(s["warehouse"])
        wh = list_ref([amount(n, c) for c, n in by_colour(s["warehouse"]).items()])
        lines: list[Any] = [
            msg("Company: %(company)s. Warehouse: %(cubes)s.", company=card_ref(s["company"]), cubes=wh),
            msg("Actions: %(left)s left of %(all)s.", left=s["left"], all=s["actions"])
            if s["stage"] == "act"
            else msg("Actions: %(all)s.", all=s["actions"]),
            msg(
                "Points so far: %(points)s (shops %(shops)s, warehouse %(warehouse)s).",
                points=points,
                shops=shop_points(s, cards),
                warehouse=warehouse_points(s["warehouse"]),
            ),
        ]
        if s["hand"]:
            lines.insert(0, msg("To place: %(card)s.", card=card_name(s["hand"])))
        master = i == state["master"]
        if i == seat:
            title = msg("Your business area (master)") if master else msg("Your business area")
        elif master:
            title = msg("%(seat)s's business area (master)", seat=names[i])
        else:
            title = msg("%(seat)s's business area", seat=names[i])
        panels.append({"title": title, "lines": lines, "table": _table(s, cards)})
        seats_data.append(
            {
                "seat": i,
                "name": names[i],
                "company": card_ref(s["company"]),
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
                "title": msg("Final scores"),
                "table": {
                    "header": [msg("Player"), msg("Coffee shops"), msg("Warehouse"), msg("Total")],
                    "rows": [
                        [names[i], *(str(p) for _, p in out.breakdown[i]), str(out.scores[i])] for i in out.scores
                    ],
                },
                "lines": [msg("Tie-break: %(how)s.", how=out.tiebreak)] if out.tiebreak else [],
            }
        )
    return {"status": status, "panels": panels, "log": read(state["log"], seat), "data": data}
