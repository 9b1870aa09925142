"""The small surface every title offers (see DESIGN.md, "The title protocol").

A title is a module (or object) with these attributes. State is plain JSON data (dicts, lists,
str, int, bool, None) so the service can store it, replay it and compare it exactly. Seats are
ints 0..n-1 in turn order as seated.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol

from .prompts import Prompt

State = dict[str, Any]


@dataclass
class Outcome:
    """The end of a game as the rulebook scores it."""

    scores: dict[int, int]
    # per seat: ordered (category label, points) pairs that add up to the score
    breakdown: dict[int, list[tuple[str, int]]]
    winners: list[int]
    # how the winners were decided when scores tied, in words ("shared win", "most coins"...)
    tiebreak: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


class Title(Protocol):
    slug: str
    name: str
    min_players: int
    max_players: int

    def setup(self, players: list[str], options: dict[str, Any], rng: random.Random) -> State:
        """A new table. `players` are display names in seat order. Raise OptionsError."""

    def prompts(self, state: State) -> dict[int, Prompt]:
        """Who must decide now, and what. Several seats = a simultaneous decision."""

    def apply(self, state: State, seat: int, answer: Any, rng: random.Random) -> State:
        """A new state (the input is not changed), or raise IllegalMove."""

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What that seat may see (None = spectator; everything once the game is over).

        The only thing a page, email or API ever gets, so it must hold nothing the seat may not
        see (other hands, deck order, sealed answers). Shape, shared by every title so the
        generic page and email can draw any of them:
          {"status": "one line: whose turn, what phase",
           "panels": [{"title": "Your hand",
                       "cards": [{"id", "name", "kind", "lines": [str, ...]}],   # optional
                       "lines": [str, ...],                                       # optional
                       "table": {"header": [str], "rows": [[str]]}}],             # optional
           "log": [str, ...],          # engine.log.read(state["log"], seat), oldest first
           "data": {...}}              # title-specific structured facts for richer drawings
        """

    def outcome(self, state: State) -> Outcome | None:
        """None while the game goes on."""

    def default_answer(self, state: State, seat: int) -> Any:
        """A safe legal answer when a deadline passes."""

    def bot_answer(self, state: State, seat: int, rng: random.Random) -> Any:
        """A bot's legal answer."""

    # Optional: `upcoming(state, seat) -> Prompt | None`, the question this seat will most likely be
    # asked next while others act before it in the same round (a draft pick, an action in turn
    # order). The seat page and email offer to leave answers for it in advance (conditional
    # answers, DESIGN.md); they are tried in order when the question arrives, if still legal.
    #
    # Optional: `shared_state_keys: tuple[str, ...]`, top-level keys of the state that hold data
    # fixed at setup (a card catalogue). The service stores each such value once for all games
    # instead of in every saved state; the engine still sees them in the state as usual.


@dataclass(frozen=True)
class OptionField:
    """One game option an organiser sets at creation; the create form is generated from these."""

    name: str
    label: str
    kind: str  # "choice" | "bool" | "int"
    default: Any
    choices: tuple[tuple[str, str], ...] = ()
    low: int | None = None
    high: int | None = None
    help: str = ""
