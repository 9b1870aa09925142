"""What a game's host (or an organiser in the admin) may do to a game, each with a reason.

One list for both places: the admin's actions and the host's pages on the site run the same
forms and the same organise.* writes, so a host who is not staff manages their own games exactly
as organisers do, and every action lands in the log with who did it and why.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from .actions import organise, replay, write
from .forms import host as host_forms
from .models import Event, Game


@dataclass(frozen=True)
class HostAction:
    slug: str
    title: str
    form: type
    do: Callable[[Game, dict, Any], str]  # (game, cleaned data, actor) -> what was done, in words
    form_kwargs: Callable[[Game], dict] = field(default=lambda game: {})
    playing_only: bool = True  # offered while the game is in play (not a draft, not over)


def _pause(game: Game, data: dict, actor) -> str:
    organise.pause(game, actor, data["reason"])
    return _("paused; every clock has stopped.")


def _resume(game: Game, data: dict, actor) -> str:
    organise.resume(game, actor, data["reason"])
    return _("resumed; every deadline moved by the length of the pause.")


def _extend(game: Game, data: dict, actor) -> str:
    seat = data.get("seat")
    if game.seats.exclude(deadline=None).count() == 0:
        raise write.SubmitError(_("No seat has a running deadline to extend."), "no_deadline")
    organise.extend_deadline(game, data["hours"], actor, data["reason"], seat_index=int(seat) if seat else None)
    return _("deadline extended by %(hours)s h.") % {"hours": f"{data['hours']:g}"}


def _resend(game: Game, data: dict, actor) -> str:
    seat = game.seats.select_related("player").get(index=int(data["seat"]))
    organise.resend_last(seat, actor, reason=data["reason"])
    return _("the current question was sent again to %(seat)s.") % {"seat": seat.name}


def _replace(game: Game, data: dict, actor) -> str:
    seat = organise.replace_player(game.seats.get(index=int(data["seat"])), data["email"], actor, data["reason"])
    return _("seat %(n)s is now %(email)s: a fresh link was sent, old links stop working.") % {
        "n": seat.index + 1,
        "email": seat.player.email,
    }


def _to_bot(game: Game, data: dict, actor) -> str:
    seat = game.seats.select_related("player").get(index=int(data["seat"]))
    if seat.is_bot:
        raise write.SubmitError(_("A bot plays %(seat)s already.") % {"seat": seat.name}, "already_bot")
    organise.hand_to_bot(seat, actor, data["reason"])
    return _("a bot plays for %(seat)s now; everyone was told.") % {"seat": seat.name}


def _rewind(game: Game, data: dict, actor) -> str:
    event = organise.rewind(game, int(data["step"]), actor, data["reason"])
    voids = event.payload.get("voids", [])
    return _("rewound to step #%(step)s; voided %(voids)s (still in the log).") % {
        "step": data["step"],
        "voids": ", ".join(f"#{v}" for v in voids),
    }


def _end(game: Game, data: dict, actor) -> str:
    organise.end_game(game, actor, data["reason"])
    return _("ended; every player was told.")


def voided_by(game_id: int) -> dict[int, int]:
    """{seq of a voided step: seq of the rewind or undo that voided it}."""
    rows = Event.objects.filter(game_id=game_id, kind=Event.Kind.ADMIN, payload__has_key="voids")
    return {v: seq for seq, payload in rows.values_list("seq", "payload") for v in payload["voids"]}


def rewind_steps(game: Game) -> list[tuple[str, str]]:
    """(seq, label) for each step a game can be rewound to, each saying which later steps it voids."""
    events = list(game.events.order_by("seq"))
    voided = voided_by(game.pk)
    names = {s.index: s.name for s in game.seats.select_related("player")}
    live = [e for e in events if e.kind in replay.PLAYED and e.seq not in voided]
    if not live:
        return []
    choices = []
    targets = [events[0], *live[:-1]]
    for e in targets:
        later = [x.seq for x in live if x.seq > e.seq]
        if e.kind == Event.Kind.CREATED:
            what = _("the deal (the start of the game)")
        else:
            answer = json.dumps(e.payload.get("answer"))[:60]
            what = _("%(seat)s: %(answer)s (%(kind)s via %(via)s)") % {
                "seat": names.get(e.seat, e.seat),
                "answer": answer,
                "kind": e.get_kind_display().lower(),
                "via": e.via or "-",
            }
        shown = ", ".join(f"#{s}" for s in later[:12]) + (" …" if len(later) > 12 else "")
        voids = ngettext(
            "#%(seq)s %(what)s — voids %(n)s step: %(shown)s",
            "#%(seq)s %(what)s — voids %(n)s steps: %(shown)s",
            len(later),
        )
        choices.append((str(e.seq), voids % {"seq": e.seq, "what": what, "n": len(later), "shown": shown}))
    return choices[::-1]


ACTIONS: dict[str, HostAction] = {
    a.slug: a
    for a in (
        HostAction("pause", gettext_lazy("Pause (every clock stops)"), host_forms.ReasonForm, _pause),
        HostAction("resume", gettext_lazy("Resume (clocks go on)"), host_forms.ReasonForm, _resume),
        HostAction("extend", gettext_lazy("Extend the deadline"), host_forms.ExtendForm, _extend),
        HostAction("resend", gettext_lazy("Resend a seat's question"), host_forms.PeopleSeatForm, _resend),
        HostAction("replace", gettext_lazy("Replace a seat's player"), host_forms.ReplaceForm, _replace),
        HostAction("bot", gettext_lazy("Hand a seat to a bot"), host_forms.PeopleSeatForm, _to_bot),
        HostAction(
            "rewind",
            gettext_lazy("Rewind to an earlier step"),
            host_forms.RewindForm,
            _rewind,
            lambda g: {"steps": rewind_steps(g)},
        ),
        HostAction("end", gettext_lazy("End the game now"), host_forms.ReasonForm, _end),
    )
}
