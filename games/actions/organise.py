"""Organisers' writes: create and start games, pause and resume, extend, replace a player, hand a
seat to a bot, rewind, end, resend. Each is an event with who did it and why; a rewind voids later
events instead of deleting them.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import notify
from games.clock import seat as seat_clock
from games.engine import OptionsError, step_rng
from games.engine.cards import content_hash
from games.engine.protocol import Title
from games.models import OPEN_SEAT, Event, Game, Seat, new_nonce

from .absences import grant_absences_locked
from .replay import PLAYED, voided
from .write import (
    SubmitError,
    after_step_locked,
    hand_seat_to_bot_locked,
    lock_game,
    mailed_view,
    note_locked,
    reset_deadline_locked,
    void_steps_locked,
)


def new_seed() -> str:
    """A game's secret seed: unpredictable, so nobody can foresee a shuffle (tests pin it)."""
    return secrets.token_hex(16)


def engine_for(slug: str) -> Title:
    from games.titles import get_title

    try:
        return get_title(slug)
    except KeyError as e:
        raise OptionsError(str(e)) from None


def create_game(
    organiser, title: str, name: str, options: dict[str, Any], seats: list[str | None], **clock_settings
) -> Game:
    """A draft game. `seats` lists an email address per seat, None for a bot, or OPEN_SEAT for a
    seat to share by the game's join link (made when there is one)."""
    engine = engine_for(title)
    if not engine.min_players <= len(seats) <= engine.max_players:
        raise OptionsError(
            _("%(title)s takes %(low)s to %(high)s players.")
            % {"title": engine.name, "low": engine.min_players, "high": engine.max_players}
        )
    from accounts.models import User

    with transaction.atomic():
        join = new_nonce() if OPEN_SEAT in seats else ""
        game = Game.objects.create(
            title=title, name=name, organiser=organiser, options=options, join_nonce=join, **clock_settings
        )
        for i, email in enumerate(seats):
            player = User.objects.for_email(email) if email and email != OPEN_SEAT else None
            Seat.objects.create(game=game, index=i, player=player, is_bot=email is None)
    return game


