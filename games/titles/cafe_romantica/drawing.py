"""Café Romantica as pictures: the dice rolled this turn, the field in two rows of four, the turn
order, and each club (manager, flyer, hosts with their bonds stacked, focus cards, agendas, face
down where the view hides them). Built from the seat's view data and the public card list only;
no Django import."""

from __future__ import annotations

from typing import Any

from games.engine.svg import Face, back_svg, card_svg, die_svg, empty_svg, matching, pic, prompt_options

from .actions import host_detail
from .cards import base_id


def catalogue(state: dict[str, Any]) -> dict[str, Any]:
    """The card list (public facts: hosts, focus cards, managers, the flyer). Agendas are left out:
    what a seat may know of an agenda is in its view data, face down or not."""
    cards = state["cards"]
    return {"hosts": cards["hosts"], "focus": cards["focus"], "managers": cards["managers"], "flyer": cards["flyer"]}


def _faces(faces: list[int]) -> str:
    return "every roll" if len(faces) == 6 else ", ".join(map(str, faces))


def host_face(h: dict[str, Any], where: str = "", bond: int | None = None, fave: bool = False) -> Face:
    bonded = f", bond {bond}" if bond and bond > 1 else ""
    cost = f"cost {h['cost']} ♥. " if "cost" in h else ""
    star = ", your favourite" if fave and where.startswith(" (in your") else (", favourite" if fave else "")
    return Face(
        name=h["name"] + (" ★" if fave else ""),
        label=f"{h['name']}{where}{bonded}{star}: {cost}{host_detail(h)}",
        tone="blue",
        corner=str(h["cost"]) if "cost" in h else "",
        tag=f"{h['hearts']} ♥",
        kind=f"Shines on {_faces(h['faces'])}",
        body=h["text"],
        count=bond if bond and bond > 1 else None,
    )


def focus_face(f: dict[str, Any], where: str = "") -> Face:
    return Face(
        name=f["name"],
        label=f"{f['name']}{where}: focus card, cost {f['cost']} ♥. {f['text']}",
        tone="teal",
        corner=str(f["cost"]),
        kind="Focus",
        body=f["text"],
    )


def manager_face(m: dict[str, Any], whose: str = "Manager") -> Face:
    """A manager: her special ability. `whose` starts the name ("Your manager")."""
    return Face(name=m["name"], label=f"{whose}, {m['name']}: {m['text']}", tone="gold", kind="Manager", body=m["text"])


def agenda_face(a: dict[str, Any], whose: str = "Agenda", done: bool = False) -> Face:
    """An agenda face up: its cost and benefit; `done` marks a completed one."""
    state_word = "completed (done)" if done else "to complete"
    return Face(
        name=a["name"],
        label=f"{whose} {state_word}, {a['name']}: cost {a['cost']} ♥. {a['text']}",
        tone="plum",
        corner=str(a["cost"]),
        tag="done ✓" if done else "",
        kind="Agenda" + (" · completed" if done else ""),
        body=a["text"],
    )


def field_card(cards: dict[str, Any], cid: str) -> tuple[Face, str, list[str]]:
    kind = base_id(cid)
    if kind in cards["hosts"]:
        h = cards["hosts"][kind]
        return host_face(h, " (on the field)"), h["name"], [f"Host, cost {h['cost']} ♥", host_detail(h)]
    f = cards["focus"][kind]
    return focus_face(f, " (on the field)"), f["name"], [f"Focus, cost {f['cost']} ♥", f["text"]]


