"""The draft: the master reveals three plan cards; seats pick one each, left of the master first.

A card showing a cup costs one warehouse cube (the seat chooses the colour) unless the area already
shows two ships. Option ids name the card (and the colour paid), never a position, so a seat can
leave conditional picks: "card17:pay-red; if gone, card30; else card4".
"""

from __future__ import annotations

from typing import Any, NamedTuple

from games.engine.messages import list_ref, msg

from .cards import COLOURS, by_colour, card_shops
from .words import amount, card_title, colour

PASS = "pass"
SHIPS_FOR_FREE = 2


class Pick(NamedTuple):
    """One way to take a card now (or pass)."""

    id: str
    label: Any  # a message
    card: str | None
    pay: str | None


def ships(area: dict[str, str]) -> int:
    return sum(1 for code in area.values() if code == "ship")


SQUARE_TEXT = {
    "dry": msg("dry"),
    "roast": msg("roast"),
    "roast*": msg("roast★"),
    "cup": msg("cup"),
    "ship": msg("ship"),
    "blank": msg("blank"),
}


def square_word(code: str) -> Any:
    """A square of a card's summary: "red" for a red bean square, "roast★", "cup"..."""
    if code.startswith("bean:"):
        return colour(code[5:])
    return SQUARE_TEXT.get(code) or msg("%(square)s", square=code)


def card_text(card: dict[str, Any]) -> dict[str, Any]:
    """A one-line summary of a card's squares, for labels and the log (a list of messages)."""
    parts: list[Any] = []
    for code in card["squares"]:
        if code.startswith("shop:"):
            continue
        parts.append(square_word(code))
    for _, shop in card_shops(card):
        need = list_ref([amount(n, c) for c, n in by_colour(shop["need"]).items()])
        parts.append(msg("shop %(need)s = %(vp)s VP", need=need, vp=shop["vp"]))
    return list_ref(parts)


def picks(seat: dict[str, Any], display: list[str], cards: dict[str, Any]) -> list[Pick]:
    """What the seat may take now; only "pass" when every card shown needs a cube it cannot pay."""
    out = []
    free = ships(seat["area"]) >= SHIPS_FOR_FREE
    for cid in display:
        card = cards[cid]
        name = card_title(cid)
        if card["cups"] == 0:
            out.append(Pick(cid, msg("%(card)s (free: no cup)", card=name), cid, None))
            continue
        if free:
            out.append(Pick(cid, msg("%(card)s (free: you show 2 ships)", card=name), cid, None))
            continue
        for c in COLOURS:
            if seat["warehouse"][c] > 0:
                label = msg("%(card)s, pay 1 %(colour)s cube", card=name, colour=colour(c))
                out.append(Pick(f"{cid}:pay-{c}", label, cid, c))
    if not out:
        out.append(Pick(PASS, msg("Take no card this round (you cannot pay for a card with a cup)"), None, None))
    return out


def order(master: int, n: int) -> list[int]:
    """Picking order: left of the master first, the master last."""
    return [(master + 1 + i) % n for i in range(n)]
