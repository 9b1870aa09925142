"""What one seat may see (rule note 11): own hand; for everyone, waiting room and hand sizes,
town stacks, private quarters and only the top card of each kitchen entrance.

Once the game is over everything is shown.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine.log import read
from games.engine.messages import Msg, list_ref, msg, nmsg

from .effects import requirement_text
from .scoring import outcome
from .state import State, by_cost, card_text, comma_list, name, who
from .turn import turn_status


def _card(s: State, cid: str) -> dict[str, Any]:
    c = s["cards"][cid]
    lines: list[Any] = []
    if c["type"] == "reminiscence":
        lines.append(
            msg(
                "%(vp)s VP, category %(category)s; needs %(needs)s",
                vp=c["vp"],
                category=c["category"],
                needs=requirement_text(c["requires"]),
            )
        )
    else:
        lines.append(msg("cost %(n)s", n=c["cost"]))
    if c.get("text"):
        lines.append(card_text(c))
    return {"id": cid, "name": name(s, cid), "kind": c["type"], "lines": lines}


def _counted(s: State, cids: list[str]) -> Any:
    """'Laura x2, Scary Night' (or '-')."""
    if not cids:
        return "-"
    return comma_list(
        [
            msg("%(card)s x%(n)s", card=name(s, c), n=k) if k > 1 else name(s, c)
            for c, k in Counter(by_cost(s, cids)).items()
        ]
    )


def status(s: State) -> Msg:
    if s["over"]:
        res = outcome(s)
        assert res is not None
        won = list_ref([who(s, w) for w in res.winners])
        return nmsg(
            "Game over: %(reason)s %(winners)s wins.",
            "Game over: %(reason)s %(winners)s win.",
            "n",
            reason=s["end_reason"],
            winners=won,
            n=len(res.winners),
        )
    t = s["turn"]
    stage = s["stage"]
    if stage["kind"] in ("keep", "bottom"):
        return msg(
            "%(seat)s's turn %(n)s: waiting for %(waiting)s (%(card)s).",
            seat=who(s, t["seat"]),
            n=t["number"],
            waiting=list_ref([who(s, w) for w in stage["waiting"]]),
            card=name(s, stage["card"]),
        )
    seat, n = who(s, t["seat"]), t["number"]
    if t["phase"] == "start":
        return msg("%(seat)s's turn %(n)s, starting phase.", seat=seat, n=n)
    if t["phase"] == "serve":
        return msg("%(seat)s's turn %(n)s, serving phase.", seat=seat, n=n)
    if t["phase"] == "employ":
        return msg("%(seat)s's turn %(n)s, employ phase.", seat=seat, n=n)
    return msg("%(seat)s's turn %(n)s, dismiss phase.", seat=seat, n=n)


def _details(rows: list[tuple[Any, int]]) -> Any:
    """'Laura x2 +4; Scary Night +3': a score's breakdown in one cell."""
    out: Any = ""
    for label, points in reversed(rows):
        if points >= 0:
            part = msg("%(label)s +%(points)s", label=label, points=points)
        else:
            part = msg("%(label)s %(points)s", label=label, points=points)
        out = part if out == "" else msg("%(first)s; %(rest)s", first=part, rest=out)
    return out


def view(s: State, seat: int | None) -> dict[str, Any]:
    over = s["over"]
    n = len(s["players"])
    panels: list[dict[str, Any]] = []
    houses: list[dict[str, Any]] = []
    for i in range(n):
        z = s["seats"][i]
        house: dict[str, Any] = {
            "seat": i,
            "name": who(s, i),  # named by the service
            "waiting_room": len(z["deck"]),
            "hand_size": len(z["hand"]),
            "kitchen_size": len(z["discard"]),
            "kitchen_top": z["discard"][-1] if z["discard"] else None,
            "played": list(z["played"]),
            "quarters": list(z["quarters"]),
            "reminiscences": list(z["memories"]),
        }
        if over or i == seat:
            house["hand"] = list(z["hand"])
        if over:
            house["waiting_room_cards"] = sorted(z["deck"])
            house["kitchen_cards"] = sorted(z["discard"])
        houses.append(house)

    if seat is not None and not over:
        hand = by_cost(s, s["seats"][seat]["hand"])
        panels.append({"title": msg("Your hand"), "cards": [_card(s, c) for c in hand]})
    if not over:
        t = s["turn"]
        panels.append(
            {
                "title": msg("%(seat)s's turn", seat=who(s, t["seat"])),
                "lines": [
                    turn_status(t),
                    msg("Served so far: %(cards)s", cards=_counted(s, s["seats"][t["seat"]]["played"])),
                ],
            }
        )
    cards = s["cards"]
    town_rows = [[name(s, c), cards[c]["cost"], s["town"][c]] for c in s["maid_stacks"] + s["love_stacks"]]
    panels.append(
        {
            "title": msg("Town"),
            "table": {"header": [msg("Stack"), msg("Cost"), msg("Left")], "rows": town_rows},
        }
    )
    panels.append(
        {
            "title": msg("Reminiscences"),
            "cards": [_card(s, r) for r in s["remi_row"]],
            "lines": [nmsg("%(n)s card face down.", "%(n)s cards face down.", "n", n=len(s["remi_deck"]))],
        }
    )
    rows = []
    for h in houses:
        top = name(s, h["kitchen_top"]) if h["kitchen_top"] else "-"
        rows.append(
            [
                h["name"],
                h["waiting_room"],
                h["hand_size"],
                msg("%(n)s (top: %(card)s)", n=h["kitchen_size"], card=top),
                _counted(s, h["quarters"] + h["reminiscences"]),
            ]
        )
    panels.append(
        {
            "title": msg("Houses"),
            "table": {
                "header": [
                    msg("Master"),
                    msg("Waiting room"),
                    msg("Hand"),
                    msg("Kitchen entrance"),
                    msg("Private quarters"),
                ],
                "rows": rows,
            },
        }
    )
    data: dict[str, Any] = {
        "seat": seat,
        "turn": None if over else dict(s["turn"]),
        "stage": s["stage"]["kind"],
        "town": dict(s["town"]),
        "general": list(s["general"]),
        "reminiscence_row": list(s["remi_row"]),
        "reminiscence_deck": len(s["remi_deck"]),
        "houses": houses,
        "end_stacks": s["end_at"],
    }
    stage = s["stage"]
    if not over and stage["kind"] == "reveal":
        data["revealed"] = list(stage["cards"])  # Lydia's reveal is public
    if over:
        res = outcome(s)
        assert res is not None
        panels.insert(
            0,
            {
                "title": msg("Final scores"),
                "table": {
                    "header": [msg("Master"), msg("VP"), msg("Details")],
                    "rows": [[who(s, i), res.scores[i], _details(res.breakdown[i])] for i in range(n)],
                },
                "lines": [msg("Tie-break: %(reason)s.", reason=res.tiebreak)] if res.tiebreak else [],
            },
        )
        data["scores"] = {str(k): v for k, v in res.scores.items()}
        data["winners"] = res.winners
    return {"status": status(s), "panels": panels, "log": read(s["log"], seat), "data": data}
