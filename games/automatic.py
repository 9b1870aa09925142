"""Moves made for a person, said as such wherever they are shown (the log, the history, the mail).

A deadline's default or bot answer, a bot standing in for an absent player and an answer the
player left in advance are all played through the write path like the player's own answer, and
the title logs them in its own words ("ben added Minimalist Shelf…"), which read as ben's own
move. The write path records in each played event the log lines its step wrote (`lines`, the
log's length before and after) and, for a move made for a person, how it was made (`made`). The
stored log is not touched, so games begun before still replay; their older steps simply go
unattributed. Pages and mail then find the made steps among the lines they show and say them:
"At the deadline the bot played for ben: added Minimalist Shelf to their café for 2 coins."
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.actions.replay import PLAYED
from games.models import Event

# how a move was made for a person: (what others read, what the person reads); %(name)s is theirs
PRIVATE = {"plan"}  # said to the player alone (and organisers): see `tell`
MADE_WORDS: dict[str, tuple[str, str]] = {
    "deadline_bot": (
        gettext_lazy("At the deadline the bot played for %(name)s"),
        gettext_lazy("At the deadline the bot played for you"),
    ),
    "deadline_default": (
        gettext_lazy("At the deadline the default answer was played for %(name)s"),
        gettext_lazy("At the deadline the default answer was played for you"),
    ),
    "stand_in": (gettext_lazy("The bot played for %(name)s"), gettext_lazy("The bot played for you")),
    "plan": (gettext_lazy("%(name)s's planned answer"), gettext_lazy("Your planned answer")),
}
CHUNK = 64  # played steps read at a time, newest first, until the lines shown are covered
MOST_STEPS = 512  # a page never reads further back than this for its attributions


def made_how(via: str, for_a_person: bool, timeout_policy: str) -> str | None:
    """How an answer given through `via` was made for a person, or None when it is their own (or a
    bot seat's own) move. `for_a_person`: the seat belongs to a person (a bot only stands in)."""
    if via == "deadline":
        return "deadline_bot" if timeout_policy == "bot" else "deadline_default"
    if via == "conditional":
        return "plan"
    if via == "bot" and for_a_person:
        return "stand_in"
    return None


def marks(before: Any, after: Any, how: str | None) -> dict[str, Any]:
    """What a played event records besides its answer: the log lines its step wrote, and how it was
    made when it was made for a person. Nothing when a state keeps no log list."""
    start, end = _log_length(before), _log_length(after)
    out: dict[str, Any] = {}
    if start is not None and end is not None and end >= start:
        out["lines"] = [start, end]
    if how is not None:
        out["made"] = how
    return out


def _log_length(state: Any) -> int | None:
    log = state.get("log") if isinstance(state, dict) else None
    return len(log) if isinstance(log, list) else None


@dataclass(frozen=True)
class Made:
    """One step made for a person: whose seat, how, and the log lines [start, end) it wrote."""

    seat: int
    how: str
    start: int
    end: int


def made_steps(game_id: int, first: int, total: int, upto: int | None = None) -> list[Made]:
    """The steps made for a person among log lines [first, total) of the log as it stood at step
    `upto` (None: now), newest first: one small query a page (a few on a long page of quiet steps).

    Steps are read newest first, each claiming the lines it wrote, down to line `first`. A voided
    step (an undo's, a rewind's) wrote lines that a later step wrote again or that the log no longer
    has, so it ends past the lines still unclaimed and is passed over; no list of voids is read.
    A step written before steps recorded their lines ends the search: older lines stay unattributed.
    """
    found: list[Made] = []
    if total <= first:
        return found
    rows = Event.objects.filter(game_id=game_id, kind__in=PLAYED)
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    rows = rows.order_by("-seq").values_list("seq", "seat", "payload__lines", "payload__made")
    frontier = total  # lines from here on are claimed by a later step (or are past the log's end)
    last_seq = None
    for _chunk in range(MOST_STEPS // CHUNK):
        chunk = list((rows if last_seq is None else rows.filter(seq__lt=last_seq))[:CHUNK])
        for seq, seat, lines, how in chunk:
            last_seq = seq
            if not (isinstance(lines, list) and len(lines) == 2 and all(isinstance(n, int) for n in lines)):
                return found
            start, end = lines
            if end > frontier or start > end:
                continue  # voided: its lines were taken back
            frontier = start
            if how in MADE_WORDS and end > start and end > first and seat is not None:
                found.append(Made(seat, how, start, end))
            if frontier <= first:
                return found
        if len(chunk) < CHUNK:
            return found
    return found


def prefix(how: str, name: str, mine: bool) -> str:
    """The words before a made step's line: "At the deadline the bot played for ben"."""
    others, own = MADE_WORDS[how]
    return str(own) if mine else others % {"name": name}


def tell(
    lines: list[str],
    first: int,
    made: Iterable[Made],
    reader: int | None,
    names: Mapping[int, str],
    logged: Mapping[int, str],
    everyone: bool = False,
) -> list[str]:
    """`lines` (log lines numbered from `first`, as `reader` reads them) with each made step said
    as such: its line that starts with the player's logged name (or "You", for the player) loses
    the name and gains who or what made it; a step with no such line has its first line prefixed.
    `names` are the seats' names now, `logged` the names the title wrote (they differ after a rename).
    A planned answer is said to its player only (`everyone`: to organisers too): it was the player's
    own choice, and whether they chose ahead is theirs to tell.
    """
    out = list(lines)
    for step in made:
        span = range(max(step.start, first), min(step.end, first + len(out)))
        if not span:
            continue
        mine = reader is not None and reader == step.seat
        if step.how in PRIVATE and not mine and not everyone:
            continue  # the player's own choice, made ahead: the table reads it as theirs
        name = names.get(step.seat) or logged.get(step.seat) or _("Seat %(n)s") % {"n": step.seat + 1}
        # a line names the player as the title logged them (a log stored as words) or by their name of
        # now (a title's message, said with today's names)
        starts = [f"{n} " for n in (logged.get(step.seat), names.get(step.seat)) if n]
        if mine:
            starts.append("You ")
        at = next((i for i in span if any(out[i - first].startswith(s) for s in starts)), span[0])
        line = out[at - first]
        for s in starts:
            if line.startswith(s):
                line = line[len(s) :]
                break
        out[at - first] = _("%(how)s: %(line)s") % {"how": prefix(step.how, name, mine), "line": line}
    return out


def said_step(lines: list[str], how: str | None, seat: int | None, name: str, logged: str) -> list[str]:
    """One step's lines for the admin's log (read as a spectator): its first line said as made for
    `name` when it was made for a person."""
    if how not in MADE_WORDS or seat is None or not lines:
        return lines
    return tell(lines, 0, [Made(seat, how, 0, len(lines))], None, {seat: name}, {seat: logged}, everyone=True)
