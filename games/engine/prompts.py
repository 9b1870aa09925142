"""Typed prompts: what a seat is asked, as data.

The web form, the email's option list, reply-by-email parsing and the bots are all generated
from these, so one prompt type renders (and validates) one way everywhere. Answers are plain
JSON values naming stable ids (card ids, not positions), so they can be stored in the event
log and left in advance as conditional answers.

Answer shapes:
  Choose      -> "option-id"
  ChooseMany  -> ["option-id", ...]  (distinct, order kept)
  Number      -> int
  Order       -> ["option-id", ...]  (a permutation of all options)
  Composite   -> {"part-name": <answer of that part>, ...}
"""

from __future__ import annotations

import random
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalMove
from .messages import english, msg, nmsg
from .typed import Unreadable, read_int

# a reply that picks nothing, in English; a reader's own language adds its words (games.messages)
NONE_WORDS = frozenset({"none", "nothing", "-"})


@dataclass(frozen=True)
class Option:
    """One thing a seat may pick: a stable id, a short label, and a line of detail."""

    id: str
    label: str
    detail: str = ""


def _by_id(options: tuple[Option, ...]) -> dict[str, Option]:
    return {o.id: o for o in options}


def _match_token(options: tuple[Option, ...], token: str) -> str | None:
    """Read one token of a typed reply: an option number (1-based), id or label."""
    token = token.strip().strip(".,;:)").strip()
    if not token:
        return None
    if unicodedata.decimal(token[0], None) is not None:  # a number, in any script's digits
        try:
            return options[read_int(token, low=1, high=len(options)) - 1].id
        except Unreadable:
            pass  # not a number after all ("2nd"), or out of range: perhaps a label
    low = token.casefold()
    for o in options:
        # a shown prompt's labels are the reader's words; an engine's own are messages, read in English
        if o.id.casefold() == low or english(o.label).casefold() == low:
            return o.id
    return None


@dataclass(frozen=True)
class Choose:
    """Pick exactly one of the options."""

    text: str
    options: tuple[Option, ...]
    kind: str = field(default="choose", init=False)

    def validate(self, answer: Any) -> str:
        if not isinstance(answer, str) or answer not in _by_id(self.options):
            raise IllegalMove(msg("That is not one of the choices offered."))
        return answer

    def parse_text(self, text: str) -> str:
        picked = _match_token(self.options, text)
        if picked is None:
            shown = text.strip() if len(text.strip()) <= 40 else text.strip()[:40] + "…"
            raise IllegalMove(msg("“%(reply)s” is not one of the choices: answer with its number.", reply=shown))
        return picked

    def random_answer(self, rng: random.Random) -> str:
        return rng.choice(self.options).id

    def to_dict(self) -> dict:
        return {"kind": self.kind, "text": self.text, "options": [o.__dict__ for o in self.options]}


@dataclass(frozen=True)
class ChooseMany:
    """Pick between min_count and max_count distinct options."""

    text: str
    options: tuple[Option, ...]
    min_count: int
    max_count: int
    kind: str = field(default="choose_many", init=False)

    def validate(self, answer: Any) -> list[str]:
        if not isinstance(answer, list | tuple) or not all(isinstance(a, str) for a in answer):
            raise IllegalMove(msg("Pick from the choices offered."))
        ids = _by_id(self.options)
        if any(a not in ids for a in answer):
            raise IllegalMove(msg("That is not one of the choices offered."))
        if len(set(answer)) != len(answer):
            raise IllegalMove(msg("Each choice can be picked only once."))
        if not self.min_count <= len(answer) <= self.max_count:
            if self.min_count == self.max_count:
                raise IllegalMove(msg("Pick exactly %(count)s.", count=self.min_count))
            raise IllegalMove(msg("Pick between %(low)s and %(high)s.", low=self.min_count, high=self.max_count))
        return list(answer)

    def parse_text(self, text: str, none_words: frozenset[str] = frozenset()) -> list[str]:
        """`none_words`: the reader's own words for picking nothing (English's are always read)."""
        tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
        if tokens and tokens[0].casefold() in NONE_WORDS | none_words:
            return self.validate([])
        picked = [_match_token(self.options, t) for t in tokens]
        if any(p is None for p in picked):
            raise IllegalMove(msg("Answer with the numbers of your choices, separated by commas."))
        return self.validate(picked)

    def random_answer(self, rng: random.Random) -> list[str]:
        n = rng.randint(self.min_count, min(self.max_count, len(self.options)))
        return [o.id for o in rng.sample(self.options, n)]

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "text": self.text,
            "options": [o.__dict__ for o in self.options],
            "min_count": self.min_count,
            "max_count": self.max_count,
        }


