"""Café (Rôla & Costa, 2020): build a coffee supply chain from plan cards over 8 rounds.

Rules decisions are listed in README.md next to this file; card data is in seeds/cafe/.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from games.engine import Outcome, Prompt, TitleBase
from games.engine.messages import msg
from games.engine.protocol import OptionField

from . import bots, cards, drawing, scoring, taps, turn, view
from .cards import COLOURS, CUBES_PER_COLOUR, load_cardset
from .invariants import check_invariants
from .state import setup


class Cafe(TitleBase):
    slug = "cafe"
    name = "Café"
    min_players = 1
    max_players = 4
    options_schema = [
        OptionField(
            name="first_master",
            label=msg("First master"),
            kind="choice",
            default="random",
            choices=(("random", msg("Drawn at random")), ("first", msg("The first seat"))),
            help=msg(
                "The rulebook gives the master token to whoever drank coffee last; here it is drawn or the first seat."
            ),
        )
    ]

    # What it offers besides the rules (games/engine/protocol.py: Title)
    folder = Path(__file__).parent  # templates/ and static/ are here
    page_template = "table.html"  # the seat page's table (templates/)
    email_template = "email.html"  # the email's table
    rules_summary = "rules.html"  # its rules in short, in our words (templates/): the rules page
    drawing = drawing  # the table as pictures
    card_face = staticmethod(drawing.card_face)  # the card set preview: each plan card drawn
    cardset_kind = cards.CARDSET  # its card set's files, loader and counts (games.engine.cards.SetKind)
    # the card catalogue in every state never changes: stored once for all games (games/state_parts.py)
    shared_state_keys = ("cards",)
    # the words of its card data a player reads (card_ref): the companies and the solo ranks
    card_words = ("company", "title")
    # a seat's placement and actions may be queued and sent together, the area previewed after each
    queue_steps = staticmethod(taps.queue_steps)

    def setup(self, players: list[str], options: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        return setup(players, options, rng)

    def prompts(self, state: dict[str, Any]) -> dict[int, Prompt]:
        return turn.prompts(state)

    def apply(self, state: dict[str, Any], seat: int, answer: Any, rng: random.Random) -> dict[str, Any]:
        return turn.apply(state, seat, answer, rng)

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return view.view(state, seat)

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        return scoring.score(state) if state["phase"] == "over" else None

    def upcoming(self, state: dict[str, Any], seat: int) -> Prompt | None:
        """The draft pick of a seat that picks later this round, from the display as it is now."""
        return turn.upcoming_prompt(state, seat)

    def default_answer(self, state: dict[str, Any], seat: int) -> Any:
        return bots.default_answer(state, seat)

    def bot_answer(self, state: dict[str, Any], seat: int, rng: random.Random) -> Any:
        return bots.bot_answer(state, seat, rng)

    @staticmethod
    def check_invariants(state: dict[str, Any]) -> None:
        check_invariants(state)

    @staticmethod
    def turns_played(state: dict[str, Any]) -> int:
        """Rounds completed (8 for a finished game)."""
        return state["round"] if state["phase"] == "over" else state["round"] - 1


TITLE = Cafe()

__all__ = ["COLOURS", "CUBES_PER_COLOUR", "TITLE", "check_invariants", "load_cardset"]
