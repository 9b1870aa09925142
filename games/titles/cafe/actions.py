"""The four actions (produce, dry, roast, deliver), the free clear, and stopping early.

Each choice a seat may make with its next action is one `Act` with a stable id, so a page can show
them as a list and redraw the area after each. Groups are orthogonal and cross card borders.

  produce@r1c2            fill every empty square of the same-colour bean group starting at r1c2
  dry@r1c2:red+green      all red and all green bean cubes onto empty dry squares of that group
  roast@r1c2:red          all red dry cubes onto an empty roast square of that group
  deliver:r1c2+r3c0       empty those roast squares: shops first (what they still need), rest stored
  store:r1c2              empty those roast squares into the warehouse
  clear@r1c2              free: the cubes on that square go back to the supply
  stop                    give up the actions left
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Any, NamedTuple

from games.engine.messages import msg, nmsg

from .cards import COLOURS
from .grid import cell_id, groups, reading_order
from .memo import Memo
from .words import amount, amounts, cell

MAX_SUBSET_SQUARES = 5  # with more loaded roast squares, deliver offers each alone and all together


class Act(NamedTuple):
    """One choice for a seat's next action (an immutable record, cheap to build: many per step)."""

    id: str
    label: Any  # a message
    cost: int
    kind: str
    cells: tuple[str, ...] = ()
    colours: tuple[str, ...] = ()


def _bean(code: str) -> str | None:
    return code if code.startswith("bean:") else None


def _dry(code: str) -> str | None:
    return "dry" if code == "dry" else None


def _roast(code: str) -> str | None:
    return "roast" if code.startswith("roast") else None


class Group(NamedTuple):
    """A group of squares of one kind, and how ids and labels name it."""

    cells: list[str]  # reading order
    at: str  # the id of its first cell: "r1c2"
    where: Any  # a message: "row 1, col 2" for one square, else "the group at row 1, col 2"


class AreaFacts(NamedTuple):
    """What the actions read from an area, worked out once per area object."""

    beans: list[Group]  # one colour each
    dries: list[Group]
    roasts: list[Group]
    work: dict[str, str]  # cell -> "bean" | "dry" | "roast", for the squares cubes can stand on


def _named(cells: list[str]) -> Group:
    first = cell(cells[0])
    return Group(cells, cell_id(cells[0]), first if len(cells) == 1 else msg("the group at %(cell)s", cell=first))


_facts_memo = Memo()


def area_facts(area: dict[str, str]) -> AreaFacts:
    hit = _facts_memo.get(area)
    if hit is not None:
        return hit
    work = {}
    for k, code in area.items():
        if code.startswith("bean:"):
            work[k] = "bean"
        elif code == "dry":
            work[k] = "dry"
        elif code.startswith("roast"):
            work[k] = "roast"
    facts = AreaFacts(
        [_named(g) for g in groups(area, _bean)],
        [_named(g) for g in groups(area, _dry)],
        [_named(g) for g in groups(area, _roast)],
        work,
    )
    return _facts_memo.put((area,), facts)


_shop_memo = Memo()


