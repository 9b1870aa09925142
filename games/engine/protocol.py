"""The small surface every title offers (see DESIGN.md, "The title protocol").

A title is an object (its package's TITLE) with these attributes. State is plain JSON data (dicts,
lists, str, int, bool, None) so the service can store it, replay it and compare it exactly. Seats
are ints 0..n-1 in turn order as seated.

`Title` names everything the service reads of a title: what every title must offer, then what a
title may offer (its drawing, card set kind, card preview, templates, rules summary, and the optional abilities),
each with its default in `TitleBase`, the class every title's class inherits. So the service reads
`title.upcoming` or `title.drawing` plainly (None: not offered) and never guesses with getattr.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .messages import english
from .prompts import Prompt

if TYPE_CHECKING:
    from .cards import SetKind

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
    # What every title offers.

    slug: str  # its package's name under games/titles/ (and its seeds/ folder's)
    name: str
    min_players: int
    max_players: int
    options_schema: list[OptionField]  # the organiser's options; the create form is generated from these

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

    # What a title may offer besides: each is declared by every title (TitleBase holds the defaults),
    # None (or empty) where the title does not offer it.

    folder: Path | None
    """The title's package folder: its templates/ and static/ are found under it (games/title_files.py)."""

    drawing: Drawing | None
    """The table as pictures (the title's drawing.py), for its page and email templates."""

    card_face: Callable[..., str] | None
    """The card preview: card_face(built set, file, card key, say=english) -> one card's SVG ("" for a
    card it does not draw), as the seat page draws it, its words said with `say`. None: the preview
    lists each card's fields in words."""

    cardset_kind: SetKind | None
    """Its card set's files, card lists and fields, loader and published counts (games.engine.cards):
    what the upload, the card editor, the preview, the export and the shipped set read."""

    page_template: str | None
    """The seat page's table, a file under folder/templates/ (its template name is
    titles/<slug>/<file>). None: the generic panels of the view."""

    email_template: str | None
    """The email's table (HTML tables; CSS inlined when sent), likewise. None: the generic panels."""

    rules_summary: str | None
    """Its rules in short, in the project's own words: an HTML fragment, a file under folder/templates/
    (named titles/<slug>/<file>), shown by the rules page and linked from every seat page. None: no
    rules page."""

    shared_state_keys: tuple[str, ...]
    """Top-level keys of the state that hold data fixed at setup (a card catalogue). The service
    stores each such value once for all games instead of in every saved state; the engine still
    sees them in the state as usual."""

    upcoming: Callable[[State, int], Prompt | None] | None
    """upcoming(state, seat): the question this seat will most likely be asked next while others act
    before it in the same round (a draft pick, an action in turn order). The seat page and email
    offer to leave answers for it in advance (conditional answers, DESIGN.md); they are tried in
    order when the question arrives, if still legal."""

    queue_steps: Callable[[State, int], bool] | None
    """queue_steps(state, seat): True when the seat's question now may be answered together with the
    next ones of its own turn, in one send, the table previewed after each (Café's place-and-act
    phase). Say True only where answering reveals nothing hidden and depends on nothing hidden
    (another seat's sealed answer, the deck): a preview draws the table after the seat's answers.
    The write path still ends a run at a step that draws at random, shows a hidden card, asks
    another seat or ends the seat's turn (games/actions/steps.py). None: one answer at a time."""

    check_invariants: Callable[[State], None] | None
    """check_invariants(state): raise AssertionError naming what broke (cards conserved, no negative
    counts...). The bot games of simulate, the fuzz tests and the card set's bot check call it."""

    turns_played: Callable[[State], int] | None
    """turns_played(state): the game's length in the title's own turns, for reports (else steps)."""

    load_cardset: Callable[[], dict[str, Any]] | None
    """load_cardset(): the default card set, which the service then stores in the game's first event
    (options["cardset"]). None: setup loads its own default set when options hold none."""


class Drawing(Protocol):
    """A title's table as pictures: its drawing.py module, pure, read by {% draw_table %}."""

    def catalogue(self, state: State) -> Any:
        """The public card list the drawing looks cards up in, from the state (never hidden facts)."""

    def draw(
        self,
        view: dict[str, Any],
        catalogue: Any,
        prompt: dict[str, Any] | None,
        seat: int | None,
        say: Callable[[Any], str] = english,
    ) -> Any:
        """What the title's templates draw: from one seat's view, the catalogue and the open prompt
        (its to_dict(), or None), whose seat it is (None: a spectator). Words it returns are messages
        (the service renders them); words it builds into an SVG string it says with `say`, the
        reader's language (games.engine.messages)."""


REQUIRED = (
    "slug",
    "name",
    "min_players",
    "max_players",
    "options_schema",
    "setup",
    "prompts",
    "apply",
    "view",
    "outcome",
    "default_answer",
    "bot_answer",
)
OFFERED = (
    "folder",
    "drawing",
    "card_face",
    "cardset_kind",
    "page_template",
    "email_template",
    "rules_summary",
    "shared_state_keys",
    "upcoming",
    "queue_steps",
    "check_invariants",
    "turns_played",
    "load_cardset",
    "card_words",
)


class TitleBase:
    """The defaults of what a title may offer (see `Title`): every title's class inherits them and
    sets what it offers, so every title has every attribute the service reads."""

    folder: Path | None = None
    drawing: Drawing | None = None
    card_face: Callable[..., str] | None = None
    cardset_kind: SetKind | None = None
    page_template: str | None = None
    email_template: str | None = None
    rules_summary: str | None = None
    shared_state_keys: tuple[str, ...] = ()
    upcoming: Callable[[State, int], Prompt | None] | None = None
    queue_steps: Callable[[State, int], bool] | None = None
    check_invariants: Callable[[State], None] | None = None
    turns_played: Callable[[State], int] | None = None
    load_cardset: Callable[[], dict[str, Any]] | None = None
    # the keys in its seeds/<slug>/ files whose values a player reads as words (names, kinds):
    # each is a card_ref in its messages, translated in its catalogue (games catalogues)
    card_words: tuple[str, ...] = ("name",)


def lacks(title: Any) -> list[str]:
    """The names of the protocol a would-be title does not have (empty for a title)."""
    return [name for name in (*REQUIRED, *OFFERED) if not hasattr(title, name)]


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
