"""No unmarked string: everything Café says to a person is a message (games/engine/messages.py), so
every seat reads it in its own language; bare strings are only ids, codes and numbers."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from games.engine.messages import english, is_msg
from games.engine.prompts import Choose
from games.titles.cafe import TITLE, drawing

ID = re.compile(r"^[a-z0-9_:@+.,*\-]*$")  # "card17@r2c3:rot90", "bean:red", "roast*", "3"
DRAWN_CODE = re.compile(r"^[0-9YBGR+·★ ]*$")  # a picture's cube letters and counts: "2R", "1Y 1B", "+3"
# the keys of a picture whose values a person reads (the rest are classes, coordinates, paths)
WORD_KEYS = {"say", "word", "small", "code", "text", "label", "cost", "need_words", "held_words"}
WORD_KEYS |= {"warehouse_words", "email_sub", "name", "company"}


def _said(value: Any) -> bool:
    return is_msg(value) or (isinstance(value, dict) and ({"$seat", "$card", "$list"} & set(value)))


def _walk(tree: Any, path: str, bad: list[str], only: set[str] | None = None, key: str = "") -> None:
    if _said(tree):
        return
    if isinstance(tree, dict):
        for k, v in tree.items():
            _walk(v, f"{path}.{k}", bad, only, str(k))
    elif isinstance(tree, list | tuple):
        for i, v in enumerate(tree):
            _walk(v, f"{path}[{i}]", bad, only, key)
    elif isinstance(tree, str):
        if only is None and not ID.match(tree):
            bad.append(f"{path}: {tree!r}")
        elif only is not None and key in only and not DRAWN_CODE.match(tree):
            bad.append(f"{path}: {tree!r}")


def _check(state: dict[str, Any], bad: list[str]) -> None:
    for n, e in enumerate(state["log"]):
        for who, text in [("text", e["text"]), *e.get("private", {}).items()]:
            if not _said(text):
                bad.append(f"log[{n}].{who}: {text!r}")
    for seat, prompt in TITLE.prompts(state).items():
        assert isinstance(prompt, Choose)
        if not is_msg(prompt.text):
            bad.append(f"prompt {seat}: {prompt.text!r}")
        for o in prompt.options:
            if not is_msg(o.label) or not (o.detail == "" or _said(o.detail)):
                bad.append(f"option {o.id}: {o.label!r} / {o.detail!r}")
    for seat in [None, *range(len(state["seats"]))]:
        view = TITLE.view(state, seat)
        _walk({k: v for k, v in view.items() if k != "data"}, f"view({seat})", bad)
        _walk(view["data"], f"view({seat}).data", bad, only={"label", "name", "company", "lines", "title", "text"})
        _walk(drawing.draw(view, None, None, seat), f"picture({seat})", bad, only=WORD_KEYS)


@pytest.mark.parametrize("players", [1, 3])
def test_a_bot_game_says_everything_in_messages(players):
    rng = random.Random(f"messages-{players}")
    state = TITLE.setup([f"P{i + 1}" for i in range(players)], {}, rng)
    bad: list[str] = []
    step = 0
    while TITLE.outcome(state) is None:
        if step % 7 == 0:  # every step would be slow: the views are drawn for every seat
            _check(state, bad)
        seat = min(TITLE.prompts(state))
        state = TITLE.apply(state, seat, TITLE.bot_answer(state, seat, rng), rng)
        step += 1
    _check(state, bad)
    out = TITLE.outcome(state)
    for labels in out.breakdown.values():
        bad += [f"breakdown: {label!r}" for label, _ in labels if not is_msg(label)]
    if out.tiebreak and not is_msg(out.tiebreak):
        bad.append(f"tiebreak: {out.tiebreak!r}")
    for f in TITLE.options_schema:
        for value in (f.label, f.help, *(label for _, label in f.choices)):
            if not is_msg(value):
                bad.append(f"option field {f.name}: {value!r}")
    assert not bad, "\n".join(bad[:20])
    # and it all still reads in English, with the players' names
    names = dict(enumerate(state["names"]))
    first = english(TITLE.view(state, 0)["log"][0], names)
    assert any(first.startswith(name) for name in names.values()), first
