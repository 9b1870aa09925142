"""Café Baras as pictures: each café a row of cards under its counter, regulars tucked beneath,
the display, the special guests, and (for the seat itself) the hand. Built from the seat's view data
and the public card list only; no Django import."""

from __future__ import annotations

from typing import Any

from games.engine.svg import (
    ASCENT,
    INK,
    READABLE,
    TONES,
    Face,
    back_svg,
    block_height,
    card_svg,
    matching,
    pic,
    prompt_options,
    svg_open,
    text_block,
    wrap,
)
from games.engine.words import counted

from .cards import (
    Card,
    CardSet,
    action_words,
    card_lines,
    compiled,
    customer_words,
    guest_words,
    ongoing_words,
    score_words,
)
from .state import cardset_of

TONE = {"food": "brown", "decor": "green", "equipment": "blue"}


def catalogue(state: dict[str, Any]) -> CardSet:
    """The game's card list (public: every player may read every card)."""
    return cardset_of(state)


def _short_score(card: Card) -> str:
    return counted(card.score["fixed"], "pt") if "fixed" in card.score else "★ pts"


def _kind(card: Card) -> str:
    if card.kind == "food":
        return f"{card.food} · food"
    if card.kind == "decor":
        return f"{card.decor} decor"
    return "Equipment"


def card_words(card: Card) -> list[str]:
    """The card in words, as the email shows it."""
    return card_lines(card)


def face(card: Card, where: str = "") -> Face:
    effects = [f"When added: {action_words(a)}." for a in card.action]
    effects += [ongoing_words(o)[:1].upper() + ongoing_words(o)[1:] + "." for o in card.ongoing]
    body = ([] if "fixed" in card.score else [f"Scores {score_words(card.score)}."]) + effects
    customer = "Customer " + customer_words(card) + "."
    scores = score_words(card.score) if "fixed" in card.score else f"points: {score_words(card.score)}"
    label = f"{card.name}{where}: {_kind(card)}, cost {card.cost}, scores {scores}. "
    label += " ".join(effects) + " " + customer
    return Face(
        name=card.name,
        label=" ".join(label.split()),
        tone=TONE.get(card.kind, "grey"),
        corner=str(card.cost),
        tag=_short_score(card),
        kind=_kind(card),
        body=" ".join(body),
        foot=customer,
    )


def strip_svg(name: str, kind: str, text: str, label: str, tone: str = "plum", width: int = 120) -> str:
    """A short tile: a tucked regular (the customer half showing) or a counter.

    Its text is READABLE in size (read on a phone): the name on the band, then what kind of tile it
    is and its text, every word; the tile is as tall as they need.
    """
    t = TONES[tone]
    name_lines = wrap(name, width - 12, READABLE, bold=True)
    band = block_height(name_lines, READABLE) + 8
    lines = wrap(f"{kind}: {text}", width - 12, READABLE)
    height = band + 4 + block_height(lines, READABLE) + 6
    return (
        svg_open("pic-strip", label, width, height)
        + f'<rect x="1" y="1" width="{width - 2}" height="{height - 2:.1f}" rx="6" fill="{t.body}" stroke="{t.edge}" '
        f'stroke-width="1.5"/>'
        f'<path d="M1 7a6 6 0 0 1 6-6h{width - 14}a6 6 0 0 1 6 6v{band - 6:.1f}h-{width - 2}z" fill="{t.band}"/>'
        f"{text_block(name_lines, 6, 5 + ASCENT * READABLE, READABLE, weight='bold', fill='#ffffff')}"
        f"{text_block(lines, 6, band + 5 + ASCENT * READABLE, READABLE, fill=INK)}</svg>"
    )


def guest_face(guest: dict[str, Any]) -> Face:
    """A special guest as a card: what it asks for and what it is worth."""
    words = guest_words(guest)
    return Face(
        name=guest["name"],
        label=f"Special guest {guest['name']}: {words}.",
        tone="gold",
        tag=counted(guest["points"], "pt"),
        kind="Special guest",
        body=words[:1].upper() + words[1:] + ".",
    )


