"""Building exact tables for rule tests: a real setup, then hands and decks put in place."""

from __future__ import annotations

import json
import random
from typing import Any

from games.engine.messages import english
from games.titles.tanto_cuore_rv import TITLE
from games.titles.tanto_cuore_rv.state import ZONES
from games.titles.tanto_cuore_rv.turn import advance, new_turn

RNG = random.Random(0)

# card ids the tests name
L1, L2, L3 = "love_1", "love_2", "love_3"
BEA, SOFIA = "beatrice_escudo", "sophia_marfil"
# the ten general maids that are not in the recommended set (stacks for a table of our choosing)
OTHERS = [
    "fryda_viento",
    "laura",
    "florence_spring",
    "chinatsu_kooriyama",
    "romina_vautrin",
    "germaine_mahle",
    "valencia_pretre",
    "nonnette_soyeux",
    "evita_catala",
    "hyacinth_arrow",
]


def table(players: int = 3, **options: Any) -> dict[str, Any]:
    return TITLE.setup([f"P{i}" for i in range(players)], options, random.Random(1))


NO_REMI = ("farewell_party", "farewell_party", "farewell_party")  # needs cost 6 + 5 + 3: rarely in a test hand


def arrange(
    s: dict[str, Any],
    seat: int = 0,
    auto: bool = False,
    row: tuple[str, ...] | list[str] = NO_REMI,
    **zones: dict[int, list[str]],
) -> dict[str, Any]:
    """Put cards in place (deck lists are bottom..top) and start `seat`'s turn.

    zones: e.g. hand={0: [...], 1: [...]}, deck={0: [...]}; seats not named keep their cards.
    With auto=False the turn stays at its first step even if there is nothing to decide.
    The face-up reminiscences are `row` (by default one nobody can pay for).
    """
    s["remi_row"] = list(row)
    for zone, by_seat in zones.items():
        assert zone in ZONES, zone
        for i, cards in by_seat.items():
            s["seats"][i][zone] = list(cards)
    fix_totals(s)
    new_turn(s, seat)
    s["turn"]["phase"] = (
        "serve" if not any(s["cards"][c].get("start_draws") for c in s["seats"][seat]["quarters"]) else "start"
    )
    if auto:
        advance(s, RNG)
    return s


def fix_totals(s: dict[str, Any]) -> None:
    """Recount the conserved totals after a test moved cards by hand."""
    totals: dict[str, int] = dict(s["town"])
    for z in s["seats"]:
        for zone in ZONES:
            for c in z[zone]:
                totals[c] = totals.get(c, 0) + 1
    for r in s["remi_deck"] + s["remi_row"]:
        totals[r] = totals.get(r, 0) + 1
    s["totals"] = totals


def play(s: dict[str, Any], seat: int, answer: Any, seed: int = 0) -> dict[str, Any]:
    before = json.dumps(s, sort_keys=True)
    new = TITLE.apply(s, seat, answer, random.Random(seed))
    assert json.dumps(s, sort_keys=True) == before, "apply changed its input state"
    TITLE.check_invariants(new)
    return new


def option_ids(s: dict[str, Any], seat: int) -> list[str]:
    return [o.id for o in TITLE.prompts(s)[seat].options]


def say(value: Any, s: dict[str, Any] | None = None) -> str:
    """A message in English, players by their names at the table (seats without one)."""
    names = dict(enumerate(s["players"])) if s else None
    return english(value, names)


def log_of(s: dict[str, Any], seat: int | None = None) -> list[str]:
    """The log as `seat` reads it, in English."""
    return [say(line, s) for line in TITLE.view(s, seat)["log"]]


def last_lines(s: dict[str, Any], seat: int | None, n: int = 5) -> list[str]:
    return log_of(s, seat)[-n:]
