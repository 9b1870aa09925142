"""What one seat may see: its own hand, everything public, never another hand or the deck order."""

from __future__ import annotations

from typing import Any

from games.engine.messages import card_ref, list_ref, msg, nmsg, seat_ref

from .cards import Card, CardSet, card_lines, customer_words, guest_words
from .scoring import outcome
from .state import State, cardset_of, refill_need


def card_dict(card: Card) -> dict[str, Any]:
    return {"id": card.id, "name": card_ref(card.name), "kind": card.kind, "lines": card_lines(card)}


def read_log(state: State, seat: int | None) -> list[Any]:
    """The log as `seat` reads it; once the game is over every private line is shown in full.

    Lines are messages (games/engine/messages.py); a game stored before they were holds plain
    English strings, which read as they are."""
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


def _cards(n: int) -> dict[str, Any]:
    return nmsg("%(n)s card", "%(n)s cards", "n", n=n)


def _status(state: State, cs: CardSet, seat: int | None) -> dict[str, Any]:
    if state["over"]:
        result = outcome(state)
        top = result.scores[result.winners[0]]
        winners = list_ref([seat_ref(w) for w in result.winners])
        reason = state["end_reason"]
        if len(result.winners) > 1:
            return nmsg(
                "Game over (%(reason)s): %(winners)s share the win with %(n)s point.",
                "Game over (%(reason)s): %(winners)s share the win with %(n)s points.",
                "n",
                reason=reason,
                winners=winners,
                n=top,
            )
        return nmsg(
            "Game over (%(reason)s): %(winners)s wins with %(n)s point.",
            "Game over (%(reason)s): %(winners)s wins with %(n)s points.",
            "n",
            reason=reason,
            winners=winners,
            n=top,
        )
    turn = state["turn"]
    mine = seat == turn
    who = seat_ref(turn)
    phase = state["phase"]
    if phase == "main":
        if mine:
            text = msg("Your turn: add a card or serve a customer.")
        else:
            text = msg("%(seat)s's turn: add a card or serve a customer.", seat=who)
    elif phase == "effect":
        source = card_ref(cs.cards[state["source"]].name)
        if mine:
            text = msg("Your turn: resolving %(card)s.", card=source)
        else:
            text = msg("%(seat)s's turn: resolving %(card)s.", seat=who, card=source)
    else:
        need = refill_need(state, cs)
        if mine:
            text = nmsg(
                "Your turn: refilling the hand from the display (%(n)s card).",
                "Your turn: refilling the hand from the display (%(n)s cards).",
                "n",
                n=need,
            )
        else:
            text = nmsg(
                "%(seat)s's turn: refilling the hand from the display (%(n)s card).",
                "%(seat)s's turn: refilling the hand from the display (%(n)s cards).",
                "n",
                seat=who,
                n=need,
            )
    end = state["end"]
    if end:
        text = nmsg(
            "%(status)s Last round: %(reason)s; %(n)s turn left after this one.",
            "%(status)s Last round: %(reason)s; %(n)s turns left after this one.",
            "n",
            status=text,
            reason=end["reason"],
            n=end["left"],
        )
    return text


def _cafe_panel(state: State, cs: CardSet, i: int, seat: int | None) -> dict[str, Any]:
    s = state["seats"][i]
    counter = cs.counters[s["counter"]]
    lines: list[Any] = [
        msg("Coins: %(n)s", n=s["coins"]),
        msg(
            "Counter: %(counter)s (provides %(foods)s)",
            counter=card_ref(counter["name"]),
            foods=list_ref([card_ref(f) for f in counter["provides"]]),
        ),
    ]
    if i != seat:
        lines.append(msg("Cards in hand: %(n)s", n=len(s["hand"])))
    if s["regulars"]:
        regulars = [
            msg("%(card)s (%(customer)s)", card=card_ref(cs.cards[r].name), customer=customer_words(cs.cards[r]))
            for r in s["regulars"]
        ]
        lines.append(msg("Regulars: %(regulars)s", regulars=list_ref(regulars)))
    else:
        lines.append(msg("Regulars: none"))
    if s["guests"]:
        guests = list_ref([card_ref(cs.guests[g]["name"]) for g in s["guests"]])
        lines.append(msg("Special guests: %(guests)s", guests=guests))
    else:
        lines.append(msg("Special guests: none"))
    title = msg("Your café") if i == seat else msg("%(seat)s's café", seat=seat_ref(i))
    return {"title": title, "lines": lines, "cards": [card_dict(cs.cards[c]) for c in s["cafe"]]}


def view(state: State, seat: int | None) -> dict[str, Any]:
    cs = cardset_of(state)
    n = len(state["seats"])
    over = state["over"]
    panels: list[dict[str, Any]] = []
    if seat is not None and not over:
        panels.append(
            {"title": msg("Your hand"), "cards": [card_dict(cs.cards[c]) for c in state["seats"][seat]["hand"]]}
        )
    panels.append(
        {
            "title": msg("Display"),
            "cards": [card_dict(cs.cards[c]) for c in state["display"]],
            "lines": [
                msg(
                    "Deck: %(deck)s. Discard pile: %(discard)s.",
                    deck=_cards(len(state["deck"])),
                    discard=_cards(len(state["discard"])),
                )
            ],
        }
    )
    panels.append(
        {
            "title": msg("Special guests"),
            "lines": [
                msg("%(guest)s: %(needs)s", guest=card_ref(cs.guests[g]["name"]), needs=guest_words(cs.guests[g]))
                for g in state["guests"]
            ]
            or [msg("Every special guest has been claimed.")],
        }
    )
    order = list(range(n)) if seat is None else [seat] + [i for i in range(n) if i != seat]
    panels += [_cafe_panel(state, cs, i, seat) for i in order]

    seats = []
    for i, s in enumerate(state["seats"]):
        seats.append(
            {
                "name": seat_ref(i),
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
                {
                    "title": msg("%(seat)s's hand", seat=seat_ref(i)),
                    "cards": [card_dict(cs.cards[c]) for c in s["hand"]],
                }
            )
        header = [msg("Player"), *[label for label, _ in result.breakdown[0]], msg("Total")]
        rows = [[seat_ref(i), *[p for _, p in result.breakdown[i]], result.scores[i]] for i in range(n)]
        panels.append({"title": msg("Scores"), "table": {"header": header, "rows": rows}})
    return {"status": _status(state, cs, seat), "panels": panels, "log": read_log(state, seat), "data": data}