def counter_svg(counter: dict[str, Any], owner: str = "") -> str:
    """A café's counter as a strip: what it provides. `owner` ("Your", "ben's") starts its name."""
    provides = ", ".join(counter["provides"])
    label = f"{owner} counter, {counter['name']}" if owner else f"Counter {counter['name']}"
    return strip_svg(
        counter["name"], "Counter", f"Provides {provides}.", f"{label}: provides {provides}.", tone="grey", width=180
    )


def draw(view: dict[str, Any], cs: CardSet, prompt: dict[str, Any] | None, seat: int | None = None) -> dict[str, Any]:
    data = view["data"]
    opts = prompt_options(prompt)
    you = data["you"]

    def card_pic(cid: str, where: str, css: str = "") -> dict[str, Any]:
        card = cs.cards[cid]
        return pic(
            card_svg(face(card, where)),
            key=cid,
            name=card.name,
            lines=card_words(card),
            options=matching(opts, cid),
            css=css,
            kind=card.kind,
        )

    hand = [card_pic(c, " (in your hand)") for c in data.get("hand", [])]
    display = [card_pic(c, " (on the display)") for c in data["display"]]
    guests = []
    for g in data["guests"]:
        guest = cs.guests[g]
        guests.append(
            pic(
                card_svg(guest_face(guest)),
                key=g,
                name=guest["name"],
                lines=[guest_words(guest)],
                options=matching(opts, g),
                css="guest",
            )
        )
    deck = back_svg(
        f"Deck: {counted(data['deck_count'], 'card')} face down",
        ["Deck", counted(data["deck_count"], "card")],
        count=data["deck_count"],
    )
    discard = back_svg(
        f"Discard pile: {counted(data['discard_count'], 'card')}",
        ["Discard pile", counted(data["discard_count"], "card")],
        tone="grey",
        count=data["discard_count"],
    )

    order = list(range(len(data["seats"])))
    if you is not None:
        order = [you] + [i for i in order if i != you]
    cafes = []
    for i in order:
        s = data["seats"][i]
        counter = cs.counters[s["counter"]]
        provides = ", ".join(counter["provides"])
        owner = "Your" if i == you else f"{s['name']}'s"
        regulars = []
        for r in s["regulars"]:
            card = cs.cards[r]
            words = customer_words(card)
            regulars.append(
                pic(
                    strip_svg(
                        card.name,
                        "Regular",
                        words[:1].upper() + words[1:] + ".",
                        f"Regular (tucked): {card.name}, {words}.",
                    ),
                    key=r,
                    name=card.name,
                    lines=[f"Regular: {words}"],
                    options=matching(opts, r),
                    css="regular",
                )
            )
        cafes.append(
            {
                "seat": i,
                "name": s["name"],
                "title": "Your café" if i == you else f"{s['name']}'s café",
                "you": i == you,
                "turn": data["turn"] == i,
                "coins": s["coins"],
                "hand_count": s["hand_count"],
                "counter": {"name": counter["name"], "provides": provides, "svg": counter_svg(counter, owner)},
                "cards": [card_pic(c, f" (in {owner.lower() if i == you else owner} café)") for c in s["cafe"]],
                "regulars": regulars,
                "guests": [cs.guests[g]["name"] for g in s["guests"]],
            }
        )
    return {
        "hand": hand,
        "display": display,
        "guests": guests,
        "deck": {"count": data["deck_count"], "svg": deck},
        "discard": {"count": data["discard_count"], "svg": discard},
        "cafes": cafes,
        "over": data["over"],
        "end": data.get("end"),
    }


def card_face(data: dict[str, Any], file: str, key: str) -> str:
    """One card of a built set as the seat page draws it, for the card set preview ("" for none)."""
    cs = compiled(data)
    if file == "cafe_cards.yaml" and key in cs.cards:
        return card_svg(face(cs.cards[key]))
    if file == "guests.yaml" and key in cs.guests:
        return card_svg(guest_face(cs.guests[key]))
    if file == "counters.yaml" and key in cs.counters:
        return counter_svg(cs.counters[key])
    return ""
