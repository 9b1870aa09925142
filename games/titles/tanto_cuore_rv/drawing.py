"""Tanto Cuore: Romantic Vacation as pictures: the seat's hand, the town stacks with counts, the
reminiscence row, and each house (waiting room and hand as face-down piles with counts, the kitchen
entrance's top card only, maids by their side, private quarters). Built from the seat's view data
and the public card list only; no Django import.

Every word drawn is a message (games/engine/messages.py) put into words by `say`, which the service
gives in the reader's language (English by default: `english`), since an SVG holds words, not messages.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from games.engine.messages import card_ref, english, msg, nmsg
from games.engine.svg import READABLE, Face, back_svg, card_svg, empty_svg, matching, pic, prompt_options

from .effects import requirement_text
from .state import card_text, comma_list, instance_ids
from .turn import symbol_words

Say = Callable[[Any], str]

TONE = {
    "maid_chief": "gold",
    "chambermaid_chief": "teal",
    "general_maid": "blue",
    "love": "wine",
    "reminiscence": "plum",
}
HAND = ("serve", "chamber")


def catalogue(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The card list (public facts: names, costs, symbols, texts), never where any copy is."""
    return state["cards"]


def symbols(card: dict[str, Any]) -> list[Any]:
    """'+1 call', '+2 love', …: a maid's symbols, one message each (none on a card without them)."""
    return symbol_words({"symbols": card.get("symbols") or (0, 0, 0, 0)})


def card_words(card: dict[str, Any]) -> list[Any]:
    """The card in words (messages), as the email shows it."""
    if card["type"] == "reminiscence":
        return [
            msg(
                "%(vp)s VP, category %(category)s; needs %(needs)s",
                vp=card["vp"],
                category=card["category"],
                needs=requirement_text(card["requires"]),
            ),
            card_text(card),
        ]
    if card.get("vp"):
        out = [msg("cost %(cost)s, %(vp)s VP", cost=card["cost"], vp=card["vp"])]
    else:
        out = [msg("cost %(n)s", n=card["cost"])]
    if symbols(card):
        out.append(comma_list(symbols(card)))
    out.append(card_text(card))
    return out


def _sentences(words: list[str]) -> str:
    return " ".join(w.rstrip(".") + "." for w in words)


def face(card: dict[str, Any], where: Any = None, count: int | None = None, say: Say = english) -> Face:
    """The card as drawn; `where` (a message) says where it lies, for its accessible name."""
    kind = card["type"]
    words = _sentences([say(w) for w in card_words(card)])
    name = say(card_ref(card["name"]))
    named = say(msg("%(card)s (%(where)s)", card=name, where=where)) if where is not None else name
    if kind == "reminiscence":
        needs = " + ".join(str(x) for x in card["requires"])
        return Face(
            name=name,
            label=say(msg("%(card)s: reminiscence, %(words)s", card=named, words=words)),
            tone=TONE[kind],
            tag=say(msg("%(vp)s VP", vp=card["vp"])),
            kind=say(msg("Category %(n)s", n=card["category"])),
            chips=[say(msg("needs %(costs)s", costs=needs))],
            body=say(card_text(card)),
            corner_title=say(msg("cost")),
            count=count,
        )
    chamber = (
        say(
            nmsg(
                "Chambermaid: %(n)s serving.",
                "Chambermaid: %(n)s servings.",
                "n",
                n=card["chamber"],
            )
        )
        if card.get("chamber")
        else ""
    )
    if count is not None:
        named = say(msg("%(card)s (%(n)s left)", card=named, n=count))
    title = say(card_ref(card["title"])) if card.get("title") else say(msg("Love"))
    label = say(msg("%(card)s: %(title)s, %(words)s", card=named, title=title, words=words))
    if chamber:
        label = f"{label} {chamber}"
    if card.get("vp"):
        tag = say(msg("%(vp)s VP", vp=card["vp"]))
    elif kind == "love":
        tag = say(msg("+%(n)s ♥", n=card["love"]))
    else:
        tag = ""
    return Face(
        name=name,
        label=label,
        tone=TONE.get(kind, "grey"),
        corner=say(card["cost"]),
        corner_title=say(msg("cost")),
        tag=tag,
        kind=title,
        chips=[say(c) for c in symbols(card)],
        body=say(card_text(card)),
        foot=chamber,
        count=count,
    )


def _grouped(cards: dict[str, Any], ids: list[str]) -> list[tuple[str, int]]:
    """Alike cards as one pile with a count, cheapest first (as the view lists them)."""
    counts = Counter(ids)
    return sorted(counts.items(), key=lambda kv: (cards[kv[0]].get("cost") or 0, cards[kv[0]]["name"]))


