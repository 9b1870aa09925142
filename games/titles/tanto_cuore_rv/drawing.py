"""Tanto Cuore: Romantic Vacation as pictures: the seat's hand, the town stacks with counts, the
reminiscence row, and each house (waiting room and hand as face-down piles with counts, the kitchen
entrance's top card only, maids by their side, private quarters). Built from the seat's view data
and the public card list only; no Django import."""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine.svg import READABLE, Face, back_svg, card_svg, empty_svg, matching, pic, prompt_options
from games.engine.words import counted

from .state import instance_ids

TONE = {
    "maid_chief": "gold",
    "chambermaid_chief": "teal",
    "general_maid": "blue",
    "love": "wine",
    "reminiscence": "plum",
}
HAND = ("serve", "chamber")
SYMBOL_WORDS = (("call", "calls"), ("love", "love"), ("serving", "servings"), ("employment", "employments"))


def catalogue(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The card list (public facts: names, costs, symbols, texts), never where any copy is."""
    return state["cards"]


def symbols(card: dict[str, Any]) -> list[str]:
    return [
        f"+{n} {one if n == 1 else many}"
        for n, (one, many) in zip(card.get("symbols") or (), SYMBOL_WORDS, strict=False)
        if n
    ]


def card_words(card: dict[str, Any]) -> list[str]:
    """The card in words, as the email shows it."""
    if card["type"] == "reminiscence":
        needs = " + ".join(f"cost {x}" for x in card["requires"])
        return [f"{card['vp']} VP, category {card['category']}; needs {needs}", card["text"]]
    out = [f"cost {card['cost']}" + (f", {card['vp']} VP" if card.get("vp") else "")]
    if symbols(card):
        out.append(", ".join(symbols(card)))
    out.append(card["text"])
    return out


def face(card: dict[str, Any], where: str = "", count: int | None = None) -> Face:
    kind = card["type"]
    words = " ".join(w.rstrip(".") + "." for w in card_words(card))
    left = "" if count is None else f" ({count} left)"
    if kind == "reminiscence":
        needs = " + ".join(str(x) for x in card["requires"])
        return Face(
            name=card["name"],
            label=f"{card['name']}{where}: reminiscence, {words}",
            tone=TONE[kind],
            tag=f"{card['vp']} VP",
            kind=f"Category {card['category']}",
            chips=[f"needs {needs}"],
            body=card["text"],
            count=count,
        )
    chamber = f"Chambermaid: {counted(card['chamber'], 'serving')}." if card.get("chamber") else ""
    return Face(
        name=card["name"],
        label=f"{card['name']}{where}{left}: {card.get('title') or 'Love'}, {words} {chamber}".strip(),
        tone=TONE.get(kind, "grey"),
        corner=str(card["cost"]),
        tag=f"{card['vp']} VP" if card.get("vp") else (f"+{card['love']} ♥" if kind == "love" else ""),
        kind=card.get("title") or "Love",
        chips=symbols(card),
        body=card["text"],
        foot=chamber,
        count=count,
    )


def _grouped(cards: dict[str, Any], ids: list[str]) -> list[tuple[str, int]]:
    """Alike cards as one pile with a count, cheapest first (as the view lists them)."""
    counts = Counter(ids)
    return sorted(counts.items(), key=lambda kv: (cards[kv[0]].get("cost") or 0, cards[kv[0]]["name"]))


def draw(
    view: dict[str, Any], cards: dict[str, Any], prompt: dict[str, Any] | None, seat: int | None = None
) -> dict[str, Any]:
    data = view["data"]
    opts = prompt_options(prompt)
    me = data.get("seat")
    if me is None:
        me = seat

    def one(
        cid: str,
        where: str,
        verbs: tuple[str, ...],
        keys: tuple[str, ...] = (),
        count: int | None = None,
        css: str = "",
    ) -> dict:
        card = cards[cid]
        exact = [o for o in opts if keys and o["id"] in keys]
        options = exact or matching(opts, cid, verbs=verbs)
        return pic(
            card_svg(face(card, where, count), least=READABLE),
            key=cid,
            name=card["name"],
            lines=card_words(card),
            options=options,
            css=css,
            kind=card["type"],
            count=count,
        )

    houses = []
    hand: list[dict[str, Any]] = []
    for h in data["houses"]:
        mine = h["seat"] == me
        if mine and "hand" in h and data["turn"] is not None:
            hand = [one(c, " (in your hand)", HAND, keys=(inst,)) for inst, c in instance_ids(h["hand"])]
        owner = "your" if mine else f"{h['name']}'s"
        top = h["kitchen_top"]
        kitchen = (
            one(
                top,
                f" (top of {owner} kitchen entrance, {counted(h['kitchen_size'], 'card')})",
                (),
                count=h["kitchen_size"],
            )
            if top
            else {
                "html": "",
                "svg": empty_svg(f"{owner.capitalize()} kitchen entrance is empty", least=READABLE),
                "name": "",
            }
        )
        houses.append(
            {
                "seat": h["seat"],
                "name": h["name"],
                "title": "Your house" if mine else f"{h['name']}'s house",
                "you": mine,
                "turn": data["turn"] is not None and data["turn"]["seat"] == h["seat"],
                "waiting_room": h["waiting_room"],
                "hand_size": h["hand_size"],
                "kitchen_size": h["kitchen_size"],
                "waiting_svg": back_svg(
                    f"{owner.capitalize()} waiting room: {counted(h['waiting_room'], 'card')} face down",
                    ["Waiting room", counted(h["waiting_room"], "card")],
                    tone="teal",
                    count=h["waiting_room"],
                    least=READABLE,
                ),
                "hand_svg": back_svg(
                    f"{owner.capitalize()} hand: {counted(h['hand_size'], 'card')}",
                    ["Hand", counted(h["hand_size"], "card")],
                    tone="brown",
                    count=h["hand_size"],
                    least=READABLE,
                ),
                "kitchen": kitchen,
                "played": [one(c, f" (by {owner} side)", (), count=k) for c, k in _grouped(cards, h["played"])],
                "quarters": [
                    one(c, f" (in {owner} private quarters)", ("start",) if mine else (), count=k)
                    for c, k in _grouped(cards, h["quarters"] + h["reminiscences"])
                ],
                "quarters_count": len(h["quarters"]) + len(h["reminiscences"]),
            }
        )
    if me is not None:
        houses.sort(key=lambda x: (not x["you"], x["seat"]))
    town = [one(c, " (town stack)", ("employ",), count=n, css="stack") for c, n in data["town"].items()]
    remi = [one(c, " (reminiscence row)", ("remi",)) for c in data["reminiscence_row"]]
    revealed = [one(c, " (revealed)", ()) for c in data.get("revealed", [])]
    deck = back_svg(
        f"Reminiscences: a deck of {counted(data['reminiscence_deck'], 'card')} face down",
        ["Reminiscences", counted(data["reminiscence_deck"], "card")],
        tone="plum",
        count=data["reminiscence_deck"],
        least=READABLE,
    )
    turn = data["turn"]
    return {
        "hand": hand,
        "town": town,
        "town_cards": sum(data["town"].values()),
        "empty_stacks": sum(1 for n in data["town"].values() if n == 0),
        "end_stacks": data["end_stacks"],
        "remi": remi,
        "remi_deck": {"count": data["reminiscence_deck"], "svg": deck},
        "revealed": revealed,
        "houses": houses,
        "turn": turn,
    }


def card_face(data: dict[str, Any], file: str, key: str) -> str:
    """One card of a built set as the seat page draws it, for the card set preview ("" for none)."""
    card = data.get("cards", {}).get(key)
    return card_svg(face(card)) if card else ""
