"""Café games brought to the place-and-act phase, and queued runs of a seat's steps, for the tests
of turns of several steps (tests/actions/test_steps.py and the browser's tests/browser/test_queued_turn.py).

`to_play_phase` plays the draft through the write path. `scarce_brown` is the starting position of
a race for the supply: both seats can produce brown, and one brown cube is left in the supply (the
others moved to Ben's warehouse, so the cubes stay counted). `queued_run` is what a player queues
on the page: bot answers, one after the other, as long as the turn goes on.
"""

from __future__ import annotations

import random
from typing import Any

from games.actions import play, steps
from games.engine import step_rng
from games.engine.messages import english
from games.models import Game


def bot_rng(state: dict[str, Any], seat: int) -> random.Random:
    """The same choice for the same table, whichever way the game got there."""
    return random.Random(f"{seat}:{state['round']}:{len(state['log'])}")


def to_play_phase(game: Game) -> Game:
    """Play the round's draft (each pick a bot's, through the write path) until seats place and act."""
    for _ in range(12):
        game.refresh_from_db()
        if game.state["phase"] == "play":
            return game
        engine = game.engine
        [seat] = engine.prompts(game.state)
        play.submit(game.pk, seat, engine.bot_answer(game.state, seat, bot_rng(game.state, seat)), None, via="web")
    raise AssertionError("the draft did not end")


def queued_run(game: Game, seat: int) -> list[Any]:
    """The steps a player queues for `seat` now: bot answers, each on the table the one before left,
    up to the step after which nothing more can be queued (the end of its actions, or of the round)."""
    engine = game.engine
    answers: list[Any] = []
    state = game.state
    first = game.version + 1
    for _ in range(steps.MAX_STEPS):
        answers.append(engine.bot_answer(state, seat, bot_rng(state, seat)))
        walked = steps.walk(
            engine,
            game.state,
            seat,
            answers,
            rng=lambda i: step_rng(game.seed, first + i),
            probe=lambda i: step_rng(game.seed + ":probe", first + i),
            judge_last=True,
        )
        if walked[-1].ends:
            return answers
        state = walked[-1].state
    raise AssertionError("a run that never ends")


def keeping(game: Game, seat: int, square: str, colour: str = "brown") -> str:
    """A placement of the seat's card after which it may produce `colour` on `square` ("r1c2")."""
    engine = game.engine
    for option in engine.prompts(game.state)[seat].options:
        after = engine.apply(game.state, seat, option.id, random.Random(0))
        acts = engine.prompts(after).get(seat)
        if acts is not None and any(o.id == f"produce@{square}" and colour in english(o.label) for o in acts.options):
            return option.id
    raise AssertionError(f"no placement keeps {square} free to produce on")


ANA_BROWN, BEN_BROWN = "r1c2", "r0c0"  # the brown bean squares of the initial cards start1 and start2


def scarce_brown(game: Game) -> Game:
    """The seats' starting position for a race: one brown cube left in the supply (set on the table
    directly: the moves that would empty it take rounds)."""
    state = game.state
    supply = dict(state["supply"])
    seats = [dict(s) for s in state["seats"]]
    moved = supply["brown"] - 1
    supply["brown"] = 1
    seats[1]["warehouse"] = {**seats[1]["warehouse"], "brown": seats[1]["warehouse"]["brown"] + moved}
    Game.objects.filter(pk=game.pk).update(state={**state, "supply": supply, "seats": seats})
    game.refresh_from_db()
    return game
