"""Café Baras (Kids Table Board Gaming, 2024): build the coziest capybara café. 2-4 players.

Rules: rules.py (with the decisions in README.md); prompts: prompts.py; bots: bots.py; views: view.py;
card data: seeds/cafe_baras/ loaded by cards.load_cardset().
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from games.engine.prompts import Prompt
from games.engine.protocol import OptionField, Outcome, TitleBase

from . import bots, cards, drawing, prompts, rules, view
from .cards import load_cardset
from .invariants import check_invariants


class CafeBaras(TitleBase):
    slug = "cafe_baras"
    name = "Café Baras"
    folder = Path(__file__).parent  # templates/ and static/ are here
    page_template = "table.html"  # the seat page's table (templates/)
    email_template = "email.html"  # the email's table
    drawing = drawing  # the table as pictures
    cardset_kind = cards.CARDSET  # its card set's files, loader and counts (games.engine.cards.SetKind)
    card_face = staticmethod(drawing.card_face)  # the card set preview
    # the card catalogue in every state never changes: stored once for all games (games/state_parts.py)
    shared_state_keys = ("cardset",)
    min_players = rules.MIN_PLAYERS
    max_players = rules.MAX_PLAYERS
    # The card set is the only option; it is not an organiser's form field (the service passes
    # options["cardset"] = load_cardset() and stores it in the game's first event).
    options_schema: list[OptionField] = []

    def setup(self, players: list[str], options: dict[str, Any], rng: random.Random) -> rules.State:
        return rules.setup(players, options, rng)

    def prompts(self, state: rules.State) -> dict[int, Prompt]:
        return prompts.prompts(state)

    def apply(self, state: rules.State, seat: int, answer: Any, rng: random.Random) -> rules.State:
        return rules.apply(state, seat, answer, rng)

    def view(self, state: rules.State, seat: int | None) -> dict[str, Any]:
        return view.view(state, seat)

    def outcome(self, state: rules.State) -> Outcome | None:
        return rules.outcome(state)

    def upcoming(self, state: rules.State, seat: int) -> Prompt | None:
        """The first question of this seat's next turn (add or serve a hand card), while others play."""
        return prompts.upcoming(state, seat)

    def default_answer(self, state: rules.State, seat: int) -> Any:
        return prompts.default_answer(state, seat)

    def bot_answer(self, state: rules.State, seat: int, rng: random.Random) -> Any:
        return bots.bot_answer(state, seat, rng)

    def check_invariants(self, state: rules.State) -> None:
        check_invariants(state)

    def turns_played(self, state: rules.State) -> int:
        return state["turns"]

    def load_cardset(self, path: Any = None) -> dict[str, Any]:
        return load_cardset(path)


TITLE = CafeBaras()

__all__ = ["TITLE", "check_invariants", "load_cardset"]
