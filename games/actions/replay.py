"""The log is the truth: fold it into a state (read only; the write path re-folds with it).

Voided steps (a rewind's or an undo's) stay in the log and are skipped here.
"""

from __future__ import annotations

from typing import Any

from games.clock.calendar import replay_bank
from games.engine import step_rng
from games.models import Event, Game

# the events that move a game: answers and timeouts
PLAYED = (Event.Kind.ANSWER, Event.Kind.TIMEOUT)


def voided(game: Game, upto: int | None = None) -> set[int]:
    qs = game.events.filter(kind=Event.Kind.ADMIN, payload__has_key="voids")
    if upto is not None:
        qs = qs.filter(seq__lte=upto)
    return {s for p in qs.values_list("payload", flat=True) for s in p["voids"]}


def replay(game: Game, upto: int | None = None) -> tuple[Any, int]:
    """Fold the log (up to and including seq `upto`) into a state: (state, last seq folded).

    Voided steps (by a rewind or an undo up to `upto`) are skipped; everything else applies with
    the generator of its own seq, so the same log always gives the same table.
    """
    events = list(game.events.order_by("seq") if upto is None else game.events.filter(seq__lte=upto).order_by("seq"))
    if not events or events[0].kind != Event.Kind.CREATED:
        raise ValueError(f"game {game.pk} has no creation event")
    engine = game.engine
    first = events[0].payload
    gone = {s for e in events if e.kind == Event.Kind.ADMIN for s in e.payload.get("voids", [])}
    state = engine.setup(first["players"], first["options"], step_rng(first["seed"], 0))
    last = 0
    for e in events[1:]:
        if e.kind in PLAYED and e.seq not in gone:
            state = engine.apply(state, e.seat, e.payload["answer"], step_rng(first["seed"], e.seq))
        last = e.seq
    return state, last


def rebuild_differs(game: Game) -> bool:
    """True when the stored projection is not what replaying the log gives."""
    state, last = replay(game)
    return state != game.state or last != game.version


def banks(game: Game) -> dict[int, int]:
    """Each charged seat's time bank (whole seconds) as the log's charges give it (voided steps skipped).

    Every answer a time bank paid for records the seconds it took ("charged"); folding them from
    the game's starting bank gives the same banks as the seats store.
    """
    bank = game.clock.bank
    if bank is None:
        return {}
    rows = list(game.events.filter(kind__in=PLAYED, payload__has_key="charged").order_by("seq"))
    gone = voided(game)
    charges: dict[int, list[int]] = {}
    for e in rows:
        if e.seq not in gone:
            charges.setdefault(e.seat, []).append(e.payload["charged"])
    return {seat: replay_bank(bank, taken) for seat, taken in charges.items()}
