"""How the write path reads an answer against its question, under the game's lock, in one place.

An answer reaches games.actions.play.submit raw, as its channel gave it: the fields of a posted
form (`Posted`), the text of an emailed reply (`Replied`), or an answer already built (a bot's, a
plan's, a deadline's default), which is taken as it is. The write path reads it with `read`
against the question as it stands once the game is locked, so the web and email are judged alike
against the question actually being asked, and the state is read once per answer.

A form that cannot be read is refused like an illegal answer ("... Nothing was played."); a reply
that cannot be read is refused in the reply reader's own words (`Unread`), as its email has always
said them. Pure: no Django (a posted form is anything with `get` and `getlist`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from games.engine import IllegalMove
from games.engine.messages import msg, nmsg
from games.engine.typed import read_int
from games.reply_text import answer_text

STEPS_CHARS = 20_000  # a queued turn's answers as posted: far more than any turn's option ids
NO_ANSWER = msg("We found no answer at the top of your reply. Write the number of your choice on the first line.")


class Unread(Exception):
    """A reply whose answer could not be read; its message (words, or a message of
    games/engine/messages.py) is said to the player in their language."""


def answer_from_post(p: dict[str, Any], post, prefix: str = "answer") -> Any:
    """Read a posted form into the answer shape of the prompt; IllegalMove if it cannot be read."""
    kind = p["kind"]
    if kind == "choose":
        value = post.get(prefix)
        if not value:
            raise IllegalMove(msg("Pick one of the choices before sending."))
        return value
    if kind == "choose_many":
        return post.getlist(prefix)
    if kind == "number":
        return read_int(post.get(prefix) or "")
    if kind == "order":
        ranks = {}
        n = len(p["options"])
        for o in p["options"]:
            raw = post.get(f"{prefix}.{o['id']}") or ""
            if not raw.strip():
                raise IllegalMove(msg("Give every choice a number."))
            ranks[o["id"]] = read_int(raw, low=1, high=n)
        if sorted(ranks.values()) != list(range(1, len(ranks) + 1)):
            raise IllegalMove(msg("Use each number from 1 to %(n)s once.", n=len(ranks)))
        return sorted(ranks, key=ranks.get)
    if kind == "composite":
        return {part["name"]: answer_from_post(part, post, f"{prefix}.{part['name']}") for part in p["parts"]}
    raise IllegalMove(msg("This question cannot be answered from a form."))


@dataclass(frozen=True)
class Posted:
    """A posted answer form: its fields, read against the question once the game is locked.

    The page's question may be stale by then; reading it under the lock means the form is judged
    against the question actually being asked.
    """

    post: Any

    def read(self, prompt) -> Any:
        return answer_from_post(prompt.to_dict(), self.post)


@dataclass(frozen=True)
class Replied:
    """An emailed reply's text (games.reply_text.body_of), read against the question once the game is
    locked: its first line, or a line per part of a composite question."""

    body: str

    def read(self, prompt) -> Any:
        parts = len(getattr(prompt, "parts", ()) or ()) or 1
        text = answer_text(self.body, parts)
        try:
            if not text:
                raise IllegalMove(NO_ANSWER)
            return prompt.parse_text(text)
        except IllegalMove as e:
            raise Unread(e.message or NO_ANSWER) from None


def read(answer: Any, prompt) -> Any:
    """The answer a raw one gives for this question (IllegalMove or Unread if none); a built one as it is."""
    if isinstance(answer, (Posted, Replied)):
        return answer.read(prompt)
    return answer


def read_steps(raw: Any, most: int) -> list[Any]:
    """A queued turn's answers as its page posts them: a JSON list of answers, each as the question
    takes it (an option id for a pick). IllegalMove in words if it is not such a list; the answers
    themselves are judged by the write path against each question in turn."""
    if not isinstance(raw, str) or not raw.strip():
        raise IllegalMove(msg("No steps were sent: choose your steps on the table, then send them."))
    if len(raw) > STEPS_CHARS:
        raise IllegalMove(msg("Too much was sent for one turn."))
    try:
        answers = json.loads(raw)
    except (ValueError, RecursionError):
        raise IllegalMove(msg("The steps sent could not be read. Reload the page and choose them again.")) from None
    if not isinstance(answers, list) or not answers:
        raise IllegalMove(msg("The steps sent could not be read. Reload the page and choose them again."))
    if len(answers) > most:
        raise IllegalMove(
            nmsg(
                "A turn takes at most %(most)s steps; %(n)s was sent.",
                "A turn takes at most %(most)s steps; %(n)s were sent.",
                "n",
                most=most,
                n=len(answers),
            )
        )
    return answers
