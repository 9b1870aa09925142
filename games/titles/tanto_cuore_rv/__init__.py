"""Tanto Cuore: Romantic Vacation, the deck-building maid game, as a pure title.

Modules: cards (data loading), state (a new table and helpers on the state), turn (phases and
prompts), effects (card texts), scoring, view, bots, invariants, drawing (the table as pictures).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from games.engine import Outcome, Prompt, TitleBase

from . import bots, cards, drawing, scoring, turn, view
from .cards import load_cardset
from .invariants import check_invariants
from .state import MAX_PLAYERS, MIN_PLAYERS, State, options_schema, setup


class TantoCuoreRV(TitleBase):
    slug = "tanto_cuore_rv"
    name = "Tanto Cuore: Romantic Vacation"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS

    # What it offers besides the rules (games/engine/protocol.py: Title)
    folder = Path(__file__).parent  # templates/ and static/ are here
    page_template = "table.html"  # the seat page's table (templates/)
    email_template = "email.html"  # the email's table
    rules_summary = "rules.html"  # its rules in short, in our words (templates/): the rules page
    drawing = drawing  # the table as pictures
    cardset_kind = cards.CARDSET  # its card set's files, loader and counts (games.engine.cards.SetKind)
    card_face = staticmethod(drawing.card_face)  # the card set preview
    # the card catalogue in every state never changes: stored once for all games (games/state_parts.py)
    shared_state_keys = ("cards",)
    # the card data words a player reads (catalogue msgctxt "tanto_cuore_rv:card"): names, titles, texts
    card_words = ("name", "title", "text")

    def __init__(self) -> None:
        self.options_schema = options_schema()

    def setup(self, players: list[str], options: dict[str, Any], rng: random.Random) -> State:
        return turn.begin(setup(players, options, rng), rng)

    def prompts(self, state: State) -> dict[int, Prompt]:
        return turn.prompts(state)

    def apply(self, state: State, seat: int, answer: Any, rng: random.Random) -> State:
        return turn.apply(state, seat, answer, rng)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view.view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        return scoring.outcome(state)

    def default_answer(self, state: State, seat: int) -> Any:
        return bots.default_answer(state, seat)

    def bot_answer(self, state: State, seat: int, rng: random.Random) -> Any:
        return bots.bot_answer(state, seat, rng)

    @staticmethod
    def check_invariants(state: State) -> None:
        check_invariants(state)

    @staticmethod
    def turns_played(state: State) -> int:
        return state["turns"]


TITLE = TantoCuoreRV()

__all__ = ["TITLE", "check_invariants", "load_cardset"]
