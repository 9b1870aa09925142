"""A signed-in player's home: every seat of theirs, the ones waiting on them first, and their figures.

Read only. The page links each seat by a link signed now, so a player who signed in needs none of
their emails; the question and the deadline come from the stored state, in the player's timezone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.actions.steps import ordinal
from games.messages import reading_for, say

from . import links
from .clock.vacation import days_left, vacation_books, vacation_left
from .models import Event, Game, Seat
from .reader_time import local_time

QUESTION_WORDS = 90  # characters of the question shown in the list
PLAYING = (Game.Status.ACTIVE, Game.Status.PAUSED)
NEVER = datetime.max.replace(tzinfo=UTC)  # no deadline and no wait (an offer to play again): listed last


@dataclass
class Row:
    """One seat as the list shows it."""

    seat: Seat
    url: str
    question: str = ""
    deadline: str = ""
    waiting_on: str = ""
    since: datetime | None = None
    result: str = ""
    history_url: str = ""


@dataclass
class Figures:
    title_name: str
    played: int = 0
    won: int = 0
    scores: list[int] = field(default_factory=list)

    @property
    def average(self) -> str:
        return f"{sum(self.scores) / len(self.scores):.1f}" if self.scores else "–"


@dataclass
class Home:
    mine: list[Row] = field(default_factory=list)  # waiting on me
    others: list[Row] = field(default_factory=list)  # waiting on someone else (or paused, or not started)
    finished: list[Row] = field(default_factory=list)
    figures: list[Figures] = field(default_factory=list)
    vacation: str = ""  # what is left of the yearly vacation allowance, said once for every game in play


def home_for(user) -> Home:
    seats = list(
        Seat.objects.filter(player=user)
        .select_related("game", "player")
        .defer("game__state")  # read only for the games waiting on me (one query each)
        .order_by("-game__updated_at", "game_id")
    )
    ended = {
        e.game_id: e.payload
        for e in Event.objects.filter(game__in=[s.game for s in seats], kind=Event.Kind.ENDED).only(
            "game_id", "payload"
        )
    }
    home = Home()
    figures: dict[str, Figures] = {}
    # only games whose clock runs: an absence stops nothing in the others, and charges nothing there
    playing = [s.pk for s in seats if s.game.status in PLAYING and not s.is_bot and s.game.clock.active]
    books = vacation_books(playing, timezone.now()) if playing else {}
    home.vacation = vacation_line(
        [(s.game, days_left(vacation_left(s.game, books[s.pk].used))) for s in seats if s.pk in books]
    )
    for seat in seats:
        game = seat.game
        token = links.token_for(seat)
        row = Row(seat=seat, url=reverse("seat", args=[token]))
        if game.status == Game.Status.ENDED:
            payload = ended.get(game.pk, {})
            row.result = _result(payload, seat.index)
            row.history_url = reverse("seat-history", args=[token])
            home.finished.append(row)
            if not payload:  # ended by its organiser before its end: no result to count
                continue
            fig = figures.setdefault(game.title, Figures(game.title_name))
            fig.played += 1
            fig.won += seat.index in payload.get("winners", [])
            score = payload.get("scores", {}).get(str(seat.index))
            if isinstance(score, int):
                fig.scores.append(score)
        elif game.status == Game.Status.DRAFT and not seat.accepted:
            row.question = _("Play again? Say yes on your seat's page.")
            home.mine.append(row)
        elif game.status == Game.Status.ACTIVE and seat.waiting_since is not None:
            prompt = game.engine.prompts(game.state).get(seat.index)
            row.question = _short(say(prompt.text, reading_for(game)) if prompt is not None else "")
            row.deadline = local_time(seat.deadline, user.timezone)
            row.since = seat.waiting_since
            home.mine.append(row)
        else:
            row.waiting_on = _waiting_on(game)
            row.since = game.paused_at if game.status == Game.Status.PAUSED else game.waiting_since
            home.others.append(row)
    home.mine.sort(key=lambda r: (r.seat.deadline is None, r.seat.deadline or r.since or NEVER))
    home.figures = sorted(figures.values(), key=lambda f: f.title_name)
    return home


def vacation_line(games: list[tuple[Game, int]]) -> str:
    """The vacation days left this year, said once: one figure when every game has the same (the
    usual case, since one absence stops every clock), else each figure with its games."""
    if not games:
        return ""
    figures: dict[tuple[int, int], list[str]] = {}
    for game, left in games:
        figures.setdefault((left, game.vacation_days), []).append(game.name)
    if len(figures) == 1:
        [(left, allowance)] = figures
        values = {"left": left, "n": allowance}
        if len(games) > 1:
            return (
                ngettext(
                    "Vacation: %(left)s of %(n)s day left this year in each of your games.",
                    "Vacation: %(left)s of %(n)s days left this year in each of your games.",
                    allowance,
                )
                % values
            )
        return ngettext(
            "Vacation: %(left)s of %(n)s day left this year in %(game)s.",
            "Vacation: %(left)s of %(n)s days left this year in %(game)s.",
            allowance,
        ) % {**values, "game": games[0][0].name}
    parts = [
        ngettext("%(left)s of %(n)s day in %(games)s", "%(left)s of %(n)s days in %(games)s", allowance)
        % {"left": left, "n": allowance, "games": _and(names)}
        for (left, allowance), names in sorted(figures.items(), key=lambda kv: (-kv[0][0], kv[1]))
    ]
    return _("Vacation left this year: %(parts)s.") % {"parts": "; ".join(parts)}


def _and(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return _("%(items)s and %(last)s") % {"items": ", ".join(names[:-1]), "last": names[-1]}


def _short(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= QUESTION_WORDS else line[: QUESTION_WORDS - 1].rstrip() + "…"


def _waiting_on(game: Game) -> str:
    if game.status == Game.Status.PAUSED:
        return _("paused")
    if game.status == Game.Status.DRAFT:
        return _("not started yet")
    return game.to_move or _("no one")


def _result(payload: dict, index: int) -> str:
    scores = {int(k): v for k, v in payload.get("scores", {}).items() if str(k).isdigit()}
    if index not in scores:
        return _("over")
    mine = scores[index]
    place = 1 + sum(1 for v in scores.values() if v > mine)
    winners = payload.get("winners", [])
    values = {"n": mine, "place": ordinal(place), "of": len(scores)}
    if index in winners:
        if len(winners) == 1:
            return ngettext("won with %(n)s point", "won with %(n)s points", mine) % values
        return ngettext("shared the win with %(n)s point", "shared the win with %(n)s points", mine) % values
    return ngettext("%(place)s of %(of)s, %(n)s point", "%(place)s of %(of)s, %(n)s points", mine) % values
