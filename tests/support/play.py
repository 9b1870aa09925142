"""Playing a game forward through the write path, the way several tests need it."""

from __future__ import annotations

import random

from games.actions import play
from games.engine.prompts import prompt_key
from games.models import Game

PEOPLE_AND_A_BOT = ["ana@example.com", "ben@example.com", None]


def mid_game(make_game, slug: str, steps: int, options=None, seed: int = 3, seats=PEOPLE_AND_A_BOT) -> tuple[Game, int]:
    """A started game where the people have answered `steps` times as a bot would (the bots play
    themselves); returns it and the person asked now."""
    game = make_game(title=slug, seats=seats, options=options or {})
    title = game.engine
    rng = random.Random(seed)
    people = {i for i, email in enumerate(seats) if email}
    for done in range(5000):
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE, "the game ended before the middle"
        prompts = title.prompts(game.state)
        asked = sorted(i for i in prompts if i in people)
        if done >= steps and asked:
            return game, asked[0]
        seat = asked[0]
        answer = title.bot_answer(game.state, seat, rng)
        play.submit(game.pk, seat, answer, game.version, via="web", prompt_key=prompt_key(prompts[seat]))
    raise AssertionError("no person was asked")


def take_pebbles(game: Game, takes: int) -> None:
    """Pebbles: seats hide their numbers if they have not, then take one pebble a turn (a log line each)."""
    game.refresh_from_db()
    for seat in (0, 1):
        if game.state["secret"][seat] is None:
            play.submit(game.pk, seat, 1, None, via="web")
    for _ in range(takes):
        game.refresh_from_db()
        [seat] = game.engine.prompts(game.state)
        play.submit(game.pk, seat, "take1", None, via="web")
        play.submit(game.pk, seat, "done", None, via="web")
    game.refresh_from_db()


def finish(game: Game, seed: int = 7, limit: int = 5000) -> None:
    """Play a started game to its end through the write path: every person asked answers as the
    title's bot would; bot seats are moved as the service moves them."""
    rng = random.Random(seed)
    for _ in range(limit):
        game.refresh_from_db()
        if game.status == Game.Status.ENDED:
            return
        seat = min(game.engine.prompts(game.state))
        if game.seats.get(index=seat).is_bot:
            play.advance(game.pk)
            continue
        play.submit(game.pk, seat, game.engine.bot_answer(game.state, seat, rng), game.version, via="web")
    raise AssertionError(f"the game did not end within {limit} steps")
