"""No unmarked string: everything the title says to a person is a message (or a seat, card or list
reference), so the service can say it in the reader's language; ids, numbers and signs are not words."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.engine import IllegalMove
from games.engine.messages import english, is_msg
from games.engine.rng import step_rng
from games.titles.tanto_cuore_rv import TITLE, drawing

from .helpers import table

WORDS = re.compile(r"[^\W\d_]", re.UNICODE)  # a letter: a string with one is words
IDS = {"id", "kind"}  # keys whose values are ids (a card id, a CSS class), never read


def is_ref(value: Any) -> bool:
    return isinstance(value, dict) and ("$seat" in value or "$card" in value or "$list" in value)


def said(value: Any, where: str) -> None:
    """`value` is a message or a reference, whose English has every placeholder filled."""
    assert is_msg(value) or is_ref(value), f"{where}: unmarked {value!r}"
    assert "%(" not in english(value), f"{where}: a placeholder left in {english(value)!r}"


def no_bare_words(tree: Any, where: str) -> None:
    """Every string leaf a person reads in `tree` is inside a message or a reference."""
    if is_msg(tree) or is_ref(tree):
        said(tree, where)
    elif isinstance(tree, dict):
        for k, v in tree.items():
            if k in IDS:
                continue
            no_bare_words(v, f"{where}.{k}")
    elif isinstance(tree, list | tuple):
        for i, v in enumerate(tree):
            no_bare_words(v, f"{where}[{i}]")
    elif isinstance(tree, str):
        assert not WORDS.search(tree), f"{where}: unmarked {tree!r}"


def strict_say(value: Any) -> str:
    """A drawing's `say` that refuses bare words: whatever it is given must be a message."""
    if isinstance(value, str):
        assert not WORDS.search(value), f"the drawing says unmarked {value!r}"
    elif not isinstance(value, int | float):
        said(value, "drawing")
    return english(value)


def check_step(s: dict[str, Any]) -> None:
    for i, e in enumerate(s["log"]):
        said(e["text"], f"log[{i}]")
        for seat, words in e.get("private", {}).items():
            said(words, f"log[{i}].private[{seat}]")
    prompts = TITLE.prompts(s)
    for p in prompts.values():
        said(p.text, "prompt")
        for o in getattr(p, "options", ()):
            said(o.label, f"option {o.id}")
            if o.detail:
                said(o.detail, f"option {o.id} detail")
    for seat in [None, *range(len(s["players"]))]:
        v = TITLE.view(s, seat)
        no_bare_words({k: v[k] for k in ("status", "panels", "log")}, f"view({seat})")
        p = prompts.get(seat)
        drawing.draw(v, drawing.catalogue(s), p.to_dict() if p else None, seat, say=strict_say)
    if s["over"]:
        res = TITLE.outcome(s)
        said(s["end_reason"], "end_reason")
        for rows in res.breakdown.values():
            for label, _points in rows:
                said(label, "score breakdown")
        if res.tiebreak:
            said(res.tiebreak, "tie-break")


@pytest.mark.parametrize("players,seed", [(2, "words-2"), (3, "words-3"), (5, "words-5")])
def test_a_bot_game_says_everything_in_messages(players, seed):
    s = TITLE.setup([f"P{i}" for i in range(players)], {"selection": "random"}, step_rng(seed, 0))
    seq = 0
    while not s["over"]:
        seq += 1
        if seq % 3 == 1:  # every step's log is checked at the end; the rest every third step (speed)
            check_step(s)
        seat = min(TITLE.prompts(s))
        s = TITLE.apply(s, seat, TITLE.bot_answer(s, seat, step_rng(seed, seq)), step_rng(seed, seq))
    check_step(s)


def test_refusals_and_options_are_messages():
    s = table(3)
    seat = min(TITLE.prompts(s))
    with pytest.raises(IllegalMove) as refused:
        TITLE.apply(s, (seat + 1) % 3, "end", step_rng("x", 1))
    said(refused.value.message, "refusal")
    for f in TITLE.options_schema:
        said(f.label, f"option {f.name}")
        if f.help:
            said(f.help, f"option {f.name} help")
        for _value, label in f.choices:
            said(label, f"option {f.name} choice")


def test_card_faces_say_their_words_through_say():
    cards = TITLE.setup(["a", "b"], {}, step_rng("faces", 0))["cards"]
    for cid in cards:
        assert drawing.card_face({"cards": cards}, "", cid, say=strict_say).startswith("<svg")
