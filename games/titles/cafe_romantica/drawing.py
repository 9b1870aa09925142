"""Café Romantica as pictures: the dice rolled this turn, the field in two rows of four, the turn
order, and each club (manager, flyer, hosts with their bonds stacked, focus cards, agendas, face
down where the view hides them). Built from the seat's view data and the public card list only;
no Django import.

Every word drawn is a message (games/engine/messages.py) rendered by `say`, which draw() is given
(the service's renderer in the reader's language; English without one)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.engine.messages import Msg, card_ref, english, list_ref, msg
from games.engine.svg import Face, back_svg, card_svg, die_svg, empty_svg, esc, matching, pic, prompt_options

from .actions import host_detail
from .cards import base_id


def catalogue(state: dict[str, Any]) -> dict[str, Any]:
    """The card list (public facts: hosts, focus cards, managers, the flyer). Agendas are left out:
    what a seat may know of an agenda is in its view data, face down or not."""
    cards = state["cards"]
    return {"hosts": cards["hosts"], "focus": cards["focus"], "managers": cards["managers"], "flyer": cards["flyer"]}


Say = Callable[[Any], str]


def _faces(faces: list[int]) -> Msg:
    if len(faces) == 6:
        return msg("Shines on every roll")
    return msg("Shines on %(faces)s", faces=list_ref(faces))


def host_face(
    h: dict[str, Any], where: Any = None, bond: int | None = None, fave: bool = False, say: Say = english
) -> Face:
    """A host (or the flyer). `where`: a message saying where he is ("on the field", "in Ana's club")."""
    name, detail = card_ref(h["name"]), host_detail(h)
    bonded = bond if bond and bond > 1 else None
    parts: dict[str, Any] = {"card": name, "detail": detail}
    if "cost" in h:
        parts["cost"] = h["cost"]
    if where is not None:
        parts["where"] = where
    if bonded:
        parts["bond"] = bonded
    key = (where is not None, bonded is not None, fave, "cost" in h)
    label = msg(_HOST_LABELS[key], **parts)
    return Face(
        name=say(name) + (" ★" if fave else ""),
        label=say(label),
        tone="blue",
        corner=str(h["cost"]) if "cost" in h else "",
        tag=say(msg("%(hearts)s ♥", hearts=h["hearts"])),
        kind=say(_faces(h["faces"])),
        body=say(card_ref(h["text"])) if h["text"] else "",
        count=bond if bond and bond > 1 else None,
    )


# a host's accessible name, by (where given, bond shown, favourite, has a cost): whole sentences
_HOST_LABELS = {
    (False, False, False, False): msg("%(card)s: %(detail)s")["$m"],
    (False, False, False, True): msg("%(card)s: cost %(cost)s ♥. %(detail)s")["$m"],
    (True, False, False, False): msg("%(card)s (%(where)s): %(detail)s")["$m"],
    (True, False, False, True): msg("%(card)s (%(where)s): cost %(cost)s ♥. %(detail)s")["$m"],
    (True, True, False, False): msg("%(card)s (%(where)s), bond %(bond)s: %(detail)s")["$m"],
    (True, True, False, True): msg("%(card)s (%(where)s), bond %(bond)s: cost %(cost)s ♥. %(detail)s")["$m"],
    (True, False, True, False): msg("%(card)s (%(where)s), favourite: %(detail)s")["$m"],
    (True, False, True, True): msg("%(card)s (%(where)s), favourite: cost %(cost)s ♥. %(detail)s")["$m"],
    (True, True, True, False): msg("%(card)s (%(where)s), bond %(bond)s, favourite: %(detail)s")["$m"],
    (True, True, True, True): msg("%(card)s (%(where)s), bond %(bond)s, favourite: cost %(cost)s ♥. %(detail)s")["$m"],
    (False, False, True, False): msg("%(card)s, favourite: %(detail)s")["$m"],
    (False, False, True, True): msg("%(card)s, favourite: cost %(cost)s ♥. %(detail)s")["$m"],
    (False, True, False, False): msg("%(card)s, bond %(bond)s: %(detail)s")["$m"],
    (False, True, False, True): msg("%(card)s, bond %(bond)s: cost %(cost)s ♥. %(detail)s")["$m"],
    (False, True, True, False): msg("%(card)s, bond %(bond)s, favourite: %(detail)s")["$m"],
    (False, True, True, True): msg("%(card)s, bond %(bond)s, favourite: cost %(cost)s ♥. %(detail)s")["$m"],
}


def focus_face(f: dict[str, Any], where: Any = None, say: Say = english) -> Face:
    name, text = card_ref(f["name"]), card_ref(f["text"])
    if where is None:
        label = msg("%(card)s: focus card, cost %(cost)s ♥. %(text)s", card=name, cost=f["cost"], text=text)
    else:
        label = msg(
            "%(card)s (%(where)s): focus card, cost %(cost)s ♥. %(text)s",
            card=name,
            where=where,
            cost=f["cost"],
            text=text,
        )
    return Face(
        name=say(name),
        label=say(label),
        tone="teal",
        corner=str(f["cost"]),
        kind=say(msg("Focus")),
        body=say(text),
    )


def manager_face(m: dict[str, Any], whose: Any = None, say: Say = english) -> Face:
    """A manager: her special ability. `whose`: a seat whose manager she is (None: nobody's yet)."""
    name, text = card_ref(m["name"]), card_ref(m["text"])
    if whose is None:
        label = msg("Manager, %(card)s: %(text)s", card=name, text=text)
    elif whose == "you":
        label = msg("Your manager, %(card)s: %(text)s", card=name, text=text)
    else:
        label = msg("%(seat)s's manager, %(card)s: %(text)s", seat=whose, card=name, text=text)
    return Face(name=say(name), label=say(label), tone="gold", kind=say(msg("Manager")), body=say(text))


def agenda_face(a: dict[str, Any], whose: Any = None, done: bool = False, say: Say = english) -> Face:
    """An agenda face up: its cost and benefit; `done` marks a completed one. `whose` as for a manager."""
    name = a["name"] if isinstance(a["name"], dict) else card_ref(a["name"])
    text = a["text"] if isinstance(a["text"], dict) or not a["text"] else card_ref(a["text"])
    parts = {"card": name, "cost": a["cost"], "text": text}
    if whose is None:
        label = (
            msg("Agenda completed (done), %(card)s: cost %(cost)s ♥. %(text)s", **parts)
            if done
            else msg("Agenda to complete, %(card)s: cost %(cost)s ♥. %(text)s", **parts)
        )
    elif whose == "you":
        label = (
            msg("Your agenda completed (done), %(card)s: cost %(cost)s ♥. %(text)s", **parts)
            if done
            else msg("Your agenda to complete, %(card)s: cost %(cost)s ♥. %(text)s", **parts)
        )
    else:
        label = (
            msg("%(seat)s's agenda completed (done), %(card)s: cost %(cost)s ♥. %(text)s", seat=whose, **parts)
            if done
            else msg("%(seat)s's agenda to complete, %(card)s: cost %(cost)s ♥. %(text)s", seat=whose, **parts)
        )
    return Face(
        name=say(name),
        label=say(label),
        tone="plum",
        corner=str(a["cost"]),
        tag=say(msg("done ✓")) if done else "",
        kind=say(msg("Agenda · completed")) if done else say(msg("Agenda")),
        body=say(text) if text else "",
    )


def field_card(cards: dict[str, Any], cid: str, say: Say = english) -> tuple[Face, str, list[str]]:
    kind = base_id(cid)
    on_field = msg("on the field")
    if kind in cards["hosts"]:
        h = cards["hosts"][kind]
        lines = [msg("Host, cost %(cost)s ♥", cost=h["cost"]), host_detail(h)]
        return host_face(h, on_field, say=say), say(card_ref(h["name"])), [say(x) for x in lines]
    f = cards["focus"][kind]
    lines = [msg("Focus, cost %(cost)s ♥", cost=f["cost"]), card_ref(f["text"])]
    return focus_face(f, on_field, say=say), say(card_ref(f["name"])), [say(x) for x in lines]


def _place(slot: int) -> Msg:
    """A field place inside a sentence ("Empty place: top row, card 2")."""
    if slot < 4:
        return msg("top row, card %(n)s", n=slot % 4 + 1)
    return msg("bottom row, card %(n)s", n=slot % 4 + 1)


def _place_line(slot: int) -> Msg:
    """A field place as a line of its own ("Top row, card 2")."""
    if slot < 4:
        return msg("Top row, card %(n)s", n=slot % 4 + 1)
    return msg("Bottom row, card %(n)s", n=slot % 4 + 1)


def draw(
    view: dict[str, Any],
    cards: dict[str, Any],
    prompt: dict[str, Any] | None,
    seat: int | None = None,
    say: Say = english,
) -> dict[str, Any]:
    """The table as pictures. `say` renders a message as the reader's words (the service passes its
    renderer in the reader's language; English without one): every word drawn goes through it."""
    data = view["data"]
    opts = prompt_options(prompt)
    seats = [s["name"] for s in data["seats"]]  # seat refs, or already words when the view was rendered
    names = [say(n) for n in seats]

    field = []
    for slot, cid in enumerate(data["field"]):
        if cid is None:
            empty = say(msg("Empty place: %(where)s", where=_place(slot)))
            field.append({"html": f'<div class="pic slot">{empty_svg(empty)}</div>', "name": ""})
            continue
        face, name, lines = field_card(cards, cid, say)
        field.append(
            pic(
                card_svg(face),
                say=say,
                key=cid,
                name=name,
                lines=[say(_place_line(slot)), *lines],
                options=matching(opts, cid),
            )
        )
    rows = [field[:4], field[4:]]

    dice = []
    for i, roll in enumerate(data["rolls"]):
        if roll:
            words = say(msg("%(die)s and %(again)s", die=roll[0], again=roll[1]) if len(roll) == 2 else roll[0])
            dice.append(
                {
                    "seat": i,
                    "name": names[i],
                    "roll": list(roll),
                    "svgs": [die_svg(v, say(msg("%(seat)s rolled %(die)s", seat=seats[i], die=v))) for v in roll],
                    "words": words,
                }
            )

    order = [
        {
            "position": p + 1,
            "seat": i,
            "name": names[i],
            "price": data["prices"][p] if p < len(data["prices"]) else 0,
            "acting": data["acting"] == i,
        }
        for p, i in enumerate(data["order"])
    ]

    bidding_done = data["phase"] != "auction"
    order_label = say(msg("Turn order") if bidding_done else msg("Last turn's order (this turn's is being bid for)"))
    clubs = []
    for i, s in enumerate(data["seats"]):
        mine = i == seat
        whose = "you" if mine else seats[i]
        club_where = msg("in your club") if mine else msg("in %(seat)s's club", seat=seats[i])
        items = []
        if s["manager"]:
            m = cards["managers"][s["manager"]]
            items.append(
                pic(
                    card_svg(manager_face(m, whose, say)),
                    say=say,
                    key=m["id"],
                    name=say(card_ref(m["name"])),
                    lines=[say(msg("Manager: %(text)s", text=card_ref(m["text"])))],
                    options=[],
                    css="manager",
                )
            )
        fl = cards["flyer"]
        items.append(
            pic(
                card_svg(host_face(fl, club_where, say=say)),
                say=say,
                key="flyer",
                name=say(card_ref(fl["name"])),
                lines=[say(host_detail(fl))],
                options=[],
            )
        )
        for boy, bond in s["club"].items():
            h = cards["hosts"][boy]
            fave = boy == s["fave"]
            bond_line = msg("Bond %(bond)s, favourite", bond=bond) if fave else msg("Bond %(bond)s", bond=bond)
            items.append(
                pic(
                    card_svg(host_face(h, club_where, bond, fave, say)),
                    say=say,
                    key=boy,
                    name=say(card_ref(h["name"])),
                    options=matching(opts, boy, verbs=("fave",)) if mine else [],
                    lines=[say(bond_line), say(host_detail(h))],
                    bond=bond,
                    fave=fave,
                )
            )
        for c in s["focus"]:
            f = cards["focus"][base_id(c)]
            items.append(
                pic(
                    card_svg(focus_face(f, club_where, say)),
                    say=say,
                    key=c,
                    name=say(card_ref(f["name"])),
                    lines=[say(card_ref(f["text"]))],
                    options=[],
                )
            )
        agendas = []
        for a in s["agendas"]:
            cost = say(msg("cost %(cost)s", cost=a["cost"]))
            if a["id"] is None:
                if mine:
                    label = say(msg("Your face-down agenda, cost %(cost)s", cost=a["cost"]))
                else:
                    label = say(msg("%(seat)s's face-down agenda, cost %(cost)s", seat=seats[i], cost=a["cost"]))
                down = say(msg("Face-down agenda"))
                agendas.append(
                    {
                        "html": f'<div class="pic agenda down" data-name="{esc(down)}">'
                        f"{back_svg(label, [say(msg('Agenda')), cost], tone='plum')}</div>",
                        "name": down,
                        "lines": [cost],
                        "down": True,
                    }
                )
                continue
            first = say(msg("cost %(cost)s, completed", cost=a["cost"])) if a["done"] else cost
            agendas.append(
                pic(
                    card_svg(agenda_face(a, whose, a["done"], say)),
                    say=say,
                    key=a["id"],
                    name=say(a["name"]),
                    css="agenda",
                    lines=[first, say(a["text"])],
                    options=matching(opts, a["id"], verbs=("agenda",)) if mine else [],
                    done=a["done"],
                )
            )
        # during the sealed bids the order held is last turn's: no club is placed in this turn's yet
        position = next((o["position"] for o in order if o["seat"] == i), None) if bidding_done else None
        clubs.append(
            {
                "seat": i,
                "name": names[i],
                "you": mine,
                "title": say(msg("Your club") if mine else msg("%(seat)s's club", seat=seats[i])),
                "hearts": s["hearts"],
                "value": s["club_value"],
                "position": position,
                "acting": data["acting"] == i,
                "answered": i in data["answered"],
                "roll": next((d["words"] for d in dice if d["seat"] == i), ""),
                "items": items,
                "agendas": agendas,
                "done": sum(1 for a in s["agendas"] if a["done"]),
            }
        )
    if seat is not None:
        clubs.sort(key=lambda c: (not c["you"], c["seat"]))
    return {
        "rows": rows,
        "field_count": sum(1 for c in data["field"] if c),
        "deck_count": data["deck_count"],
        "dice": dice,
        "order": order,
        "order_label": order_label,
        "clubs": clubs,
        "turn": data["turn"],
        "phase": data["phase"],
        "turn_cap": data["options"].get("turn_cap") or 0,
    }


def card_face(data: dict[str, Any], file: str, key: str, say: Say = english) -> str:
    """One card of a built set as the seat page draws it, for the card set preview ("" for none);
    `say` as for draw()."""
    group = file.removesuffix(".yaml")
    card = data.get(group, {}).get(key)
    if card is None:
        return ""
    if group == "hosts":
        return card_svg(host_face(card, say=say))
    if group == "focus":
        return card_svg(focus_face(card, say=say))
    if group == "managers":
        return card_svg(manager_face(card, say=say))
    if group == "agendas":
        return card_svg(agenda_face(card, say=say))
    return ""
