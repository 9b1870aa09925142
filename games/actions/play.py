"""Playing: answers from pages, replies and plans; bots; undo of a misclick; a seat taken back."""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import notify, pending
from games.engine import step_rng
from games.engine.prompts import prompt_key
from games.engine.protocol import Title
from games.models import Event, Game, Seat

from . import steps
from .replay import PLAYED, replay, voided
from .write import (
    PEOPLE_VIAS,
    Applied,
    SubmitError,
    check_playing,
    lock_game,
    lock_games,
    mailed_view,
    note_locked,
    play_answer_locked,
    play_steps_locked,
    reset_deadline_locked,
    seat_at,
    void_steps_locked,
    write_step,
)

log = logging.getLogger(__name__)


def submit(
    game_id: int,
    seat_index: int,
    answer: Any,
    expected_version: int | None,
    via: str,
    actor=None,
    prompt_key: str | None = None,
) -> Applied:
    """Apply one seat's answer, or raise SubmitError and write nothing.

    `answer` is the answer itself, or a raw one (a posted form, a reply's text: games.actions.answers)
    read against the question under the lock.

    `expected_version` is the version the player saw. If the table moved on since, the answer is
    still taken when this seat has not answered since and its question is the same one it saw
    (`prompt_key`, or a prefix of it from an email address): other seats answering a
    simultaneous decision must not void yours. A second click on the same form is refused as
    already answered.
    """
    with write_step(), pending.held():
        game, seats, prompts = _asked_locked(game_id, seat_index, expected_version, via, prompt_key)
        return play_answer_locked(game, prompts, seat_index, answer, via, actor, Event.Kind.ANSWER, seats)


def submit_steps(
    game_id: int,
    seat_index: int,
    answers: list[Any],
    expected_version: int | None,
    via: str,
    actor=None,
    prompt_key: str | None = None,
) -> list[Applied]:
    """Apply several answers of one seat's turn in order, all or none (a queued turn), or raise
    SubmitError and write nothing.

    One lock and one version check, as `submit` (the version and `prompt_key` are those of the
    first question, the one the page showed); then each answer is read against the question as it
    stands after the one before (write.play_steps_locked). A refusal names the step and says why;
    when the table moved since the page was shown, in the words the player saw then.
    """
    with write_step(), pending.held():
        game, seats, prompts = _asked_locked(game_id, seat_index, expected_version, via, prompt_key)
        try:
            return play_steps_locked(game, prompts, seat_index, list(answers), via, actor, seats)
        except SubmitError as e:
            refused = getattr(e, "refused", None)
            if refused is None or refused.code != "illegal" or expected_version in (None, game.version):
                raise
            told = _as_seen(game, seat_index, list(answers), expected_version, refused)
            if not told:
                raise
            raise SubmitError(told, e.code) from None


def _asked_locked(
    game_id: int, seat_index: int, expected_version: int | None, via: str, prompt_key: str | None
) -> tuple[Game, list[Seat], dict]:
    """Lock the game and its seats, and check this seat may answer now: (game, seats, prompts)."""
    locked = lock_games([game_id])
    if not locked:
        raise SubmitError(_("There is no such game."), "no_game")
    [(game, seats)] = locked.values()  # seats read once, with the lock: after_step_locked needs them all
    if expected_version is not None and not 0 <= expected_version <= game.version:
        # no page or email of ours ever showed that version: never trust it to find "since when"
        raise SubmitError(_("This form does not come from this game's pages. Nothing was played."), "bad_version")
    check_playing(game)
    prompts = game.engine.prompts(game.state)
    if expected_version is not None and expected_version != game.version:
        _check_stale(game, seat_index, expected_version, prompts, prompt_key)
    if seat_index not in prompts:
        raise SubmitError(_("It is not your move right now: nothing is being asked of your seat."), "not_your_turn")
    if via in PEOPLE_VIAS and seat_at(seats, seat_index).stand_in:
        raise SubmitError(_("A bot is playing this seat now. Take your seat back first."), "stand_in")
    return game, seats, prompts


def _as_seen(game: Game, seat_index: int, answers: list[Any], version: int, refused: steps.Refused) -> str:
    """A step refused after the table moved, told in the words the player's page showed it with.

    The run is walked again up to that step on the table as it was at `version` (the page's), with
    a probe's generators: only its words are read. Empty when the step could not be played there
    either (the refusal as it stands says it best)."""
    state, _events = replay(game, upto=version)
    try:
        walked = steps.walk(
            game.engine,
            state,
            seat_index,
            answers[: refused.index + 1],
            rng=lambda i: step_rng(game.seed + ":as-seen", version + 1 + i),
            probe=lambda i: step_rng(game.seed + ":as-seen-probe", version + 1 + i),
        )
    except steps.Refused:
        return ""
    why = refused.why
    if not refused.offered:
        why = _("the table changed since you chose it (another player moved), and it is no longer possible.")
    label = refused.label or walked[refused.index].label
    return steps.Refused(refused.index, label, why, refused.code).message(_("Nothing was played."))


