"""Each step of a game's log in words, for organisers: what the title logged at that step.

An event's payload is what the service needs to fold the log ({"answer": "cool-5"}); an organiser
wants the sentence the table read. The log is folded once, step by step, in the order it was
written (a rewind's voids apply from the rewind on, as they did then), and the lines each step
added are read as a spectator reads them. A step that logged nothing (a sealed choice, say) is
told by the option it picked; a step made for a person (games.automatic) says who or what made it. Admin steps are told from their payload. Nothing here shows the
seed or the card set (Event.public_payload keeps those hidden).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache

from games import automatic
from games.actions.organise import who_acted
from games.actions.replay import PLAYED, replay
from games.engine import IllegalMove, step_rng
from games.engine.log import read
from games.messages import Reading, say
from games.models import Event, Game

# what an organiser's or a seat's admin step says; {who} is the actor or the seat, {seat} the seat
ADMIN_WORDS: dict[str, str] = {
    "pause": "{who} paused the game",
    "resume": "{who} resumed the game",
    "extend": "{who} extended {seat}'s deadline by {hours} h",
    "replace_player": "{who} gave {seat} to {new} (was {old})",
    "rewind": "{who} rewound the game to step {to}, voiding {voided}",
    "undo": "{seat} took back their last answer (voiding {voided})",
    "end": "{who} ended the game",
    "resend": "{who} sent {seat}'s last email again",
    "take_back": "{seat} took their seat back from the bot",
    "hand_to_bot": "{who} handed {seat} to a bot",
    "vacation": "{seat} declared a vacation from {starts} to {ends}",
}
CACHE_SECONDS = 600
RECENT_GAMES = 16  # the words of the games an admin page shows, kept in this process
_RECENT: OrderedDict[str, dict[int, Said]] = OrderedDict()
_RECENT_LOCK = threading.Lock()
# a log the title's rules no longer replay (a step refused): the rest is told by its payload alone
UNREPLAYABLE = object()
UNREPLAYABLE_WORDS = "(the title no longer replays this step: see its payload)"


@dataclass(frozen=True)
class Said:
    """One step in words: the lines it added to the log, or a sentence about it."""

    lines: tuple[str, ...]

    def __str__(self) -> str:
        return " ".join(self.lines)


class _Blank(dict):
    """Format values: a key the payload lacks reads as a dash rather than failing."""

    def __missing__(self, key: str) -> str:
        return "–"


def words_by_step(game: Game) -> dict[int, Said]:
    """{seq: what that step said} for every event of `game`, cached per game and version (every
    step moves the version): in this process for the rows of one admin page, and in the cache."""
    key = f"log-words:{game.pk}:{game.version}:{game.created_at.timestamp()}"
    with _RECENT_LOCK:
        found = _RECENT.get(key)
    if found is None:
        found = cache.get(key)
        if found is None:
            found = _fold(game)
            cache.set(key, found, CACHE_SECONDS)
        with _RECENT_LOCK:
            _RECENT[key] = found
            while len(_RECENT) > RECENT_GAMES:
                _RECENT.popitem(last=False)
    return found


def _fold(game: Game) -> dict[int, Said]:
    events = list(game.events.select_related("actor").order_by("seq"))
    if not events or events[0].kind != Event.Kind.CREATED:
        return {}
    engine = game.engine
    first = events[0].payload
    names = dict(enumerate(first.get("players", [])))
    seed = first["seed"]
    reading = Reading(names, game.title)

    try:
        state = engine.setup(first["players"], first["options"], step_rng(seed, 0))
    except (IllegalMove, LookupError, TypeError, ValueError):
        state = UNREPLAYABLE
    out = {
        events[0].seq: Said((UNREPLAYABLE_WORDS,) if state is UNREPLAYABLE else tuple(_spoken(_log(state), reading)))
    }
    for e in events[1:]:
        if e.kind in PLAYED and state is UNREPLAYABLE:
            out[e.seq] = Said((UNREPLAYABLE_WORDS,))
        elif e.kind in PLAYED:
            before = len(_log(state))
            asked = engine.prompts(state).get(e.seat)
            try:
                state = engine.apply(state, e.seat, e.payload["answer"], step_rng(seed, e.seq))
            except (IllegalMove, LookupError, TypeError, ValueError):
                state = UNREPLAYABLE  # the words stop here; the page (and each payload) still shows
                out[e.seq] = Said((UNREPLAYABLE_WORDS,))
                continue
            lines = _spoken(_log(state)[before:], reading)
            name = names.get(e.seat, f"Seat {e.seat}")
            if not lines:
                picked = _answer_words(asked.to_dict() if asked is not None else {}, e.payload["answer"])
                lines = [f"{name} answered: {picked}."]
            # a move made for the player (a deadline's, a stand-in bot's, a plan's) says so; a step
            # written before events recorded how is told from its channel (a stand-in is not known then)
            how = e.payload.get("made") or automatic.made_how(e.via, False, game.timeout_policy)
            out[e.seq] = Said(tuple(automatic.said_step(lines, how, e.seat, name, name)))
        elif e.kind == Event.Kind.ADMIN:
            out[e.seq] = Said((_admin_words(e, names),))
            if e.payload.get("voids") and state is not UNREPLAYABLE:
                try:  # from here on the table is the log folded without the voided steps, as it was then
                    state, _ = replay(game, upto=e.seq)
                except (IllegalMove, LookupError, TypeError, ValueError):
                    state = UNREPLAYABLE
        elif e.kind == Event.Kind.ENDED:
            out[e.seq] = Said((_ended_words(e.payload, names),))
        else:
            out[e.seq] = Said((f"{e.get_kind_display()}.",))
    return out


def _log(state: Any) -> list:
    log = state.get("log") if isinstance(state, dict) else None
    return log if isinstance(log, list) else []


def _spoken(entries: list, reading: Reading) -> list[str]:
    """The lines as a spectator reads them (private words stay with their seat)."""
    return [line for line in (say(e, reading) for e in read(entries, None)) if line]


def _answer_words(prompt: dict, answer: Any) -> str:
    labels = {o.get("id"): say(o.get("label", o.get("id"))) for o in prompt.get("options", [])}
    if isinstance(answer, str):
        return str(labels.get(answer, answer))
    if isinstance(answer, list):
        return ", ".join(str(labels.get(a, a)) for a in answer) or "nothing"
    if isinstance(answer, dict):
        return "; ".join(f"{k}: {_answer_words(prompt, v)}" for k, v in answer.items())
    return str(answer)


def _admin_words(e: Event, names: dict[int, str]) -> str:
    p = e.payload
    seat = names.get(e.seat, f"Seat {e.seat}") if e.seat is not None else "a seat"
    if e.actor is not None:
        who = who_acted(e.actor, e.via)
    else:
        who = seat if e.seat is not None else (e.via or "the service")
    voided = ", ".join(f"#{s}" for s in p.get("voids", [])) or "nothing"
    action = str(p.get("action", "an admin step")).replace("_", " ").replace("{", "{{").replace("}", "}}")
    words = ADMIN_WORDS.get(p.get("action", ""), "{who}: " + action)
    said = words.format_map(_Blank({**p, "who": who, "seat": seat, "voided": voided}))
    return f"{said}: {p['reason']}" if p.get("reason") else f"{said}."


def _ended_words(p: dict, names: dict[int, str]) -> str:
    scores = p.get("scores") or {}
    shown = ", ".join(f"{names.get(int(k), f'Seat {k}')} {v}" for k, v in scores.items())
    won = " and ".join(names.get(w, f"Seat {w}") for w in p.get("winners") or [])
    return f"The game ended. Scores: {shown or 'none'}." + (f" Won by {won}." if won else "")
