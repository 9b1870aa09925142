"""Café Baras (Kids Table Board Gaming, 2024): build the coziest capybara café. 2-4 players.

The table: state.py; the turn (prompts and answers): turn.py; the end: scoring.py (rules decisions in
README.md); bots: bots.py; views: view.py; the table as pictures: drawing.py; card data:
seeds/cafe_baras/ loaded by cards.load_cardset().
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from games.engine.prompts import Prompt
from games.engine.protocol import OptionField, Outcome, TitleBase

from . import bots, cards, drawing, scoring, turn, view
from .cards import load_cardset
from .invariants import check_invariants
from .state import MAX_PLAYERS, MIN_PLAYERS, State, setup


class CafeBaras(TitleBase):
    slug = "cafe_baras"
    name = "Café Baras"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    # The card set is the only option; it is not an organiser's form field (the service passes
    # options["cardset"] = load_cardset() and stores it in the game's first event).
    options_schema: list[OptionField] = []

    # What it offers besides the rules (games/engine/protocol.py: Title)
    folder = Path(__file__).parent  # templates/ and static/ are here
    page_template = "table.html"  # the seat page's table (templates/)
    email_template = "email.html"  # the email's table
    rules_summary = "rules.html"  # its rules in short, in our words (templates/): the rules page
    drawing = drawing  # the table as pictures
    cardset_kind = cards.CARDSET  # its card set's files, loader and counts (games.engine.cards.SetKind)
    card_face = staticmethod(drawing.card_face)  # the card set preview
    # the card catalogue in every state never changes: stored once for all games (games/state_parts.py)
    shared_state_keys = ("cardset",)
    # the card data a player reads as words (names, kinds, foods, decor types): card_ref in messages
    card_words = ("name", "kind", "food", "decor", "provides")

    def setup(self, players: list[str], options: dict[str, Any], rng: random.Random) -> State:
        return setup(players, options, rng)

    def prompts(self, state: State) -> dict[int, Prompt]:
        return turn.prompts(state)

    def apply(self, state: State, seat: int, answer: Any, rng: random.Random) -> State:
        return turn.apply(state, seat, answer, rng)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view.view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        return scoring.outcome(state)

    def upcoming(self, state: State, seat: int) -> Prompt | None:
        """The first question of this seat's next turn (add or serve a hand card), while others play."""
        return turn.upcoming(state, seat)

    def default_answer(self, state: State, seat: int) -> Any:
        return turn.default_answer(state, seat)

    def bot_answer(self, state: State, seat: int, rng: random.Random) -> Any:
        return bots.bot_answer(state, seat, rng)

    def check_invariants(self, state: State) -> None:
        check_invariants(state)

    def turns_played(self, state: State) -> int:
        return state["turns"]

    def load_cardset(self, path: Any = None) -> dict[str, Any]:
        return load_cardset(path)


TITLE = CafeBaras()

__all__ = ["TITLE", "check_invariants", "load_cardset"]