def draw(
    view: dict[str, Any], cards: dict[str, Any], prompt: dict[str, Any] | None, seat: int | None = None
) -> dict[str, Any]:
    data = view["data"]
    opts = prompt_options(prompt)
    names = [s["name"] for s in data["seats"]]

    field = []
    for slot, cid in enumerate(data["field"]):
        where = f"{'top' if slot < 4 else 'bottom'} row, card {slot % 4 + 1}"
        if cid is None:
            field.append({"html": f'<div class="pic slot">{empty_svg(f"Empty place: {where}")}</div>', "name": ""})
            continue
        face, name, lines = field_card(cards, cid)
        field.append(
            pic(card_svg(face), key=cid, name=name, lines=[where.capitalize(), *lines], options=matching(opts, cid))
        )
    rows = [field[:4], field[4:]]

    dice = []
    for i, roll in enumerate(data["rolls"]):
        if roll:
            words = " and ".join(map(str, roll))
            dice.append(
                {
                    "seat": i,
                    "name": names[i],
                    "roll": list(roll),
                    "svgs": [die_svg(v, f"{names[i]} rolled {v}") for v in roll],
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
    order_label = "Turn order" if bidding_done else "Last turn's order (this turn's is being bid for)"
    clubs = []
    for i, s in enumerate(data["seats"]):
        mine = i == seat
        owner = "your" if mine else f"{s['name']}'s"
        items = []
        if s["manager"]:
            m = cards["managers"][s["manager"]]
            items.append(
                pic(
                    card_svg(manager_face(m, f"{owner.capitalize()} manager")),
                    key=m["id"],
                    name=m["name"],
                    lines=[f"Manager: {m['text']}"],
                    options=[],
                    css="manager",
                )
            )
        fl = cards["flyer"]
        items.append(
            pic(
                card_svg(host_face(fl, f" (in {owner} club)")),
                key="flyer",
                name=fl["name"],
                lines=[host_detail(fl)],
                options=[],
            )
        )
        for boy, bond in s["club"].items():
            h = cards["hosts"][boy]
            fave = boy == s["fave"]
            items.append(
                pic(
                    card_svg(host_face(h, f" (in {owner} club)", bond, fave)),
                    key=boy,
                    name=h["name"],
                    options=matching(opts, boy, verbs=("fave",)) if mine else [],
                    lines=[f"Bond {bond}" + (", favourite" if fave else ""), host_detail(h)],
                    bond=bond,
                    fave=fave,
                )
            )
        for c in s["focus"]:
            f = cards["focus"][base_id(c)]
            items.append(
                pic(
                    card_svg(focus_face(f, f" (in {owner} club)")), key=c, name=f["name"], lines=[f["text"]], options=[]
                )
            )
        agendas = []
        for a in s["agendas"]:
            if a["id"] is None:
                label = f"{owner.capitalize()} face-down agenda, cost {a['cost']}"
                agendas.append(
                    {
                        "html": f'<div class="pic agenda down" data-name="Face-down agenda">'
                        f"{back_svg(label, ['Agenda', f'cost {a["cost"]}'], tone='plum')}</div>",
                        "name": "Face-down agenda",
                        "lines": [f"cost {a['cost']}"],
                        "down": True,
                    }
                )
                continue
            agendas.append(
                pic(
                    card_svg(agenda_face(a, f"{owner.capitalize()} agenda", a["done"])),
                    key=a["id"],
                    name=a["name"],
                    css="agenda",
                    lines=[f"cost {a['cost']}" + (", completed" if a["done"] else ""), a["text"]],
                    options=matching(opts, a["id"], verbs=("agenda",)) if mine else [],
                    done=a["done"],
                )
            )
        # during the sealed bids the order held is last turn's: no club is placed in this turn's yet
        position = next((o["position"] for o in order if o["seat"] == i), None) if bidding_done else None
        clubs.append(
            {
                "seat": i,
                "name": s["name"],
                "you": mine,
                "title": "Your club" if mine else f"{s['name']}'s club",
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


def card_face(data: dict[str, Any], file: str, key: str) -> str:
    """One card of a built set as the seat page draws it, for the card set preview ("" for none)."""
    group = file.removesuffix(".yaml")
    card = data.get(group, {}).get(key)
    if card is None:
        return ""
    if group == "hosts":
        return card_svg(host_face(card))
    if group == "focus":
        return card_svg(focus_face(card))
    if group == "managers":
        return card_svg(manager_face(card))
    if group == "agendas":
        return card_svg(agenda_face(card))
    return ""
