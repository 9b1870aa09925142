"""What one seat may see: its own hand, everything public, never another hand or the deck order."""

from __future__ import annotations

from typing import Any

from games.engine.words import counted

from .cards import Card, CardSet, card_lines, customer_words, guest_words
from .scoring import outcome
from .state import State, cardset_of, refill_need


def card_dict(card: Card) -> dict[str, Any]:
    return {"id": card.id, "name": card.name, "kind": card.kind, "lines": card_lines(card)}


def read_log(state: State, seat: int | None) -> list[str]:
    """The log as `seat` reads it; once the game is over every private line is shown in full."""
    key = None if seat is None else str(seat)
    over = state["over"]
    out = []
    for e in state["log"]:
        if over and "reveal" in e:
            out.append(e["reveal"])
            continue
        private = e.get("private")
        out.append(private[key] if private and key in private else e["text"])
    return out


def _status(state: State, cs: CardSet, seat: int | None) -> str:
    players = state["players"]
    if state["over"]:
        result = outcome(state)
        top = result.scores[result.winners[0]]
        names = " and ".join(players[w] for w in result.winners)
        verb = "share the win" if len(result.winners) > 1 else "wins"
        return f"Game over ({state['end_reason']}): {names} {verb} with {counted(top, 'point')}."
    turn = state["turn"]
    who = "Your turn" if seat == turn else f"{players[turn]}'s turn"
    phase = state["phase"]
    if phase == "main":
        doing = "add a card or serve a customer"
    elif phase == "effect":
        doing = f"resolving {cs.cards[state['source']].name}"
    else:
        doing = f"refilling the hand from the display ({counted(refill_need(state, cs), 'card')})"
    text = f"{who}: {doing}."
    end = state["end"]
    if end:
        text += f" Last round: {end['reason']}; {counted(end['left'], 'turn')} left after this one."
    return text


def _cafe_panel(state: State, cs: CardSet, i: int, seat: int | None) -> dict[str, Any]:
    s = state["seats"][i]
    counter = cs.counters[s["counter"]]
    lines = [
        f"Coins: {s['coins']}",
        f"Counter: {counter['name']} (provides {', '.join(counter['provides'])})",
    ]
    if i != seat:
        lines.append(f"Cards in hand: {len(s['hand'])}")
    lines.append(
        "Regulars: "
        + (
            "; ".join(f"{cs.cards[r].name} ({customer_words(cs.cards[r])})" for r in s["regulars"])
            if s["regulars"]
            else "none"
        )
    )
    lines.append("Special guests: " + (", ".join(cs.guests[g]["name"] for g in s["guests"]) if s["guests"] else "none"))
    title = "Your café" if i == seat else f"{state['players'][i]}'s café"
    return {"title": title, "lines": lines, "cards": [card_dict(cs.cards[c]) for c in s["cafe"]]}


def view(state: State, seat: int | None) -> dict[str, Any]:
    cs = cardset_of(state)
    n = len(state["seats"])
    over = state["over"]
    panels: list[dict[str, Any]] = []
    if seat is not None and not over:
        panels.append({"title": "Your hand", "cards": [card_dict(cs.cards[c]) for c in state["seats"][seat]["hand"]]})
    panels.append(
        {
            "title": "Display",
            "cards": [card_dict(cs.cards[c]) for c in state["display"]],
            "lines": [
                f"Deck: {counted(len(state['deck']), 'card')}. Discard pile: {counted(len(state['discard']), 'card')}."
            ],
        }
    )
    panels.append(
        {
            "title": "Special guests",
            "lines": [f"{cs.guests[g]['name']}: {guest_words(cs.guests[g])}" for g in state["guests"]]
            or ["Every special guest has been claimed."],
        }
    )
    order = list(range(n)) if seat is None else [seat] + [i for i in range(n) if i != seat]
    panels += [_cafe_panel(state, cs, i, seat) for i in order]

    seats = []
    for i, s in enumerate(state["seats"]):
        seats.append(
            {
                "name": state["players"][i],
                "coins": s["coins"],
                "hand_count": len(s["hand"]),
                "counter": s["counter"],
                "cafe": list(s["cafe"]),
                "regulars": list(s["regulars"]),
                "guests": list(s["guests"]),
            }
        )
    data: dict[str, Any] = {
        "you": seat,
        "turn": None if over else state["turn"],
        "phase": state["phase"],
        "over": over,
        "deck_count": len(state["deck"]),
        "discard_count": len(state["discard"]),
        "display": list(state["display"]),
        "guests": list(state["guests"]),
        "seats": seats,
        "end": dict(state["end"]) if state["end"] else None,
        "cardset": state["cardset"]["hash"],
    }
    if seat is not None and not over:
        data["hand"] = list(state["seats"][seat]["hand"])
    if over:
        result = outcome(state)
        data["hands"] = {str(i): list(s["hand"]) for i, s in enumerate(state["seats"])}
        data["scores"] = {str(i): v for i, v in result.scores.items()}
        data["winners"] = result.winners
        for i, s in enumerate(state["seats"]):
            panels.append(
                {"title": f"{state['players'][i]}'s hand", "cards": [card_dict(cs.cards[c]) for c in s["hand"]]}
            )
        header = ["Player", *[label for label, _ in result.breakdown[0]], "Total"]
        rows = [
            [state["players"][i], *[str(p) for _, p in result.breakdown[i]], str(result.scores[i])] for i in range(n)
        ]
        panels.append({"title": "Scores", "table": {"header": header, "rows": rows}})
    return {"status": _status(state, cs, seat), "panels": panels, "log": read_log(state, seat), "data": data}