def start_game(game: Game, actor=None, bots_in_open_seats: bool = False) -> Game:
    """Deal the table: the first event records the seed and the card set, so replay needs nothing else.

    Seats still open (nobody followed the join link) stop the start, unless the host asks for bots
    in them; the join link stops working once the game starts.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.DRAFT:
            raise SubmitError(_("This game has already started."), "started")
        engine = game.engine
        waiting = game.seats.filter(accepted=False).count()
        if waiting:
            raise SubmitError(
                ngettext(
                    "%(n)s player has not said yes to playing again yet.",
                    "%(n)s players have not said yes to playing again yet.",
                    waiting,
                )
                % {"n": waiting},
                "not_accepted",
            )
        open_seats = game.seats.filter(player=None, is_bot=False)
        if open_seats.exists():
            if not bots_in_open_seats:
                n = open_seats.count()
                raise SubmitError(
                    ngettext(
                        "%(n)s seat is still open: share the join link, or start with bots in it.",
                        "%(n)s seats are still open: share the join link, or start with bots in them.",
                        n,
                    )
                    % {"n": n},
                    "open_seats",
                )
            open_seats.update(is_bot=True)
        game.join_nonce = ""
        seats = list(game.seats.select_related("player"))
        options = dict(game.options)
        # a chosen set's own translations of its card words are the service's, not the title's
        own_words = options.pop("card_words", None)
        load = engine.load_cardset
        if load is not None and "cardset" not in options:
            options["cardset"] = load()
        seed = new_seed()
        state = engine.setup([s.name for s in seats], options, step_rng(seed, 0))
        cardset_hash = content_hash(options["cardset"]) if "cardset" in options else ""
        Event.objects.create(
            game=game,
            seq=0,
            kind=Event.Kind.CREATED,
            payload={
                "seed": seed,
                "players": [s.name for s in seats],
                "options": options,
                "cardset_hash": cardset_hash,
                **({"card_words": own_words} if own_words else {}),
            },
            via="admin" if actor else "",
            actor=actor,
        )
        game.seed, game.cardset_hash, game.state, game.version = seed, cardset_hash, state, 0
        game.status = Game.Status.ACTIVE
        game.save()
        for seat in seats:
            if not seat.is_bot:
                notify.invite(game, seat)
                grant_absences_locked(seat, via="start")  # before the first deadlines are set
        game.refresh_from_db()
        after_step_locked(game, engine, before={}, via="start")
    return game


def pause(game: Game, actor=None, reason: str = "", via: str = "admin") -> None:
    """Clocks stop; answers wait until resume."""
    with transaction.atomic():
        game = lock_game(game.pk)
        if game.status != Game.Status.ACTIVE:
            raise SubmitError(_("Only a game in play can be paused."), "not_playing")
        note_locked(game, "pause", actor, via=via, reason=reason)
        Game.objects.filter(pk=game.pk).update(status=Game.Status.PAUSED, paused_at=timezone.now())
        Seat.objects.filter(game=game).update(wants_pause=False)
        by = who_acted(actor, via)
        for seat in game.seats.select_related("player"):
            notify.paused(game, seat, by, reason)


def resume(game: Game, actor=None, reason: str = "") -> None:
    """Clocks go on where they stopped: every deadline moves by the length of the pause."""
    with transaction.atomic():
        game = lock_game(game.pk)
        if game.status != Game.Status.PAUSED:
            raise SubmitError(_("This game is not paused."), "not_paused")
        paused_for = timezone.now() - (game.paused_at or timezone.now())
        for seat in game.seats.exclude(deadline=None).select_related("player"):
            seat.deadline, seat.remind_at, seat.clock_since = seat_clock.after_pause(
                game.clock, seat, paused_for, timezone.now()
            )
            seat.save(update_fields=["deadline", "remind_at", "clock_since"])
        note_locked(game, "resume", actor, reason=reason, paused_seconds=int(paused_for.total_seconds()))
        Game.objects.filter(pk=game.pk).update(status=Game.Status.ACTIVE, paused_at=None)
        by = who_acted(actor, "admin")
        for seat in game.seats.select_related("player"):
            notify.resumed(game, seat, by, reason)


def who_acted(actor, via: str) -> str:
    """Who paused or resumed a game, as the table reads it mid-sentence (pages, mails, the admin's log)."""
    if actor is not None:
        return actor.display_name
    return _("the players") if via == "vote" else _("the organiser")


def vote_pause(seat: Seat, yes: bool = True) -> bool:
    """Players agree to pause: when every person's seat says yes, the game pauses. True if it did."""
    with transaction.atomic():
        game = lock_game(seat.game_id)
        if game.status != Game.Status.ACTIVE:
            raise SubmitError(_("Only a game in play can be paused."), "not_playing")
        Seat.objects.filter(pk=seat.pk).update(wants_pause=yes)
        people = game.seats.filter(player__isnull=False, stand_in=False, is_bot=False)
        if yes and not people.filter(wants_pause=False).exists():
            pause(game, None, "every player agreed", via="vote")
            return True
        return False


def extend_deadline(game: Game, hours: float, actor=None, reason: str = "", seat_index: int | None = None) -> None:
    """Move the current deadlines later; a new reminder goes out for a moved deadline."""
    with transaction.atomic():
        game = lock_game(game.pk)
        seats = game.seats.exclude(deadline=None)
        if seat_index is not None:
            seats = seats.filter(index=seat_index)
        delta = timedelta(hours=hours)
        for seat in seats.select_related("player"):
            seat.deadline, seat.remind_at = seat_clock.shifted(game.clock, seat, delta, timezone.now())
            seat.save(update_fields=["deadline", "remind_at"])
        note_locked(game, "extend", actor, seat=seat_index, hours=hours, reason=reason)


def replace_player(seat: Seat, email: str, actor=None, reason: str = "") -> Seat:
    """Someone new takes the seat: a fresh link for them, the old links stop working."""
    from accounts.models import User

    with transaction.atomic():
        game = lock_game(seat.game_id)
        if game.status == Game.Status.ENDED:
            raise SubmitError(_("This game is over."), "ended")
        seat = Seat.objects.select_for_update().get(pk=seat.pk)
        old = seat.player.email if seat.player else "a bot"
        player = User.objects.for_email(email)
        taken = game.seats.filter(player=player).exclude(pk=seat.pk).exclude(is_bot=True, stand_in=False).first()
        if taken is not None:
            raise SubmitError(
                _("%(email)s already plays %(seat)s in this game: one seat per person. Nothing was changed.")
                % {"email": player.email, "seat": taken.name},
                "seated",
            )
        seat.player = player
        seat.is_bot = seat.stand_in = False
        seat.accepted = True  # the host chose them
        seat.nonce, seat.misses, seat.plan = new_nonce(), 0, []
        seat.save()
        note_locked(game, "replace_player", actor, seat=seat.index, old=old, new=seat.player.email, reason=reason)
        notify.invite(game, seat)
        grant_absences_locked(seat, via="admin")
        prompt = game.engine.prompts(game.state).get(seat.index) if game.state else None
        if prompt is not None:
            seat.waiting_since = timezone.now()
            reset_deadline_locked(game, seat, seat.waiting_since)
            Seat.objects.filter(pk=seat.pk).update(waiting_since=seat.waiting_since)
            notify.your_move(game, seat, mailed_view(game.engine, game.state, seat.index), prompt)
        return seat


def hand_to_bot(seat: Seat, actor=None, reason: str = "") -> None:
    with transaction.atomic():
        game = lock_game(seat.game_id)
        hand_seat_to_bot_locked(game, Seat.objects.select_for_update().get(pk=seat.pk), actor, reason)


def rewind(game: Game, to_seq: int, actor=None, reason: str = "") -> Event:
    """Go back to the table as it was after step `to_seq`: later steps are voided, never deleted."""
    with transaction.atomic():
        game = lock_game(game.pk)
        if game.status not in (Game.Status.ACTIVE, Game.Status.PAUSED):
            raise SubmitError(_("Only a game in play can be rewound."), "not_playing")
        gone = voided(game)
        later = list(
            game.events.filter(seq__gt=to_seq, kind__in=PLAYED).exclude(seq__in=gone).values_list("seq", flat=True)
        )
        if not later:
            raise SubmitError(_("There is nothing after that step to undo."), "nothing")
        return void_steps_locked(game, later, "rewind", actor, None, "admin", reason=reason, to=to_seq)


def end_game(game: Game, actor=None, reason: str = "") -> None:
    """The organiser stops the game where it stands; everyone is told why."""
    with transaction.atomic():
        game = lock_game(game.pk)
        if game.status == Game.Status.ENDED:
            raise SubmitError(_("This game is over already."), "ended")
        note_locked(game, "end", actor, reason=reason)
        Game.objects.filter(pk=game.pk).update(status=Game.Status.ENDED, to_move="", waiting_since=None)
        Seat.objects.filter(game=game).update(waiting_since=None, deadline=None, remind_at=None)
        for seat in game.seats.select_related("player").filter(player__isnull=False):
            notify.notice(game, seat, f"{game.name} was ended", f"The organiser ended {game.name}. {reason}".strip())


def resend_last(seat: Seat, actor=None, reason: str = "") -> None:
    """Send this seat its current question again (a fresh copy with a fresh link)."""
    with transaction.atomic():
        game = lock_game(seat.game_id)
        prompt = game.engine.prompts(game.state).get(seat.index) if game.state else None
        if prompt is None or seat.is_bot:
            raise SubmitError(_("This seat is not being asked anything now."), "not_asked")
        note_locked(game, "resend", actor, seat=seat.index, reason=reason)
        notify.your_move(game, seat, mailed_view(game.engine, game.state, seat.index), prompt)


def set_watch_link(game: Game, on: bool) -> str:
    """A fresh read-only link for spectators (the old one stops working), or none at all."""
    with transaction.atomic():
        game = lock_game(game.pk)
        nonce = new_nonce() if on else ""
        Game.objects.filter(pk=game.pk).update(watch_nonce=nonce)
        return nonce


def play_again(game: Game, actor) -> Game:
    """Offer the same table a new game: same title, options and clock, the first seat rotated.

    Each person gets an email with a link to their new seat and says yes there with one click; the
    game starts once everyone has (bots need not). The person who offers has said yes already, so
    at a table of one person and bots it starts at once: the yes it would wait for never comes.
    """
    with transaction.atomic():
        game = lock_game(game.pk)
        if game.status != Game.Status.ENDED:
            raise SubmitError(_("A game can be played again once it is over."), "not_over")
        if Game.objects.filter(previous=game).exists():
            raise SubmitError(_("Playing again has been offered already: see your email, or My games."), "offered")
        old = list(game.seats.select_related("player").order_by("index"))
        again = Game.objects.create(
            title=game.title,
            name=(_("%(name)s (again)") % {"name": game.name})[:100],
            organiser=game.organiser,
            options=game.options,
            previous=game,
            **{f: getattr(game, f) for f in Game.CLOCK_FIELDS},
        )
        rotated = old[1:] + old[:1]
        for i, s in enumerate(rotated):
            person = s.player_id is not None and not (s.is_bot and not s.stand_in)
            Seat.objects.create(
                game=again,
                index=i,
                player=s.player if person else None,
                is_bot=not person,
                accepted=not person or s.player_id == getattr(actor, "pk", None),
            )
        waiting = list(again.seats.select_related("player").filter(accepted=False))
        for seat in waiting:
            notify.rematch(again, seat, actor)
        if not waiting:
            return start_game(again, actor=actor)
    return again


def accept_rematch(seat: Seat) -> Game:
    """One person says yes to playing again; the last yes starts the game."""
    with transaction.atomic():
        game = lock_game(seat.game_id)
        if game.status != Game.Status.DRAFT or game.previous_id is None:
            raise SubmitError(_("There is nothing to accept: this game is not an offer to play again."), "no_offer")
        Seat.objects.filter(pk=seat.pk).update(accepted=True)
        if not game.seats.filter(accepted=False).exists():
            return start_game(game)
        return game
