"""What one seat may see (rule note 11): own hand; for everyone, waiting room and hand sizes,
town stacks, private quarters and only the top card of each kitchen entrance.

Once the game is over everything is shown.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine.log import read
from games.engine.words import counted

from .scoring import outcome
from .state import State, by_cost, name, who


def _card(s: State, cid: str) -> dict[str, Any]:
    c = s["cards"][cid]
    lines = []
    if c["type"] == "reminiscence":
        lines.append(f"{c['vp']} VP, category {c['category']}; needs " + " + ".join(f"cost {x}" for x in c["requires"]))
    else:
        lines.append(f"cost {c['cost']}")
    if c.get("text"):
        lines.append(c["text"])
    return {"id": cid, "name": c["name"], "kind": c["type"], "lines": lines}


def _counted(s: State, cids: list[str]) -> str:
    if not cids:
        return "-"
    return ", ".join(f"{name(s, c)} x{k}" if k > 1 else name(s, c) for c, k in Counter(by_cost(s, cids)).items())


def status(s: State) -> str:
    if s["over"]:
        res = outcome(s)
        assert res is not None
        won = " and ".join(who(s, w) for w in res.winners)
        return f"Game over: {s['end_reason']} {won} {'win' if len(res.winners) > 1 else 'wins'}."
    t = s["turn"]
    stage = s["stage"]
    if stage["kind"] in ("keep", "bottom"):
        waiting = ", ".join(who(s, w) for w in stage["waiting"])
        return f"{who(s, t['seat'])}'s turn {t['number']}: waiting for {waiting} ({name(s, stage['card'])})."
    phase = {"start": "starting", "serve": "serving", "employ": "employ", "end": "dismiss"}[t["phase"]]
    return f"{who(s, t['seat'])}'s turn {t['number']}, {phase} phase."


def view(s: State, seat: int | None) -> dict[str, Any]:
    over = s["over"]
    n = len(s["players"])
    panels: list[dict[str, Any]] = []
    houses: list[dict[str, Any]] = []
    for i in range(n):
        z = s["seats"][i]
        house: dict[str, Any] = {
            "seat": i,
            "name": who(s, i),
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
        panels.append({"title": "Your hand", "cards": [_card(s, c) for c in hand]})
    if not over:
        t = s["turn"]
        panels.append(
            {
                "title": f"{who(s, t['seat'])}'s turn",
                "lines": [
                    f"{counted(t['servings'], 'serving')}, {t['love']} love, {counted(t['employments'], 'employment')}",
                    "Served so far: " + _counted(s, s["seats"][t["seat"]]["played"]),
                ],
            }
        )
    cards = s["cards"]
    town_rows = [
        [cards[c]["name"], str(cards[c]["cost"]), str(s["town"][c])] for c in s["maid_stacks"] + s["love_stacks"]
    ]
    panels.append({"title": "Town", "table": {"header": ["Stack", "Cost", "Left"], "rows": town_rows}})
    panels.append(
        {
            "title": "Reminiscences",
            "cards": [_card(s, r) for r in s["remi_row"]],
            "lines": [f"{counted(len(s['remi_deck']), 'card')} face down."],
        }
    )
    rows = []
    for h in houses:
        top = name(s, h["kitchen_top"]) if h["kitchen_top"] else "-"
        rows.append(
            [
                h["name"],
                str(h["waiting_room"]),
                str(h["hand_size"]),
                f"{h['kitchen_size']} (top: {top})",
                _counted(s, h["quarters"] + h["reminiscences"]),
            ]
        )
    panels.append(
        {
            "title": "Houses",
            "table": {
                "header": ["Master", "Waiting room", "Hand", "Kitchen entrance", "Private quarters"],
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
                "title": "Final scores",
                "table": {
                    "header": ["Master", "VP", "Details"],
                    "rows": [
                        [who(s, i), str(res.scores[i]), "; ".join(f"{lbl} {p:+d}" for lbl, p in res.breakdown[i])]
                        for i in range(n)
                    ],
                },
                "lines": [f"Tie-break: {res.tiebreak}."] if res.tiebreak else [],
            },
        )
        data["scores"] = {str(k): v for k, v in res.scores.items()}
        data["winners"] = res.winners
    return {"status": status(s), "panels": panels, "log": read(s["log"], seat), "data": data}
