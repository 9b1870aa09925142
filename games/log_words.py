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
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _

from games import automatic
from games.actions.organise import who_acted
from games.actions.replay import PLAYED, replay
from games.engine import IllegalMove, step_rng
from games.engine.log import read
from games.messages import Reading, reading_for, say
from games.models import Event, Game

# what an organiser's or a seat's admin step says; %(who)s is the actor or the seat, %(seat)s the seat
ADMIN_WORDS: dict[str, str] = {
    "pause": gettext_lazy("%(who)s paused the game"),
    "resume": gettext_lazy("%(who)s resumed the game"),
    "extend": gettext_lazy("%(who)s extended %(seat)s's deadline by %(hours)s h"),
    "replace_player": gettext_lazy("%(who)s gave %(seat)s to %(new)s (was %(old)s)"),
    "rewind": gettext_lazy("%(who)s rewound the game to step %(to)s, voiding %(voided)s"),
    "undo": gettext_lazy("%(seat)s took back their last answer (voiding %(voided)s)"),
    "end": gettext_lazy("%(who)s ended the game"),
    "resend": gettext_lazy("%(who)s sent %(seat)s's last email again"),
    "take_back": gettext_lazy("%(seat)s took their seat back from the bot"),
    "hand_to_bot": gettext_lazy("%(who)s handed %(seat)s to a bot"),
    "vacation": gettext_lazy("%(seat)s declared a vacation from %(starts)s to %(ends)s"),
}
CACHE_SECONDS = 600
RECENT_GAMES = 16  # the words of the games an admin page shows, kept in this process
_RECENT: OrderedDict[str, dict[int, Said]] = OrderedDict()
_RECENT_LOCK = threading.Lock()
# a log the title's rules no longer replay (a step refused): the rest is told by its payload alone
UNREPLAYABLE = object()
UNREPLAYABLE_WORDS = gettext_lazy("(the title no longer replays this step: see its payload)")


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
    # in the reader's language: the words are kept as they were said
    key = f"log-words:{game.pk}:{game.version}:{game.created_at.timestamp()}:{get_language()}"
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
    reading = reading_for(game, names)

    try:
        state = engine.setup(first["players"], first["options"], step_rng(seed, 0))
    except (IllegalMove, LookupError, TypeError, ValueError):
        state = UNREPLAYABLE
    out = {
        events[0].seq: Said(
            (str(UNREPLAYABLE_WORDS),) if state is UNREPLAYABLE else tuple(_spoken(_log(state), reading))
        )
    }
    for e in events[1:]:
        if e.kind in PLAYED and state is UNREPLAYABLE:
            out[e.seq] = Said((str(UNREPLAYABLE_WORDS),))
        elif e.kind in PLAYED:
            before = len(_log(state))
            asked = engine.prompts(state).get(e.seat)
            try:
                state = engine.apply(state, e.seat, e.payload["answer"], step_rng(seed, e.seq))
            except (IllegalMove, LookupError, TypeError, ValueError):
                state = UNREPLAYABLE  # the words stop here; the page (and each payload) still shows
                out[e.seq] = Said((str(UNREPLAYABLE_WORDS),))
                continue
            lines = _spoken(_log(state)[before:], reading)
            name = names.get(e.seat, _("Seat %(n)s") % {"n": e.seat})
            if not lines:
                picked = _answer_words(asked.to_dict() if asked is not None else {}, e.payload["answer"])
                lines = [_("%(name)s answered: %(picked)s.") % {"name": name, "picked": picked}]
            # a move made for the player (a deadline's, a stand-in bot's, a plan's) says so; a step
            # written before events recorded how is told from its channel (a stand-in is not known then)
            how = e.payload.get("made") or automatic.made_how(e.via, False, game.timeout_policy)
            out[e.seq] = Said(tuple(automatic.said_step(lines, how, e.seat, name, name)))
        elif e.kind == Event.Kind.ADMIN:
            out[e.seq] = Said((_admin_words(e, names),))
            if e.payload.get("voids") and state is not UNREPLAYABLE:
                try:  # from here on the table is the log folded without the voided steps, as it was then
                    state, _events = replay(game, upto=e.seq)
                except (IllegalMove, LookupError, TypeError, ValueError):
                    state = UNREPLAYABLE
        elif e.kind == Event.Kind.ENDED:
            out[e.seq] = Said((_ended_words(e.payload, names),))
        else:
            out[e.seq] = Said((_("%(kind)s.") % {"kind": e.get_kind_display()},))
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
        return ", ".join(str(labels.get(a, a)) for a in answer) or _("nothing")
    if isinstance(answer, dict):
        return "; ".join(f"{k}: {_answer_words(prompt, v)}" for k, v in answer.items())
    return str(answer)


def _admin_words(e: Event, names: dict[int, str]) -> str:
    p = e.payload
    seat = names.get(e.seat, _("Seat %(n)s") % {"n": e.seat}) if e.seat is not None else _("a seat")
    if e.actor is not None:
        who = who_acted(e.actor, e.via)
    else:
        who = seat if e.seat is not None else (e.via or _("the service"))
    voided = ", ".join(f"#{s}" for s in p.get("voids", [])) or _("nothing")
    values = _Blank({**p, "who": who, "seat": seat, "voided": voided})
    words = ADMIN_WORDS.get(p.get("action", ""))
    if words is None:
        action = str(p.get("action", "")).replace("_", " ") or _("an admin step")
        said = _("%(who)s: %(action)s") % {"who": who, "action": action}
    else:
        said = words % values
    if p.get("reason"):
        return _("%(said)s: %(reason)s") % {"said": said, "reason": p["reason"]}
    return _("%(said)s.") % {"said": said}


def _ended_words(p: dict, names: dict[int, str]) -> str:
    scores = p.get("scores") or {}
    shown = ", ".join(f"{names.get(int(k), _('Seat %(n)s') % {'n': k})} {v}" for k, v in scores.items())
    winners = [names.get(w, _("Seat %(n)s") % {"n": w}) for w in p.get("winners") or []]
    said = _("The game ended. Scores: %(scores)s.") % {"scores": shown or _("none")}
    if winners:
        won = (
            winners[0]
            if len(winners) == 1
            else _("%(items)s and %(last)s")
            % {
                "items": ", ".join(winners[:-1]),
                "last": winners[-1],
            }
        )
        said += " " + ngettext("Won by %(won)s.", "Won by %(won)s.", len(winners)) % {"won": won}
    return said