def draw(
    view: dict[str, Any],
    cards: dict[str, Any],
    prompt: dict[str, Any] | None,
    seat: int | None = None,
    say: Say = english,
) -> dict[str, Any]:
    """The table for the templates; `say` puts a message into the reader's words (the service's
    renderer in the reader's language; English by default)."""
    data = view["data"]
    opts = prompt_options(prompt)
    me = data.get("seat")
    if me is None:
        me = seat

    def one(
        cid: str,
        where: Any,
        verbs: tuple[str, ...],
        keys: tuple[str, ...] = (),
        count: int | None = None,
        css: str = "",
    ) -> dict:
        card = cards[cid]
        exact = [o for o in opts if keys and o["id"] in keys]
        options = exact or matching(opts, cid, verbs=verbs)
        return pic(
            card_svg(face(card, where, count, say), least=READABLE),
            say=say,
            key=cid,
            name=say(card_ref(card["name"])),
            lines=[say(w) for w in card_words(card)],
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
            hand = [one(c, msg("in your hand"), HAND, keys=(inst,)) for inst, c in instance_ids(h["hand"])]
        who = h["name"]  # a seat's name (or its reference, named by `say`)
        top = h["kitchen_top"]
        k, w, hs = h["kitchen_size"], h["waiting_room"], h["hand_size"]
        if top:
            where = (
                nmsg(
                    "top of your kitchen entrance, %(n)s card",
                    "top of your kitchen entrance, %(n)s cards",
                    "n",
                    n=k,
                )
                if mine
                else nmsg(
                    "top of %(seat)s's kitchen entrance, %(n)s card",
                    "top of %(seat)s's kitchen entrance, %(n)s cards",
                    "n",
                    seat=who,
                    n=k,
                )
            )
            kitchen = one(top, where, (), count=k)
        else:
            empty = (
                msg("Your kitchen entrance is empty") if mine else msg("%(seat)s's kitchen entrance is empty", seat=who)
            )
            kitchen = {"html": "", "svg": empty_svg(say(empty), least=READABLE), "name": ""}
        cards_n = {
            "waiting": nmsg("%(n)s card", "%(n)s cards", "n", n=w),
            "hand": nmsg("%(n)s card", "%(n)s cards", "n", n=hs),
        }
        if mine:
            waiting_label = nmsg(
                "Your waiting room: %(n)s card face down", "Your waiting room: %(n)s cards face down", "n", n=w
            )
            hand_label = nmsg("Your hand: %(n)s card", "Your hand: %(n)s cards", "n", n=hs)
            side, quarters = msg("by your side"), msg("in your private quarters")
        else:
            waiting_label = nmsg(
                "%(seat)s's waiting room: %(n)s card face down",
                "%(seat)s's waiting room: %(n)s cards face down",
                "n",
                seat=who,
                n=w,
            )
            hand_label = nmsg("%(seat)s's hand: %(n)s card", "%(seat)s's hand: %(n)s cards", "n", seat=who, n=hs)
            side = msg("by %(seat)s's side", seat=who)
            quarters = msg("in %(seat)s's private quarters", seat=who)
        houses.append(
            {
                "seat": h["seat"],
                "name": say(who),
                "title": say(msg("Your house") if mine else msg("%(seat)s's house", seat=who)),
                "you": mine,
                "turn": data["turn"] is not None and data["turn"]["seat"] == h["seat"],
                "waiting_room": h["waiting_room"],
                "hand_size": h["hand_size"],
                "kitchen_size": h["kitchen_size"],
                "waiting_svg": back_svg(
                    say(waiting_label),
                    [say(msg("Waiting room")), say(cards_n["waiting"])],
                    tone="teal",
                    count=h["waiting_room"],
                    least=READABLE,
                ),
                "hand_svg": back_svg(
                    say(hand_label),
                    [say(msg("Hand")), say(cards_n["hand"])],
                    tone="brown",
                    count=h["hand_size"],
                    least=READABLE,
                ),
                "kitchen": kitchen,
                "played": [one(c, side, (), count=k) for c, k in _grouped(cards, h["played"])],
                "quarters": [
                    one(c, quarters, ("start",) if mine else (), count=k)
                    for c, k in _grouped(cards, h["quarters"] + h["reminiscences"])
                ],
                "quarters_count": len(h["quarters"]) + len(h["reminiscences"]),
            }
        )
    if me is not None:
        houses.sort(key=lambda x: (not x["you"], x["seat"]))
    town = [one(c, msg("town stack"), ("employ",), count=n, css="stack") for c, n in data["town"].items()]
    remi = [one(c, msg("reminiscence row"), ("remi",)) for c in data["reminiscence_row"]]
    revealed = [one(c, msg("revealed"), ()) for c in data.get("revealed", [])]
    rd = data["reminiscence_deck"]
    deck = back_svg(
        say(
            nmsg(
                "Reminiscences: a deck of %(n)s card face down",
                "Reminiscences: a deck of %(n)s cards face down",
                "n",
                n=rd,
            )
        ),
        [say(msg("Reminiscences")), say(nmsg("%(n)s card", "%(n)s cards", "n", n=rd))],
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


def card_face(data: dict[str, Any], file: str, key: str, say: Say = english) -> str:
    """One card of a built set as the seat page draws it, for the card set preview ("" for none)."""
    card = data.get("cards", {}).get(key)
    return card_svg(face(card, say=say)) if card else ""