@dataclass(frozen=True)
class Preview:
    """The table a seat would see after its queued steps, worked out on the pure engine (nothing written).

    `state` is None when the last step may not be drawn ahead (it draws, reveals, hands the move on
    or ends the game: `note` says which); `prompt` is the seat's next question then, or None."""

    steps: list[steps.Step]
    state: Any
    prompt: Any
    note: str


def preview_steps(
    game: Game, seat: Seat, answers: list[Any], expected_version: int | None, prompt_key: str | None
) -> Preview:
    """What the seat's queued steps would make of the table, for its page to draw; writes nothing.

    Refused (SubmitError) as the send would be: not this seat's move, a stale page, a step that
    cannot be played or that ends the turn before the last. The generators are never the game's
    (its seed would tell what a draw gives): a step that draws at random is found by two others
    disagreeing, and its table is not drawn.
    """
    if expected_version is not None and not 0 <= expected_version <= game.version:
        raise SubmitError(_("This page does not come from this game. Reload it."), "bad_version")
    check_playing(game)
    engine = game.engine
    prompts = engine.prompts(game.state)
    if expected_version is not None and expected_version != game.version:
        try:
            _check_stale(game, seat.index, expected_version, prompts, prompt_key)
        except SubmitError as e:
            told = {
                "already_answered": _(
                    "You have answered since this page was shown, so nothing was queued. "
                    "Reload the page to see the table as it is now."
                ),
                "stale": _(
                    "The table changed since this page was shown, so nothing was queued. "
                    "Reload the page to see the table as it is now."
                ),
            }[e.code]
            raise SubmitError(told, e.code) from None
    if seat.index not in prompts:
        raise SubmitError(_("It is not your move right now: nothing is being asked of your seat."), "not_your_turn")
    if seat.stand_in:
        raise SubmitError(_("A bot is playing this seat now. Take your seat back first."), "stand_in")
    if not (engine.queue_steps and engine.queue_steps(game.state, seat.index)):
        # the title does not vouch that its answers here reveal and depend on nothing hidden
        raise SubmitError(_("This question is answered on its own: send it as it is."), "alone")
    try:
        walked = steps.walk(
            engine,
            game.state,
            seat.index,
            list(answers),
            rng=lambda i: random.Random(f"preview:{i}"),
            probe=lambda i: random.Random(f"preview-probe:{i}"),
            judge_last=True,
        )
    except steps.Refused as refused:
        raise SubmitError(refused.message(_("It was not queued.")), refused.code) from None
    last = walked[-1]
    if last.private:
        if last.label:
            note = _("%(step)s ends what can be queued (%(why)s): send to see what follows.") % {
                "step": last.label,
                "why": last.private,
            }
        else:
            note = _("This step ends what can be queued (%(why)s): send to see what follows.") % {"why": last.private}
        return Preview(walked, None, None, note)
    return Preview(walked, last.state, engine.prompts(last.state).get(seat.index), "")


def _check_stale(game: Game, seat_index: int, expected: int, prompts: dict, key: str | None) -> None:
    answered = (
        Event.objects.filter(game=game, seq__gt=expected, seat=seat_index, kind__in=PLAYED)
        .exclude(seq__in=voided(game))
        .exists()
    )
    if answered:
        raise SubmitError(_("You have already answered this. Nothing more was played."), "already_answered")
    if seat_index not in prompts or not key or not prompt_key(prompts[seat_index]).startswith(key):
        raise SubmitError(
            _("The table changed since you were asked, so nothing was played. Here is the table as it is now."),
            "stale",
        )


def advance(game_id: int, limit: int = 2000) -> int:
    """Play what needs no person: bots' answers and answers left in advance, until a person is asked."""
    played = 0
    while played < limit:
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.ACTIVE:
            return played
        engine = game.engine
        prompts = engine.prompts(game.state)
        seats = {s.index: s for s in game.seats.all() if s.index in prompts}
        planned = [s for s in seats.values() if s.plan and not s.is_bot]
        if planned:
            _play_plan(game, planned[0], prompts)
            played += 1
            continue
        bots = [i for i, s in seats.items() if s.is_bot]
        if not bots:
            return played
        seat = bots[0]
        answer = engine.bot_answer(game.state, seat, step_rng(game.seed + ":bot", game.version + 1))
        try:
            submit(game.pk, seat, answer, game.version, via="bot", prompt_key=prompt_key(prompts[seat]))
        except SubmitError as e:
            # another advance (or a person, or the sweep) moved first: a quiet no-op, whatever the
            # refusal says. Go on only if the table moved; else stop rather than repeat the refusal.
            moved = Game.objects.filter(pk=game_id).values_list("version", flat=True).first() != game.version
            log.log(logging.INFO if moved else logging.WARNING, "advance: game %s seat %s: %s", game_id, seat, e.code)
            if not moved:
                return played
            continue
        played += 1
    return played


