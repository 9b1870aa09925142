"""The taps on the business area name exactly one action option each (games/titles/cafe/taps.py)."""

from __future__ import annotations

from games.engine.rng import step_rng
from games.titles.cafe.grid import cell_id

from .helpers import TITLE


def resolve(taps: list[dict], ids: list[str], pick: set[str], on: str) -> list[str]:
    """The option ids a pick set and a last tap name: what the page script (games/titles/cafe/static/table.js) looks up."""
    return [i for i, t in zip(ids, taps, strict=True) if set(t["pick"]) == pick and on in t["on"]]


def _acting_views(players: int, seed: str):
    """Every seat's view each time it is asked for an action, through a whole bot game."""
    state = TITLE.setup([f"P{i}" for i in range(players)], {}, step_rng(seed, 0))
    seq = 0
    while TITLE.outcome(state) is None:
        for seat in sorted(TITLE.prompts(state)):
            if state["phase"] == "play" and state["seats"][seat]["stage"] == "act":
                yield TITLE.view(state, seat)["data"], seat
        seat = min(TITLE.prompts(state))
        seq += 1
        state = TITLE.apply(state, seat, TITLE.bot_answer(state, seat, step_rng(seed, seq)), step_rng(seed, seq))


def test_every_action_option_is_named_by_its_taps_and_by_nothing_else():
    checked = views = 0
    seen_kinds: set[str] = set()
    for players, seed in ((2, "taps-a"), (4, "taps-b")):
        for data, seat in _acting_views(players, seed):
            acts = data["actions"]
            ids = [a["id"] for a in acts]
            taps = [a["taps"] for a in acts]
            area = data["seats"][seat]["area"]
            cells = {f"r{c['row']}c{c['col']}" for c in area["cells"]}
            shops = {f"shop:{s['id']}" for s in area["shops"]}
            picks = set(data["tap_picks"].values())
            assert set(data["tap_picks"]) == {cell_id(f"{c['row']},{c['col']}") for c in area["cells"] if c["cubes"]}
            for a in acts:
                t = a["taps"]
                assert t["on"], a["id"]
                # every token is something the page lets a seat tap: a square's cubes, or the Clear button
                assert set(t["pick"]) <= picks | {"clear"}, a["id"]
                assert set(t["on"]) <= cells | shops | {"warehouse", "stop"}, a["id"]
                for on in t["on"]:
                    assert resolve(taps, ids, set(t["pick"]), on) == [a["id"]], (a["id"], on)
                seen_kinds.add(a["kind"])
                checked += 1
            views += 1
    assert seen_kinds == {"produce", "dry", "roast", "deliver", "store", "clear", "stop"}, seen_kinds
    assert checked > 1000 and views > 50, (checked, views)
