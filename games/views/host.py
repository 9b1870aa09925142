"""A game's host: anyone signed in may start a game (new_game.py), and manages only the games they host.

Staff keep the admin; these pages give a host who is not staff the same forms and writes
(games.host_actions), each with a reason recorded in the log.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from games import host_actions, links
from games.actions import joining, organise, write
from games.engine import OptionsError
from games.messages import reading_for, say
from games.messages import render as rendered
from games.models import ChatHook, Game
from games.present import shown_scores, table_template

from . import chat_hooks


def hosted_game(request: HttpRequest, pk: int) -> Game:
    game = get_object_or_404(Game, pk=pk)
    if not (request.user.is_superuser or game.organiser_id == request.user.pk):
        raise PermissionDenied(_("You do not host this game."))
    return game


@login_required
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _detail(request, hosted_game(request, pk))


def _detail(request: HttpRequest, game: Game, chat_form=None, status: int = 200) -> HttpResponse:
    seats = list(game.seats.select_related("player"))
    reading = reading_for(game, {s.index: s.name for s in seats})
    view = rendered(game.engine.view(game.state, None), reading) if game.state is not None else None
    outcome = game.engine.outcome(game.state) if game.state is not None else None
    scores = shown_scores(outcome, {s.index: s.name for s in seats}, game.title)
    playing = game.status in (Game.Status.ACTIVE, Game.Status.PAUSED)
    actions = [
        a
        for a in host_actions.ACTIONS.values()
        if playing
        and not (a.slug == "pause" and game.status == Game.Status.PAUSED)
        and not (a.slug == "resume" and game.status != Game.Status.PAUSED)
    ]
    mine = next((s for s in seats if s.player_id == request.user.pk and not (s.is_bot and not s.stand_in)), None)
    return render(
        request,
        "games/game_detail.html",
        {
            "game": game,
            "seats": seats,
            # the host who plays goes to their own seat from here (a link signed for it, as home gives)
            "my_seat_url": reverse("seat", args=[links.token_for(mine)]) if mine is not None else "",
            "view": view,
            "table_template": table_template(game.title),
            **scores,
            "actions": actions,
            "open_seats": sum(1 for s in seats if s.is_open),
            "join_url": links.join_url(game) if game.join_nonce and game.status == Game.Status.DRAFT else "",
            "watch_url": links.watch_url(game) if game.watch_nonce else "",
            **chat_hooks.context(
                ChatHook.objects.filter(game=game),
                lambda hook: reverse("game-chat-hook", args=[game.pk, hook]),
                reverse("game-chat", args=[game.pk]),
                chat_form,
            ),
        },
        status=status,
    )


@login_required
@require_POST
def game_chat(request: HttpRequest, pk: int) -> HttpResponse:
    """The host adds the game's shared chat: one message per wait, linking to the public page."""
    game = hosted_game(request, pk)
    form = chat_hooks.add(request, game=game)
    if form is not None:
        return _detail(request, game, form, status=400)
    return redirect(reverse("game-detail", args=[game.pk]) + "#chat")


@login_required
@require_POST
def game_chat_hook(request: HttpRequest, pk: int, hook: int) -> HttpResponse:
    game = hosted_game(request, pk)
    found = ChatHook.objects.filter(pk=hook, game=game).first()
    if found is None:
        return chat_hooks.no_such(request)
    chat_hooks.act(request, found)
    return redirect(reverse("game-detail", args=[game.pk]) + "#chat")


@login_required
@require_POST
def game_start(request: HttpRequest, pk: int) -> HttpResponse:
    game = hosted_game(request, pk)
    try:
        organise.start_game(game, actor=request.user, bots_in_open_seats=request.POST.get("bots") == "1")
    except (write.SubmitError, OptionsError) as e:
        messages.error(request, say(e.args[0]) if e.args else str(e))
    else:
        silent = [
            s.name
            for s in game.seats.select_related("player")
            if s.player_id and not s.is_bot and s.player.unsubscribed
        ]
        if silent:
            messages.warning(
                request,
                ngettext(
                    "The game has started, but %(names)s turned all email off, so that player was not invited: "
                    "tell them yourself, or replace the seat.",
                    "The game has started, but %(names)s turned all email off, so they were not invited: "
                    "tell them yourself, or replace the seat.",
                    len(silent),
                )
                % {"names": ", ".join(silent)},
            )
        else:
            messages.success(request, _("The game has started: every player has been emailed."))
    return redirect(game)


@login_required
def game_act(request: HttpRequest, pk: int, slug: str) -> HttpResponse:
    """One host action: its form (with the reason), then the write; a refusal changes nothing."""
    game = hosted_game(request, pk)
    act = host_actions.ACTIONS.get(slug)
    if act is None:
        return render(request, "404.html", {"message": _("There is no such action.")}, status=404)
    form = act.form(request.POST if request.method == "POST" else None, game=game, **act.form_kwargs(game))
    if request.method == "POST" and form.is_valid():
        try:
            done = act.do(game, form.cleaned_data, request.user)
        except write.SubmitError as e:
            messages.error(request, _("%(why)s Nothing was changed.") % {"why": e.message})
        else:
            messages.success(request, _("%(game)s: %(done)s") % {"game": game.name, "done": done})
        return redirect(game)
    status = 400 if form.errors else 200
    return render(request, "games/game_act.html", {"game": game, "act": act, "form": form}, status=status)


# what the host's shared links are: (make or revoke, said when made, said when revoked)
SHARED_LINKS = {
    "join": (
        joining.set_join_link,
        gettext_lazy("A new join link: the old one no longer works."),
        gettext_lazy("The join link is revoked."),
    ),
    "watch": (
        organise.set_watch_link,
        gettext_lazy("A new spectator link: the old one no longer works."),
        gettext_lazy("The spectator link is revoked."),
    ),
}


@login_required
@require_POST
def shared_link(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    """The host makes a fresh join or spectator link (the old one stops working), or revokes it."""
    game = hosted_game(request, pk)
    setter, made, revoked = SHARED_LINKS[kind]
    on = request.POST.get("do") == "new"
    try:
        setter(game, on)
    except write.SubmitError as e:
        messages.error(request, _("%(why)s Nothing was changed.") % {"why": e.message})
    else:
        messages.success(request, str(made if on else revoked))

    return redirect(game)