def visible_shops(area: dict[str, str], cards: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Fully visible shops: {shop id: its static data}. Only these receive cubes and score."""
    hit = _shop_memo.get(area, cards)
    if hit is not None:
        return hit
    seen: dict[str, int] = {}
    for code in area.values():
        if code.startswith("shop:"):
            sid = code[5:]
            seen[sid] = seen.get(sid, 0) + 1
    out = {}
    for sid, n in seen.items():
        shop = cards[sid.split(".")[0]]["shops"][sid]
        if n == shop["size"]:
            out[sid] = shop
    return _shop_memo.put((area, cards), out)


_needs_memo = Memo()


def shop_needs(seat: dict[str, Any], cards: dict[str, Any]) -> dict[str, dict[str, int]]:
    """What each fully visible shop still needs, in the order deliveries fill them (most points first).

    Memoised on the area and shops objects (the only parts of the seat it reads): callers must not
    change the result.
    """
    hit = _needs_memo.get(seat["area"], seat["shops"], cards)
    if hit is not None:
        return hit
    return _needs_memo.put((seat["area"], seat["shops"], cards), _shop_needs(seat, cards))


def _shop_needs(seat: dict[str, Any], cards: dict[str, Any]) -> dict[str, dict[str, int]]:
    shops = visible_shops(seat["area"], cards)
    order = sorted(shops, key=lambda s: (-shops[s]["vp"], s))
    out = {}
    for sid in order:
        held = seat["shops"].get(sid, {})
        full = shops[sid]["need"]
        # in colour order, not the stored dict's: deliveries write the shop's cubes in this order
        need = {c: missing for c in COLOURS if (missing := full.get(c, 0) - held.get(c, 0)) > 0}
        if need:
            out[sid] = need
    return out


def route(pool: dict[str, int], needs: dict[str, dict[str, int]]) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
    """Split delivered cubes: shops the pool completes first, then partial fills, rest to the warehouse."""
    pool = dict(pool)
    to_shops: dict[str, dict[str, int]] = {}
    for sid, need in needs.items():
        if all(pool.get(c, 0) >= n for c, n in need.items()):
            to_shops[sid] = dict(need)
            for c, n in need.items():
                pool[c] -= n
    for sid, need in needs.items():
        if sid in to_shops:
            continue
        give = {c: min(pool.get(c, 0), n) for c, n in need.items() if pool.get(c, 0) > 0}
        if give:
            to_shops[sid] = give
            for c, n in give.items():
                pool[c] -= n
    return to_shops, {c: n for c, n in pool.items() if n > 0}


def _assign(empty: list[str], colours: tuple[str, ...], area: dict[str, str]) -> tuple[tuple[str, ...], int]:
    """Target squares: the colours in order onto the empty squares in reading order, except that red
    is kept off a roast★ square when the group has a plain one for it.

    Returns the cells (one per colour) and the extra action cost (1 when red must go on a ★).
    """
    cells = list(empty[: len(colours)])
    extra = 0
    if "red" in colours:
        i = colours.index("red")
        if area[cells[i]] == "roast*":
            spare = [k for k in empty[len(colours) :] if area[k] != "roast*"]
            swap = [j for j, k in enumerate(cells) if area[k] != "roast*"]
            if spare:
                cells[i] = spare[0]
            elif swap:
                j = swap[0]
                cells[i], cells[j] = cells[j], cells[i]
            else:
                extra = 1
    return tuple(cells), extra


def _move_options(kind: str, have: dict[str, int], targets: list[Group], seat: dict[str, Any], left: int) -> list[Act]:
    """Dry (bean cubes onto dry groups) or roast (dry cubes onto roast groups): `have` is the cubes
    by colour on the source squares."""
    if not have:
        return []
    area, cubes = seat["area"], seat["cubes"]
    avail = tuple(c for c in COLOURS if c in have)
    out = []
    for g in targets:
        empty = [k for k in g.cells if k not in cubes]
        for size in range(1, min(len(empty), len(avail)) + 1):
            for chosen in combinations(avail, size):
                cells, extra = _assign(empty, chosen, area)
                cost = 1 + extra
                if cost > left:
                    continue
                label = _move_label(kind, [amount(have[c], c) for c in chosen], g.where, extra)
                out.append(Act(f"{kind}@{g.at}:{'+'.join(chosen)}", label, cost, kind, cells, chosen))
    return out


def _move_label(kind: str, what: list[Any], where: Any, extra: int) -> Any:
    """ "Dry 2 red + 1 green on row 1, col 2": the amounts joined by " + " (one message a count)."""
    joined = what[0]
    for more in what[1:]:
        joined = msg("%(first)s + %(more)s", first=joined, more=more)
    if kind == "dry":
        if extra:
            return msg("Dry %(cubes)s on %(where)s (red on ★: 2 actions)", cubes=joined, where=where)
        return msg("Dry %(cubes)s on %(where)s", cubes=joined, where=where)
    if extra:
        return msg("Roast %(cubes)s on %(where)s (red on ★: 2 actions)", cubes=joined, where=where)
    return msg("Roast %(cubes)s on %(where)s", cubes=joined, where=where)


def _deliver_options(seat: dict[str, Any], cards: dict[str, Any], loaded: list[str]) -> list[Act]:
    """Deliver or store the cubes of each set of loaded roast squares (`loaded`, in reading order)."""
    if not loaded:
        return []
    cubes = seat["cubes"]
    if len(loaded) <= MAX_SUBSET_SQUARES:
        subsets = [c for size in range(1, len(loaded) + 1) for c in combinations(loaded, size)]
    else:
        subsets = [(k,) for k in loaded] + [tuple(loaded)]
    needed = {c for need in shop_needs(seat, cards).values() for c in need}
    out = []
    for sub in subsets:
        pool: dict[str, int] = {}
        for k in sub:
            colour, n = cubes[k]
            pool[colour] = pool.get(colour, 0) + n
        ids = "+".join([cell_id(k) for k in sub])
        text = amounts(pool)
        if not needed.isdisjoint(pool):
            label = msg("Deliver %(cubes)s: shops first, rest to the warehouse", cubes=text)
            out.append(Act(f"deliver:{ids}", label, 1, "deliver", sub))
        out.append(Act(f"store:{ids}", msg("Store %(cubes)s in the warehouse", cubes=text), 1, "store", sub))
    return out


_memo = Memo()


def options(seat: dict[str, Any], cards: dict[str, Any], supply: dict[str, int]) -> list[Act]:
    """Every choice for the seat's next action (empty when it has none left). Memoised on content."""
    left = seat["left"]
    if left <= 0:
        return []
    hit = _memo.get(seat, supply)
    if hit is not None:
        return hit
    area, cubes = seat["area"], seat["cubes"]
    facts = area_facts(area)
    # the cubes by colour on bean and on dry squares, and the loaded roast squares
    on: dict[str, dict[str, int]] = {"bean": {}, "dry": {}}
    loaded = []
    for k, (colour, n) in cubes.items():
        kind = facts.work.get(k)
        if kind == "roast":
            loaded.append(k)
        elif kind is not None:
            have = on[kind]
            have[colour] = have.get(colour, 0) + n
    out: list[Act] = []
    for g in facts.beans:
        bean = area[g.cells[0]][5:]
        empty = [k for k in g.cells if k not in cubes]
        n = min(len(empty), supply[bean])
        if n:
            if n < len(empty):
                label = msg(
                    "Produce %(cubes)s on %(where)s (the supply is short)", cubes=amount(n, bean), where=g.where
                )
            else:
                label = msg("Produce %(cubes)s on %(where)s", cubes=amount(n, bean), where=g.where)
            out.append(Act(f"produce@{g.at}", label, 1, "produce", tuple(empty[:n]), (bean,)))
    out += _move_options("dry", on["bean"], facts.dries, seat, left)
    out += _move_options("roast", on["dry"], facts.roasts, seat, left)
    out += _deliver_options(seat, cards, reading_order(loaded))
    for k in reading_order(cubes):
        c, n = cubes[k]
        out.append(_clear_act(k, c, n))
    out.append(_stop_act(left))
    return _memo.put((seat, supply), out)


@lru_cache(maxsize=4096)
def _clear_act(k: str, c: str, n: int) -> Act:
    label = msg("Clear %(cell)s (free: %(cubes)s back to the supply)", cell=cell(k), cubes=amount(n, c))
    return Act(f"clear@{cell_id(k)}", label, 0, "clear", (k,))


@lru_cache(maxsize=16)
def _stop_act(left: int) -> Act:
    label = nmsg(
        "Stop here (the %(n)s action left is lost)", "Stop here (the %(n)s actions left are lost)", "n", n=left
    )
    return Act("stop", label, 0, "stop")


def perform(
    seat: dict[str, Any], act: Act, cards: dict[str, Any], supply: dict[str, int], who: Any = None
) -> tuple[dict[str, Any], dict[str, int], Any]:
    """The seat and supply after the act (inputs untouched), and the log's message about `who` (the
    seat's reference, games.engine.messages.seat_ref)."""
    out = dict(seat)
    cubes = dict(seat["cubes"])
    supply = dict(supply)
    area = seat["area"]
    words: Any = ""
    if act.kind == "produce":
        bean = act.colours[0]
        for k in act.cells:
            cubes[k] = [bean, 1]
        supply[bean] -= len(act.cells)
        words = msg("%(seat)s produced %(cubes)s.", seat=who, cubes=amount(len(act.cells), bean))
    elif act.kind in ("dry", "roast"):
        src = (lambda code: code.startswith("bean:")) if act.kind == "dry" else (lambda code: code == "dry")
        moved = {}
        for col, target in zip(act.colours, act.cells, strict=True):
            total = 0
            for k in [k for k, (c, _) in cubes.items() if c == col and src(area[k])]:
                total += cubes.pop(k)[1]
            cubes[target] = [col, total]
            moved[col] = total
        what = amounts(moved)
        if act.kind == "dry":
            words = msg("%(seat)s dried %(cubes)s.", seat=who, cubes=what)
        elif act.cost == 2:
            words = msg("%(seat)s roasted %(cubes)s (red on ★: 2 actions).", seat=who, cubes=what)
        else:
            words = msg("%(seat)s roasted %(cubes)s.", seat=who, cubes=what)
    elif act.kind in ("deliver", "store"):
        pool: dict[str, int] = {}
        for k in act.cells:
            colour, n = cubes.pop(k)
            pool[colour] = pool.get(colour, 0) + n
        to_shops, rest = route(pool, shop_needs(seat, cards)) if act.kind == "deliver" else ({}, pool)
        shops = dict(seat["shops"])
        for sid, give in to_shops.items():
            held = dict(shops.get(sid, {}))
            for c, n in give.items():
                held[c] = held.get(c, 0) + n
            shops[sid] = held
        warehouse = dict(seat["warehouse"])
        for c, n in rest.items():
            warehouse[c] += n
        out["shops"], out["warehouse"] = shops, warehouse
        given: dict[str, int] = {}
        for give in to_shops.values():
            for c, n in give.items():
                given[c] = given.get(c, 0) + n
        shops_n = len(to_shops)
        if to_shops and rest:
            words = nmsg(
                "%(seat)s delivered %(cubes)s to %(n)s shop and stored %(rest)s.",
                "%(seat)s delivered %(cubes)s to %(n)s shops and stored %(rest)s.",
                "n",
                seat=who,
                cubes=amounts(given),
                n=shops_n,
                rest=amounts(rest),
            )
        elif to_shops:
            words = nmsg(
                "%(seat)s delivered %(cubes)s to %(n)s shop.",
                "%(seat)s delivered %(cubes)s to %(n)s shops.",
                "n",
                seat=who,
                cubes=amounts(given),
                n=shops_n,
            )
        else:
            words = msg("%(seat)s stored %(cubes)s.", seat=who, cubes=amounts(rest))
    elif act.kind == "clear":
        col, n = cubes.pop(act.cells[0])
        supply[col] += n
        words = msg(
            "%(seat)s cleared %(cubes)s from %(cell)s.", seat=who, cubes=amount(n, col), cell=cell(act.cells[0])
        )
    elif act.kind == "stop":
        words = nmsg(
            "%(seat)s stopped with %(n)s action unused.",
            "%(seat)s stopped with %(n)s actions unused.",
            "n",
            seat=who,
            n=seat["left"],
        )
    out["cubes"] = cubes
    out["left"] = 0 if act.kind == "stop" else seat["left"] - act.cost
    return out, supply, words
