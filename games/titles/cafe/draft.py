"""The draft: the master reveals three plan cards; seats pick one each, left of the master first.

A card showing a cup costs one warehouse cube (the seat chooses the colour) unless the area already
shows two ships. Option ids name the card (and the colour paid), never a position, so a seat can
leave conditional picks: "card17:pay-red; if gone, card30; else card4".
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .cards import COLOURS, by_colour, card_shops

PASS = "pass"
SHIPS_FOR_FREE = 2


class Pick(NamedTuple):
    """One way to take a card now (or pass)."""

    id: str
    label: str
    card: str | None
    pay: str | None


def ships(area: dict[str, str]) -> int:
    return sum(1 for code in area.values() if code == "ship")


def card_text(card: dict[str, Any]) -> str:
    """A one-line summary of a card's squares, for labels and the log."""
    parts = []
    for code in card["squares"]:
        if code.startswith("shop:"):
            continue
        parts.append(code.replace("bean:", "").replace("roast*", "roast★"))
    for _, shop in card_shops(card):
        need = "+".join(f"{n} {c}" for c, n in by_colour(shop["need"]).items())
        parts.append(f"shop {need} = {shop['vp']} VP")
    return ", ".join(parts)


def picks(seat: dict[str, Any], display: list[str], cards: dict[str, Any]) -> list[Pick]:
    """What the seat may take now; only "pass" when every card shown needs a cube it cannot pay."""
    out = []
    free = ships(seat["area"]) >= SHIPS_FOR_FREE
    for cid in display:
        card = cards[cid]
        name = cid.replace("card", "Card ")
        if card["cups"] == 0 or free:
            why = "free: no cup" if card["cups"] == 0 else "free: you show 2 ships"
            out.append(Pick(cid, f"{name} ({why})", cid, None))
            continue
        for colour in COLOURS:
            if seat["warehouse"][colour] > 0:
                out.append(Pick(f"{cid}:pay-{colour}", f"{name}, pay 1 {colour} cube", cid, colour))
    if not out:
        out.append(Pick(PASS, "Take no card this round (you cannot pay for a card with a cup)", None, None))
    return out


def order(master: int, n: int) -> list[int]:
    """Picking order: left of the master first, the master last."""
    return [(master + 1 + i) % n for i in range(n)]