@dataclass(frozen=True)
class Number:
    """A whole number in [low, high]."""

    text: str
    low: int
    high: int
    kind: str = field(default="number", init=False)

    def validate(self, answer: Any) -> int:
        if isinstance(answer, bool) or not isinstance(answer, int):
            raise IllegalMove(msg("Give a whole number."))
        if not self.low <= answer <= self.high:
            raise IllegalMove(msg("Give a number from %(low)s to %(high)s.", low=self.low, high=self.high))
        return answer

    def parse_text(self, text: str) -> int:
        token = (text.strip().split()[0] if text.strip() else "").strip(".,;:)")
        return self.validate(read_int(token))

    def random_answer(self, rng: random.Random) -> int:
        return rng.randint(self.low, self.high)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "text": self.text, "low": self.low, "high": self.high}


@dataclass(frozen=True)
class Order:
    """Put all the options in an order (first = top)."""

    text: str
    options: tuple[Option, ...]
    kind: str = field(default="order", init=False)

    def validate(self, answer: Any) -> list[str]:
        ids = [o.id for o in self.options]
        if not isinstance(answer, list | tuple) or sorted(answer) != sorted(ids):
            raise IllegalMove(msg("Put every choice in order, each once."))
        return list(answer)

    def parse_text(self, text: str) -> list[str]:
        tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
        picked = [_match_token(self.options, t) for t in tokens]
        if any(p is None for p in picked):
            raise IllegalMove(msg("Answer with the numbers in the order you want, separated by commas."))
        return self.validate(picked)

    def random_answer(self, rng: random.Random) -> list[str]:
        ids = [o.id for o in self.options]
        rng.shuffle(ids)
        return ids

    def to_dict(self) -> dict:
        return {"kind": self.kind, "text": self.text, "options": [o.__dict__ for o in self.options]}


@dataclass(frozen=True)
class Composite:
    """Several named parts answered together (e.g. a bid per position)."""

    text: str
    parts: tuple[tuple[str, Prompt], ...]
    kind: str = field(default="composite", init=False)

    def validate(self, answer: Any) -> dict[str, Any]:
        if not isinstance(answer, dict) or set(answer) != {name for name, _ in self.parts}:
            raise IllegalMove(msg("Answer every part of the question."))
        return {name: part.validate(answer[name]) for name, part in self.parts}

    def parse_text(self, text: str, none_words: frozenset[str] = frozenset()) -> dict[str, Any]:
        lines = [ln for ln in text.strip().splitlines() if ln.strip()]
        if len(lines) < len(self.parts):
            raise IllegalMove(
                nmsg(
                    "Answer each of the %(count)s parts on its own line.",
                    "Answer each of the %(count)s parts on its own line.",
                    "count",
                    count=len(self.parts),
                )
            )
        return {
            name: part.parse_text(line, none_words)
            if isinstance(part, ChooseMany | Composite)
            else part.parse_text(line)
            for (name, part), line in zip(self.parts, lines, strict=False)
        }

    def random_answer(self, rng: random.Random) -> dict[str, Any]:
        return {name: part.random_answer(rng) for name, part in self.parts}

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "text": self.text,
            "parts": [{"name": name, **part.to_dict()} for name, part in self.parts],
        }


Prompt = Choose | ChooseMany | Number | Order | Composite


def prompt_key(prompt: Prompt) -> str:
    """A short fingerprint of a question, so a stale form or an old email can tell whether the seat
    is still asked the same thing."""
    return key_of(prompt.to_dict())


def key_of(asked: dict) -> str:
    """prompt_key of a question already turned into its dict (an email writes both)."""
    from .cards import content_hash

    return content_hash(asked)[:16]
