"""Café Baras as pictures: each café a row of cards under its counter, regulars tucked beneath,
the display, the special guests, and (for the seat itself) the hand. Built from the seat's view data
and the public card list only; no Django import."""

from __future__ import annotations

from typing import Any

from games.engine.svg import (
    FONT,
    INK,
    READABLE,
    TONES,
    Face,
    at_least,
    back_svg,
    card_svg,
    esc,
    fit,
    matching,
    pic,
    prompt_options,
    text_block,
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
    label = f"{card.name}{where}: {_kind(card)}, cost {card.cost}, scores {score_words(card.score)}. "
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
    is and its text, up to three lines; the tile is as tall as they need.
    """
    t = TONES[tone]
    size, lines = fit(f"{kind}: {text}", width - 12, READABLE * 1.18 * 3, sizes=at_least((8, 7.5), READABLE))
    lines = lines[:3]
    band = READABLE + 8
    height = band + 6 + len(lines) * size * 1.18
    _, name_lines = fit(name, width - 12, band, sizes=(READABLE,))
    return (
        f'<svg class="pic-strip" viewBox="0 0 {width} {height:g}" role="img" aria-label="{esc(label)}" '
        f'xmlns="http://www.w3.org/2000/svg" font-family="{esc(FONT)}" font-style="normal">'
        f"<title>{esc(label)}</title>"
        f'<rect x="1" y="1" width="{width - 2}" height="{height - 2:g}" rx="6" fill="{t.body}" stroke="{t.edge}" '
        f'stroke-width="1.5"/>'
        f'<path d="M1 7a6 6 0 0 1 6-6h{width - 14}a6 6 0 0 1 6 6v{band - 7:g}h-{width - 2}z" fill="{t.band}"/>'
        f"{text_block(name_lines[:1], 6, band - 5, READABLE, weight='bold', fill='#ffffff')}"
        f"{text_block(lines, 6, band + size + 1, size, fill=INK)}</svg>"
    )


def draw(view: dict[str, Any], cs: CardSet, prompt: dict[str, Any] | None, seat: int | None = None) -> dict[str, Any]:
    data = view["data"]
    opts = prompt_options(prompt)
    you = data["you"]

    def card_pic(cid: str, where: str, css: str = "") -> dict[str, Any]:
        card = cs.cards[cid]
        return pic(
            card_svg(face(card, where), least=READABLE),
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
        words = guest_words(guest)
        f = Face(
            name=guest["name"],
            label=f"Special guest {guest['name']}: {words}.",
            tone="gold",
            tag=counted(guest["points"], "pt"),
            kind="Special guest",
            body=words[:1].upper() + words[1:] + ".",
        )
        guests.append(
            pic(
                card_svg(f, least=READABLE),
                key=g,
                name=guest["name"],
                lines=[words],
                options=matching(opts, g),
                css="guest",
            )
        )
    deck = back_svg(
        f"Deck: {counted(data['deck_count'], 'card')} face down",
        ["Deck", counted(data["deck_count"], "card")],
        count=data["deck_count"],
        least=READABLE,
    )
    discard = back_svg(
        f"Discard pile: {counted(data['discard_count'], 'card')}",
        ["Discards", counted(data["discard_count"], "card")],
        tone="grey",
        count=data["discard_count"],
        least=READABLE,
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
        counter_svg = strip_svg(
            counter["name"],
            "Counter",
            f"Provides {provides}.",
            f"{owner} counter, {counter['name']}: provides {provides}.",
            tone="grey",
            width=180,
        )
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
                "counter": {"name": counter["name"], "provides": provides, "svg": counter_svg},
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
        g = cs.guests[key]
        words = guest_words(g)
        return strip_svg(g["name"], "Guest", words, f"Special guest {g['name']}: {words}.", width=220)
    if file == "counters.yaml" and key in cs.counters:
        c = cs.counters[key]
        words = "provides " + ", ".join(c["provides"])
        return strip_svg(c["name"], "Counter", words, f"Counter {c['name']}: {words}.", tone="blue")
    return ""
