"""Everything Café Romantica says to a person is a message (games/engine/messages.py), never a bare
English string: the log, the prompts and their options, the refusals and every word of a view. The
service renders messages in the reader's language; a bare string would read in English to all."""

from __future__ import annotations

import random
import re
from typing import Any

from games.engine import IllegalMove, step_rng
from games.engine.messages import english, is_msg
from games.titles.cafe_romantica import TITLE, drawing

WORDS = re.compile(r"[^\W\d_]{2,}")  # two letters in a row: words, not a number or "♥"
# keys whose values are ids, numbers or CSS words the code reads, never shown as words
KEYS = {"id", "kind", "phase", "field", "manager", "fave", "focus", "club", "options", "my_sealed", "answered"}


def _ref(value: Any) -> bool:
    return isinstance(value, dict) and bool({"$seat", "$card", "$list"} & set(value))


def unmarked(value: Any, where: str = "") -> list[str]:
    """Every bare string of words in `value` (messages and refs are words already marked)."""
    if is_msg(value) or _ref(value):
        return []
    if isinstance(value, str):
        return [f"{where}: {value!r}"] if WORDS.search(value) else []
    if isinstance(value, dict):
        return [bad for k, v in value.items() if k not in KEYS for bad in unmarked(v, f"{where}.{k}")]
    if isinstance(value, list | tuple):
        return [bad for i, v in enumerate(value) for bad in unmarked(v, f"{where}[{i}]")]
    return []


def prompt_words(prompt: Any) -> list[Any]:
    out = [prompt.text]
    for o in getattr(prompt, "options", ()):
        out += [o.label, o.detail] if o.detail else [o.label]
    for _, part in getattr(prompt, "parts", ()):
        out += prompt_words(part)
    return out


def test_a_bot_game_says_everything_in_messages():
    state = TITLE.setup(["Ana", "Ben", "Cy"], {"turn_cap": 12}, step_rng("messages", 0))
    bad: list[str] = []
    for step in range(1, 2000):
        for seat in (None, 0, 1, 2):
            view = TITLE.view(state, seat)
            bad += unmarked({k: v for k, v in view.items() if k != "data"}, f"view({seat})")
            for i, s in enumerate(view["data"]["seats"]):
                bad += unmarked(s, f"view({seat}).data.seats[{i}]")
        prompts = TITLE.prompts(state)
        if not prompts:
            break
        for seat, prompt in prompts.items():
            bad += unmarked(prompt_words(prompt), f"prompt({seat})")
            upcoming = TITLE.upcoming(state, seat)
            if upcoming is not None:
                bad += unmarked(prompt_words(upcoming), f"upcoming({seat})")
        seat = min(prompts)
        rng = step_rng("messages", step)
        try:  # a refusal is a message too
            TITLE.apply(state, seat, "not an answer", random.Random(0))
        except IllegalMove as e:
            bad += unmarked(e.message, "refusal")
        state = TITLE.apply(state, seat, TITLE.bot_answer(state, seat, rng), rng)
    assert TITLE.outcome(state) is not None
    for i, e in enumerate(state["log"]):
        bad += unmarked(e, f"log[{i}]")
    outcome = TITLE.outcome(state)
    bad += unmarked([outcome.tiebreak, [label for rows in outcome.breakdown.values() for label, _ in rows]], "outcome")
    for field in TITLE.options_schema:
        bad += unmarked([field.label, field.help, [label for _, label in field.choices]], f"option {field.name}")
    assert not bad, "\n".join(bad[:20])


def test_the_drawing_says_its_words_through_the_renderer_it_is_given():
    """Every word drawn goes through `say`: with a renderer that marks what it renders, no word of
    the pictures' texts is left unmarked (the SVGs are checked for an English word that was not)."""
    state = TITLE.setup(["Ana", "Ben", "Cy"], {}, step_rng("drawing", 0))
    for step in range(1, 80):
        prompts = TITLE.prompts(state)
        seat = min(prompts)
        rng = step_rng("drawing", step)
        state = TITLE.apply(state, seat, TITLE.bot_answer(state, seat, rng), rng)
    seen: list[str] = []

    def say(value: Any) -> str:
        text = english(value, dict(enumerate(state["names"])))
        seen.append(text)
        return "«" + text.upper() + "»"

    pic = drawing.draw(TITLE.view(state, 0), drawing.catalogue(state), None, 0, say=say)
    assert seen
    for word in ("Shines", "cost", "Field", "club", "Agenda", "rolled", "order", "Manager"):
        loose = [s for s in _texts(pic) if re.search(rf"(?<![«\w]){word}\b", _unsaid(s))]
        assert not loose, f"{word!r} drawn without the renderer: {loose[:2]}"


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _texts(v)]
    if isinstance(value, list | tuple):
        return [t for v in value for t in _texts(v)]
    return []


def _unsaid(text: str) -> str:
    """The text without what the renderer said (between « and »), nor SVG markup."""
    return re.sub(r"<[^>]*>", " ", re.sub(r"«[^»]*»", " ", text))
