"""What tapping the business area chooses: every action option as the taps that name it.

A page lets a seat act by tapping its area instead of reading the list, but the answer it posts
must still be one option id of the prompt. So each option carries its taps as data:

  pick  the things selected first, as tokens: "bean:red" (the red cubes on bean squares, all of
        them move together), "dry:red" (the red cubes on dry squares), "roast:r1c2" (the cubes
        on that roast square), "clear" (the page's Clear button)
  on    what the last tap may land on: a square "r1c2", a shop "shop:card17.a", "warehouse", or
        "stop" (the page's Stop button)

The same pick set and last tap never name two options (tests/titles/cafe/test_taps.py checks it
on positions from bot games), so a page looks the option up and ticks its radio button. Pure data
from the state: nothing here changes a rule.
"""

from __future__ import annotations

from typing import Any

from .actions import Act, AreaFacts, Group, area_facts, shop_needs
from .grid import cell_id, reading_order


def _at(act_id: str) -> str:
    """The group part of "dry@r1c2:red+green": "r1c2"."""
    return act_id.split("@", 1)[1].split(":", 1)[0]


def _group(groups: list[Group], at: str) -> Group:
    return next(g for g in groups if g.at == at)


def _empty(group: Group, cubes: dict[str, Any]) -> list[str]:
    return [cell_id(k) for k in group.cells if k not in cubes]


def option_taps(
    act: Act, seat: dict[str, Any], cards: dict[str, Any], facts: AreaFacts | None = None
) -> dict[str, Any]:
    """The taps that choose `act` on `seat`'s area: {"pick": [tokens], "on": [targets]}."""
    facts = facts or area_facts(seat["area"])
    cubes = seat["cubes"]
    if act.kind == "produce":
        return {"pick": [], "on": _empty(_group(facts.beans, _at(act.id)), cubes)}
    if act.kind in ("dry", "roast"):
        source, targets = ("bean", facts.dries) if act.kind == "dry" else ("dry", facts.roasts)
        return {"pick": [f"{source}:{c}" for c in act.colours], "on": _empty(_group(targets, _at(act.id)), cubes)}
    if act.kind in ("deliver", "store"):
        pick = [f"roast:{cell_id(k)}" for k in act.cells]
        if act.kind == "store":
            return {"pick": pick, "on": ["warehouse"]}
        colours = {cubes[k][0] for k in act.cells}
        shops = [f"shop:{sid}" for sid, need in shop_needs(seat, cards).items() if not colours.isdisjoint(need)]
        return {"pick": pick, "on": shops}
    if act.kind == "clear":
        return {"pick": ["clear"], "on": [cell_id(act.cells[0])]}
    return {"pick": [], "on": ["stop"]}


def cell_picks(seat: dict[str, Any], facts: AreaFacts | None = None) -> dict[str, str]:
    """The pick token a tap on each square holding cubes selects ("r1c2" -> "bean:red")."""
    facts = facts or area_facts(seat["area"])
    out = {}
    for k in reading_order(seat["cubes"]):
        kind = facts.work.get(k)
        if kind == "roast":
            out[cell_id(k)] = f"roast:{cell_id(k)}"
        elif kind is not None:
            out[cell_id(k)] = f"{kind}:{seat['cubes'][k][0]}"
    return out


def queue_steps(state: dict[str, Any], seat: int) -> bool:
    """Whether a seat may queue its next steps and send them together (TITLE.queue_steps).

    In the place-and-act phase a seat's placement and actions touch only its own area and the
    public cube supply: nothing hidden decides them and nothing hidden is shown by them, so the page
    may draw the area after each queued step. (The last action of the round's last seat starts the
    next round and reveals cards: the write path ends the run there.) The draft reveals cards from
    the deck, so its picks go one at a time.
    """
    if state.get("phase") != "play" or not isinstance(seat, int) or not 0 <= seat < len(state["seats"]):
        return False
    return state["seats"][seat]["stage"] in ("place", "act")
