"""Café Romantica: build a café club of charming boys, bid for turn order, complete three agendas."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from games.engine import OptionField, TitleBase
from games.engine.messages import msg

from . import bots, cards, drawing, scoring, state, turn, view
from .cards import load_cardset
from .invariants import check_invariants

__all__ = ["TITLE", "load_cardset"]


class CafeRomantica(TitleBase):
    slug = "cafe_romantica"
    name = "Café Romantica"
    min_players = 2
    max_players = 4
    options_schema = [
        OptionField(
            "turn_cap",
            msg("Turn cap"),
            "int",
            0,
            low=0,
            high=500,
            help=msg("End after this many turns (0 = play until someone wins): most agendas, then most club ♥ wins."),
        ),
        OptionField(
            "pooling",
            msg("Pool ♥ between turns"),
            "bool",
            False,
            help=msg("The rulebook's suggested house rule: unspent ♥ carry over to the next turn."),
        ),
    ]

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
    # the card data's words a player reads (seeds/cafe_romantica/): names and card texts, each a
    # card_ref in the messages, translated under msgctxt "cafe_romantica:card"
    card_words = ("name", "text")

    setup = staticmethod(state.setup)
    prompts = staticmethod(turn.prompts)
    apply = staticmethod(turn.apply)
    view = staticmethod(view.view)
    outcome = staticmethod(scoring.outcome)
    default_answer = staticmethod(turn.default_answer)
    check_invariants = staticmethod(check_invariants)
    turns_played = staticmethod(state.turns_played)
    # the action question of a seat acting later this turn, from the field and its ♥ as they are now
    upcoming = staticmethod(turn.upcoming)

    @staticmethod
    def bot_answer(state: dict[str, Any], seat: int, rng: random.Random) -> Any:
        return bots.bot_answer(state, seat, rng)


TITLE = CafeRomantica()
