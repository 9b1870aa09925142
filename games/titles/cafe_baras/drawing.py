"""Café Baras as pictures: each café a row of cards under its counter, regulars tucked beneath,
the display, the special guests, and (for the seat itself) the hand. Built from the seat's view data
and the public card list only; no Django import."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.engine.messages import Msg, card_ref, english, list_ref, msg, nmsg
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

from .cards import (
    Card,
    CardSet,
    action_msg,
    card_lines,
    compiled,
    customer_words,
    guest_words,
    ongoing_msg,
    score_msg,
)
from .state import cardset_of

TONE = {"food": "brown", "decor": "green", "equipment": "blue"}

# Every word drawn is a message (games/engine/messages.py) made words by `say`, the one callable a
# drawing is given: the service's renderer in the reader's language, English by default (tests, the
# email before a reader is known). SVG text is measured to wrap, so it is words, not messages.
Say = Callable[[Any], str]


def _english(value: Any) -> str:
    return english(value)


def catalogue(state: dict[str, Any]) -> CardSet:
    """The game's card list (public: every player may read every card)."""
    return cardset_of(state)


def _points(n: int) -> Msg:
    return nmsg("%(n)s pt", "%(n)s pts", "n", n=n)


def _short_score(card: Card) -> Msg:
    return _points(card.score["fixed"]) if "fixed" in card.score else msg("★ pts")


def _kind(card: Card) -> Msg:
    if card.kind == "food":
        return msg("%(food)s · food", food=card_ref(card.food))
    if card.kind == "decor":
        return msg("%(decor)s decor", decor=card_ref(card.decor))
    return msg("Equipment")


def card_words(card: Card, say: Say = _english) -> list[str]:
    """The card in words, as the email shows it."""
    return [say(line) for line in card_lines(card)]


def face(card: Card, where: Msg | None = None, say: Say = _english) -> Face:
    """`where`: the card's place, a message with the card in it ("%(card)s (in your hand)")."""
    effects = [msg("When added: %(action)s.", action=action_msg(a)) for a in card.action]
    effects += [msg("Ongoing: %(effect)s.", effect=ongoing_msg(o)) for o in card.ongoing]
    body = ([] if "fixed" in card.score else [msg("Scores %(score)s.", score=score_msg(card.score))]) + effects
    customer = msg("Customer %(customer)s.", customer=customer_words(card))
    name = card_ref(card.name)
    if "fixed" in card.score:
        summary = msg(
            "%(card)s: %(kind)s, cost %(cost)s, scores %(score)s.",
            card=where or name,
            kind=_kind(card),
            cost=card.cost,
            score=score_msg(card.score),
        )
    else:
        summary = msg(
            "%(card)s: %(kind)s, cost %(cost)s, scores points: %(score)s.",
            card=where or name,
            kind=_kind(card),
            cost=card.cost,
            score=score_msg(card.score),
        )
    label = " ".join([say(summary), *(say(e) for e in effects), say(customer)])
    return Face(
        name=say(name),
        label=" ".join(label.split()),
        tone=TONE.get(card.kind, "grey"),
        corner=str(card.cost),
        tag=say(_short_score(card)),
        kind=say(_kind(card)),
        body=" ".join(say(b) for b in body),
        foot=say(customer),
    )


def strip_svg(name: str, kind: str, text: str, label: str, tone: str = "plum", width: int = 120) -> str:
    """A short tile: a tucked regular (the customer half showing) or a counter, in words already said.

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


def guest_face(guest: dict[str, Any], say: Say = _english) -> Face:
    """A special guest as a card: what it asks for and what it is worth."""
    name = card_ref(guest["name"])
    return Face(
        name=say(name),
        label=say(msg("Special guest %(guest)s: %(needs)s.", guest=name, needs=guest_words(guest))),
        tone="gold",
        tag=say(_points(guest["points"])),
        kind=say(msg("Special guest")),
        body=say(msg("%(needs)s.", needs=guest_words(guest, start=True))),
    )


def counter_svg(counter: dict[str, Any], owner: Any = None, say: Say = _english) -> str:
    """A café's counter as a strip: what it provides. `owner`: whose (a seat, or a name), or None."""
    provides = list_ref([card_ref(f) for f in counter["provides"]])
    name = card_ref(counter["name"])
    if owner is None:
        label = msg("Counter %(counter)s: provides %(foods)s.", counter=name, foods=provides)
    elif owner == "you":
        label = msg("Your counter, %(counter)s: provides %(foods)s.", counter=name, foods=provides)
    else:
        label = msg("%(seat)s's counter, %(counter)s: provides %(foods)s.", seat=owner, counter=name, foods=provides)
    return strip_svg(
        say(name),
        say(msg("Counter")),
        say(msg("Provides %(foods)s.", foods=provides)),
        say(label),
        tone="grey",
        width=180,
    )


