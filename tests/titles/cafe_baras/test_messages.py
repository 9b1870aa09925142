"""No unmarked string: everything Café Baras says to a person is a message (games/engine/messages.py),
read in each reader's language by the service; a bare string is only an id, a key or a number."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import IllegalMove
from games.engine.messages import english, is_msg
from games.engine.rng import step_rng
from games.titles.cafe_baras import TITLE
from games.titles.cafe_baras import drawing as pictures
from games.titles.cafe_baras.state import cardset_of

from .helpers import arrange, rng, table

REFS = ("$seat", "$card", "$list")
# view keys whose strings are ids or codes a program reads, never words
DATA_KEYS = {"data", "id", "kind"}


def _unmarked(tree: Any, path: str = "") -> list[str]:
    """Paths of bare strings of words in a view (messages are leaves: their params are checked by
    `_params_marked`)."""
    if isinstance(tree, dict):
        if is_msg(tree) or any(k in tree for k in REFS):
            return _params_marked(tree, path)
        return [p for k, v in tree.items() if k not in DATA_KEYS for p in _unmarked(v, f"{path}.{k}")]
    if isinstance(tree, list | tuple):
        return [p for i, v in enumerate(tree) for p in _unmarked(v, f"{path}[{i}]")]
    if isinstance(tree, str):
        return [f"{path}: {tree!r}"]
    return []


def _params_marked(m: dict[str, Any], path: str) -> list[str]:
    """A message's parameters hold messages, refs and numbers, never words of their own."""
    if "$list" in m:
        return [p for i, v in enumerate(m["$list"]) for p in _params_marked_value(v, f"{path}[{i}]")]
    if "$m" in m:
        return [p for k, v in (m.get("$p") or {}).items() for p in _params_marked_value(v, f"{path}.{k}")]
    return []


def _params_marked_value(v: Any, path: str) -> list[str]:
    if isinstance(v, dict):
        return _params_marked(v, path)
    if isinstance(v, str):
        return [f"{path}: {v!r}"]
    return []


def _marked(value: Any) -> bool:
    return (is_msg(value) or (isinstance(value, dict) and any(k in value for k in REFS))) and not _params_marked(
        value, ""
    )


def _check_prompt(prompt: Any) -> None:
    assert _marked(prompt.text), prompt.text
    for o in prompt.options:
        assert _marked(o.label), o.label
        assert _marked(o.detail), o.detail


@pytest.mark.parametrize("players", [2, 4])
def test_a_bot_game_says_everything_in_messages(players):
    seed = f"messages-{players}"
    state = TITLE.setup([f"Bot {i}" for i in range(players)], {}, step_rng(seed, 0))
    seq = 0
    while True:
        for seat in [None, *range(players)]:
            view = TITLE.view(state, seat)
            assert _unmarked(view) == [], _unmarked(view)[:5]
            if seat is not None:
                up = TITLE.upcoming(state, seat)
                if up is not None:
                    _check_prompt(up)
        if state["over"]:
            break
        (who,) = TITLE.prompts(state)
        _check_prompt(TITLE.prompts(state)[who])
        seq += 1
        state = TITLE.apply(state, who, TITLE.bot_answer(state, who, step_rng(seed, seq)), step_rng(seed, seq))
    for e in state["log"]:
        assert _marked(e["text"]), e
        for line in (e.get("private") or {}).values():
            assert _marked(line), e
        if "reveal" in e:
            assert _marked(e["reveal"]), e
    result = TITLE.outcome(state)
    assert all(_marked(label) for label, _ in result.breakdown[0])
    assert result.tiebreak == "" or _marked(result.tiebreak)
    assert _marked(state["end_reason"])


def test_refusals_are_messages():
    s = arrange(table(), s0={"hand": ["matcha", "espresso", "donut", "bagel"], "coins": 2})
    for seat, answer in [(0, "add:matcha"), (1, "add:matcha"), (0, "add:latte"), (0, "nonsense"), (0, "pass")]:
        with pytest.raises(IllegalMove) as refused:
            TITLE.apply(s, seat, answer, rng())
        assert _marked(refused.value.message), refused.value.message


def test_a_stored_log_of_plain_english_still_reads():
    s = table(3)
    s["log"] = [{"text": "P0 starts (chosen at random)."}, *s["log"]]
    log = TITLE.view(s, 0)["log"]
    assert log[0] == "P0 starts (chosen at random)."
    assert english(log[1]).startswith("The display shows ")


def test_the_drawing_says_every_word_through_its_say():
    s = arrange(table(3), s0={"regulars": ["lemonade"], "cafe": ["croissant"]})
    heard: list[Any] = []

    def say(value: Any) -> str:
        heard.append(value)
        return "¤"

    pic = pictures.draw(TITLE.view(s, 0), cardset_of(s), None, 0, say=say)
    assert heard and all(_marked(v) for v in heard)
    assert pic["cafes"][0]["title"] == "¤" and pic["hand"][0]["name"] == "¤"
    assert "Your café" not in str(pic) and "Latte" not in str(pic)