def _play_plan(game: Game, seat: Seat, prompts: dict) -> None:
    """Try a seat's answers left in advance, in order; the first legal one is played, else it is asked."""
    with transaction.atomic():
        game = lock_game(game.pk)
        seat = Seat.objects.select_for_update().get(pk=seat.pk)
        plan, seat.plan = seat.plan, []
        seat.save(update_fields=["plan"])
        prompts = game.engine.prompts(game.state)
        if game.status != Game.Status.ACTIVE or seat.index not in prompts:
            return
        for answer in plan:
            sid = transaction.savepoint_create()
            try:
                play_answer_locked(game, prompts, seat.index, answer, "conditional", None, Event.Kind.ANSWER)
            except SubmitError:
                transaction.savepoint_rollback(sid)
                continue
            transaction.savepoint_commit(sid)
            return
        # none was legal: ask as usual
        notify.your_move(
            game,
            seat,
            mailed_view(game.engine, game.state, seat.index),
            prompts[seat.index],
            # frozen in the mail's context, translated when the mail is rendered (games.notify)
            note=gettext_noop("None of the answers you left in advance could be played."),
        )


def set_plan(seat: Seat, answers: list[Any]) -> None:
    """Leave answers for this seat's next question, tried in order when it arrives."""
    with transaction.atomic():
        game = lock_game(seat.game_id)
        check_playing(game)
        if seat.index in game.engine.prompts(game.state):
            raise SubmitError(_("You are being asked now: answer the question instead."), "asked_now")
        Seat.objects.filter(pk=seat.pk).update(plan=list(answers)[:10])


def undo(seat: Seat) -> Event:
    """Take back this seat's last answer, if nobody has acted and nothing was revealed or drawn since."""
    with transaction.atomic():
        game = lock_game(seat.game_id)
        check_playing(game)
        why_not = undo_refusal(game, seat)
        if why_not:
            raise SubmitError(why_not, "no_undo")
        last = last_played(game)
        return void_steps_locked(game, [last.seq], "undo", None, seat.index, "web", undoing=seat.index)


def undo_refusal(game: Game, seat: Seat) -> str:
    """Why this seat cannot undo now, in words; empty when it can."""
    last = last_played(game)
    if last is None or last.seat != seat.index or last.kind != Event.Kind.ANSWER or last.via not in PEOPLE_VIAS:
        return _("There is no answer of yours to take back: someone else has acted since, or you have not answered.")
    if game.events.filter(seq__gt=last.seq, kind=Event.Kind.ADMIN).exclude(payload__action="vacation").exists():
        return _("The game was changed by the organiser since your answer, so it cannot be taken back.")
    before, _events = replay(game, upto=last.seq - 1)
    engine = game.engine
    a = engine.apply(before, seat.index, last.payload["answer"], step_rng(game.seed, last.seq))
    b = engine.apply(before, seat.index, last.payload["answer"], step_rng(game.seed + ":probe", last.seq))
    if a != b:
        return _("Your answer made the game shuffle or draw at random, so it cannot be taken back.")
    if _revealed(engine, before, a, seat.index):
        return _("Your answer revealed a hidden card to you, so it cannot be taken back.")
    return ""


def _revealed(engine: Title, before, after, seat: int) -> bool:
    """True when the seat now sees a card id it could not see before."""
    return bool(steps.seen_cards(engine, after, seat) - steps.seen_cards(engine, before, seat))


def last_played(game: Game) -> Event | None:
    """The last answer or timeout that still counts (not voided by a rewind or an undo)."""
    return game.events.filter(kind__in=PLAYED).exclude(seq__in=voided(game)).order_by("-seq").first()


def take_back_seat(seat: Seat) -> None:
    """The absent player returns: the bot standing in for them steps aside."""
    with transaction.atomic():
        game = lock_game(seat.game_id)
        seat = Seat.objects.select_for_update().get(pk=seat.pk)
        if not seat.stand_in:
            raise SubmitError(_("Your seat is yours already."), "not_stand_in")
        check_playing(game)
        seat.is_bot = seat.stand_in = False
        seat.misses = 0
        seat.save(update_fields=["is_bot", "stand_in", "misses"])
        note_locked(game, "take_back", seat=seat.index, via="web")
        prompt = game.engine.prompts(game.state).get(seat.index)
        if prompt is not None:
            seat.waiting_since = timezone.now()
            Seat.objects.filter(pk=seat.pk).update(waiting_since=seat.waiting_since)
            reset_deadline_locked(game, seat, seat.waiting_since)