def draw(
    view: dict[str, Any], cs: CardSet, prompt: dict[str, Any] | None, seat: int | None = None, say: Say = _english
) -> dict[str, Any]:
    """The table as pictures; every word in it is `say`'s (see Say above)."""
    data = view["data"]
    opts = [{**o, "label": say(o["label"])} for o in prompt_options(prompt)]
    you = data["you"]

    def card_pic(cid: str, where: Msg, css: str = "") -> dict[str, Any]:
        card = cs.cards[cid]
        return pic(
            card_svg(face(card, where, say)),
            say=say,
            key=cid,
            name=say(card_ref(card.name)),
            lines=card_words(card, say),
            options=matching(opts, cid),
            css=css,
            kind=card.kind,
        )

    def named(cid: str) -> Msg:
        return card_ref(cs.cards[cid].name)

    hand = [card_pic(c, msg("%(card)s (in your hand)", card=named(c))) for c in data.get("hand", [])]
    display = [card_pic(c, msg("%(card)s (on the display)", card=named(c))) for c in data["display"]]
    guests = []
    for g in data["guests"]:
        guest = cs.guests[g]
        guests.append(
            pic(
                card_svg(guest_face(guest, say)),
                say=say,
                key=g,
                name=say(card_ref(guest["name"])),
                lines=[say(guest_words(guest))],
                options=matching(opts, g),
                css="guest",
            )
        )
    deck_cards = say(nmsg("%(n)s card", "%(n)s cards", "n", n=data["deck_count"]))
    discard_cards = say(nmsg("%(n)s card", "%(n)s cards", "n", n=data["discard_count"]))
    deck = back_svg(
        say(nmsg("Deck: %(n)s card face down", "Deck: %(n)s cards face down", "n", n=data["deck_count"])),
        [say(msg("Deck")), deck_cards],
        count=data["deck_count"],
    )
    discard = back_svg(
        say(nmsg("Discard pile: %(n)s card", "Discard pile: %(n)s cards", "n", n=data["discard_count"])),
        [say(msg("Discard pile")), discard_cards],
        tone="grey",
        count=data["discard_count"],
    )

    order = list(range(len(data["seats"])))
    if you is not None:
        order = [you] + [i for i in order if i != you]
    cafes = []
    for i in order:
        s = data["seats"][i]
        who = s["name"]  # a seat (a message) in the view, or the name already said by the service
        counter = cs.counters[s["counter"]]
        provides = say(list_ref([card_ref(f) for f in counter["provides"]]))
        regulars = []
        for r in s["regulars"]:
            card = cs.cards[r]
            words = customer_words(card)
            regulars.append(
                pic(
                    strip_svg(
                        say(card_ref(card.name)),
                        say(msg("Regular")),
                        say(msg("%(customer)s.", customer=customer_words(card, start=True))),
                        say(msg("Regular (tucked): %(card)s, %(customer)s.", card=card_ref(card.name), customer=words)),
                    ),
                    say=say,
                    key=r,
                    name=say(card_ref(card.name)),
                    lines=[say(msg("Regular: %(customer)s", customer=words))],
                    options=matching(opts, r),
                    css="regular",
                )
            )
        title = msg("Your café") if i == you else msg("%(seat)s's café", seat=who)
        cards = []
        for c in s["cafe"]:
            where = (
                msg("%(card)s (in your café)", card=named(c))
                if i == you
                else msg("%(card)s (in %(seat)s's café)", card=named(c), seat=who)
            )
            cards.append(card_pic(c, where))
        cafes.append(
            {
                "seat": i,
                "name": say(who),
                "title": say(title),
                "you": i == you,
                "turn": data["turn"] == i,
                "coins": s["coins"],
                "hand_count": s["hand_count"],
                "counter": {
                    "name": say(card_ref(counter["name"])),
                    "provides": provides,
                    "svg": counter_svg(counter, "you" if i == you else who, say),
                },
                "cards": cards,
                "regulars": regulars,
                "guests": [say(card_ref(cs.guests[g]["name"])) for g in s["guests"]],
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


def card_face(data: dict[str, Any], file: str, key: str, say: Say = _english) -> str:
    """One card of a built set as the seat page draws it, for the card set preview ("" for none)."""
    cs = compiled(data)
    if file == "cafe_cards.yaml" and key in cs.cards:
        return card_svg(face(cs.cards[key], say=say))
    if file == "guests.yaml" and key in cs.guests:
        return card_svg(guest_face(cs.guests[key], say))
    if file == "counters.yaml" and key in cs.counters:
        return counter_svg(cs.counters[key], say=say)
    return ""
