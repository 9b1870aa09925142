"""No engine depends on the order of keys in its state.

PostgreSQL's jsonb keeps an object's keys in its own order (shorter keys first), not in the order
they were written; SQLite's JSON text keeps them as written. A game loaded from the database must
play on exactly as the same game kept in memory, or replaying the log (the truth) would give a
different table from the stored one. Café Romantica's payout line listed a seat's hosts in the
order of her club's keys, so the same roll read differently after a reload (found by running
the service tests on PostgreSQL).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engine.rng import step_rng
from games.titles import get_title, slugs

GAMES = 4  # each step carries the whole state (card catalogue included) through JSON twice


def reversed_keys(value: Any) -> Any:
    """The same JSON value with every object's keys in the reverse of their order."""
    if isinstance(value, dict):
        return {k: reversed_keys(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [reversed_keys(v) for v in value]
    return value


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("slug", slugs())
def test_a_game_reloaded_with_its_keys_reordered_plays_on_the_same(slug):
    title = get_title(slug)
    players = [f"P{i}" for i in range(max(title.min_players, min(3, title.max_players)))]
    for game in range(GAMES):
        seed = f"order-{game}"
        kept = title.setup(players, {}, step_rng(seed, 0))
        loaded = reversed_keys(as_json(kept))
        seq = 0
        while title.outcome(kept) is None:
            prompts = title.prompts(kept)
            assert as_json({k: p.to_dict() for k, p in prompts.items()}) == as_json(
                {k: p.to_dict() for k, p in title.prompts(loaded).items()}
            ), f"{seed} step {seq}: the question differs"
            seat = min(prompts)
            seq += 1
            answer = title.bot_answer(kept, seat, step_rng(seed, seq))
            assert as_json(title.bot_answer(loaded, seat, step_rng(seed, seq))) == as_json(answer), (
                f"{seed} step {seq}: the bot's answer differs"
            )
            kept = title.apply(kept, seat, answer, step_rng(seed, seq))
            loaded = title.apply(loaded, seat, as_json(answer), step_rng(seed, seq))
            assert as_json(loaded) == as_json(kept), f"{seed} step {seq}: the state differs"
            loaded = reversed_keys(as_json(loaded))
        assert title.outcome(loaded) == title.outcome(kept)
