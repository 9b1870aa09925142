"""A turn of several steps by one seat, walked in order against the pure engine (no Django).

A player may answer several questions of their own turn in one send (Café's placement and
actions, queued on the grid). Each answer is read against the question as it stands after the one
before, and the whole run is judged before anything is written: the write path
(write.play_steps_locked) plays it under one lock and one version check, and the seat page's
preview (play.preview_steps) draws the table after it, writing nothing.

Only steps of the same seat's same turn go together, where the title says its questions may be
queued (`TITLE.queue_steps`: answering them reveals nothing hidden and depends on nothing hidden).
A step after which the seat is no longer asked, another seat is asked, something is drawn at
random, a hidden card shows, or the game ends, ends the run: nothing may follow it, and the
preview does not draw what it reveals.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from games.engine import IllegalMove
from games.engine.protocol import State, Title
from games.messages import refusal, say

MAX_STEPS = 24  # more than any turn needs (Café: a placement, up to 8 actions, a few free clears)


class Refused(Exception):
    """A run that cannot be played: which step (`index`, from 0), its words (`label`), and why."""

    def __init__(self, index: int, label: str, why: str, code: str, offered: bool = True):
        super().__init__(why)
        self.index = index
        self.label = label
        self.why = why
        self.code = code
        self.offered = offered  # False: the answer is not among the question's choices now

    def message(self, ending: str) -> str:
        """'Your 3rd step, Deliver 2 red…, was refused: why. <ending>' in a person's words (`why` is
        the detail each code's sentence holds: the engine's reason, or why the turn ends)."""
        values = {"ordinal": ordinal(self.index + 1), "label": self.label, "why": self.why.rstrip()}
        sentences = SENTENCES.get(self.code, SENTENCES["illegal"])
        said = (sentences[1] if self.label and len(sentences) > 1 else sentences[0]) % values
        return f"{said} {ending}".strip()


# each refusal's sentence: (without the step's label, with it)
SENTENCES = {
    "empty": (gettext_lazy("Your %(ordinal)s step is missing: there is nothing to play."),),
    "too_many": (gettext_lazy("Your %(ordinal)s step is one too many: a turn takes at most %(why)s steps."),),
    "not_asked": (gettext_lazy("Your %(ordinal)s step could not be played: nothing is asked of your seat by then."),),
    "alone": (gettext_lazy("These answers cannot be sent together: this question is answered on its own."),),
    "illegal": (
        gettext_lazy("Your %(ordinal)s step was refused: %(why)s"),
        gettext_lazy("Your %(ordinal)s step, %(label)s, was refused: %(why)s"),
    ),
    "ends_turn": (
        gettext_lazy("Your %(ordinal)s step ends your turn (%(why)s), so nothing can be sent after it."),
        gettext_lazy("Your %(ordinal)s step, %(label)s, ends your turn (%(why)s), so nothing can be sent after it."),
    ),
}


@dataclass(frozen=True)
class Step:
    """One step of the run: the answer as the question reads it, its words, and the table after it.

    `ends`: why nothing may follow this step ("" if the seat's turn goes on); `private`: why the table
    after it may not be drawn in a preview ("" if it may), both in words."""

    answer: Any
    label: str
    state: State
    ends: str = ""
    private: str = ""


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th... 11th, 12th, 13th, 21st (in English; each language says its own)."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    forms = {
        "st": pgettext("ordinal number ending in 1", "%(n)sst"),
        "nd": pgettext("ordinal number ending in 2", "%(n)snd"),
        "rd": pgettext("ordinal number ending in 3", "%(n)srd"),
        "th": pgettext("ordinal number", "%(n)sth"),
    }
    return forms[suffix] % {"n": n}


def label_of(prompt, answer: Any) -> str:
    """The words of an answer as the question offers it ("Produce yellow at row 0, col 0"), or ""."""
    if getattr(prompt, "kind", "") != "choose" or not isinstance(answer, str):
        return ""
    return next((say(o.label) for o in prompt.options if o.id == answer), "")


def seen_cards(engine: Title, state: State, seat: int) -> set[str]:
    """The card ids a seat's view shows in its panels (the cards it can see now)."""
    return {
        c.get("id")
        for p in engine.view(state, seat).get("panels", [])
        for c in p.get("cards", []) or []
        if isinstance(c, dict)
    }


def _validated(prompt, answer: Any) -> Any:
    try:
        return prompt.validate(answer)
    except (TypeError, ValueError):  # a value no form could send (a list of mixed types for an order)
        raise IllegalMove(_("That is not an answer to this question.")) from None


def walk(
    engine: Title,
    state: State,
    seat: int,
    answers: list[Any],
    rng: Callable[[int], random.Random],
    probe: Callable[[int], random.Random],
    judge_last: bool = False,
) -> list[Step]:
    """Apply `answers` in order for `seat`, or raise Refused naming the step that cannot be played.

    `rng(i)` is step i's generator (the write path: the game's, by seq; a preview: never the
    game's), `probe(i)` another one, to tell a step that draws at random. Every step but the last
    must leave the seat's turn going on; with `judge_last` the last one is judged too (a preview
    must know whether it may draw the table after it).
    """
    if not answers:
        raise Refused(0, "", "", "empty")
    if len(answers) > MAX_STEPS:
        raise Refused(MAX_STEPS, "", str(MAX_STEPS), "too_many")
    out: list[Step] = []
    seen: set[str] | None = None
    for i, answer in enumerate(answers):
        prompts = engine.prompts(state)
        prompt = prompts.get(seat)
        if prompt is None:
            raise Refused(i, "", "", "not_asked")
        label = label_of(prompt, answer)
        if len(answers) > 1 and not (engine.queue_steps and engine.queue_steps(state, seat)):
            raise Refused(i, label, "", "alone")
        try:
            answer = _validated(prompt, answer)
            after = engine.apply(state, seat, answer, rng(i))
        except IllegalMove as e:
            offered = bool(label) or getattr(prompt, "kind", "") != "choose"
            raise Refused(i, label, refusal(e), "illegal", offered=offered) from None
        last = i == len(answers) - 1
        if last and not judge_last:
            out.append(Step(answer, label, after))
            break
        if seen is None:
            seen = seen_cards(engine, state, seat)
        ends, private, seen = _judge(engine, state, after, seat, answer, prompts, probe(i), seen)
        if ends and not last:
            raise Refused(i, label, ends, "ends_turn")
        out.append(Step(answer, label, after, ends, private))
        state = after
    return out


def _judge(
    engine: Title,
    before: State,
    after: State,
    seat: int,
    answer: Any,
    asked: dict,
    probe: random.Random,
    seen: set[str],
) -> tuple[str, str, set[str]]:
    """(why the turn ends here, why the table after may not be shown, the cards seen after)."""
    if engine.outcome(after) is not None:
        return _("it ends the game"), _("it ends the game"), seen
    now = engine.prompts(after)
    if set(now) - set(asked):
        return _("it hands the move to another player"), _("it hands the move to another player"), seen
    try:
        again = engine.apply(before, seat, answer, probe)
    except IllegalMove:
        again = None
    if again != after:
        return _("it draws at random"), _("it draws at random"), seen
    seen_after = seen_cards(engine, after, seat)
    if seen_after - seen:
        return _("it shows you a card that was hidden"), _("it shows you a card that was hidden"), seen_after
    if seat not in now:
        return _("you have nothing more to answer this turn"), "", seen_after
    if not (engine.queue_steps and engine.queue_steps(after, seat)):
        return _("what follows it is answered on its own"), "", seen_after
    return "", "", seen_after
