"""Pages. Thin: read the request, find the seat or game, call the service, render a view.

A seat page never changes anything on GET (mail scanners open links); only its form's POST
does, through services.submit.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from games.engine import IllegalMove, OptionsError
from games.titles import get_title

from . import forms, links, notify, services
from .models import DeliveredMail, Event, Game, Seat
from .present import score_rows


def home(request: HttpRequest) -> HttpResponse:
    games = []
    if request.user.is_authenticated and request.user.is_staff:
        games = Game.objects.all() if request.user.is_superuser else Game.objects.filter(organiser=request.user)
    return render(request, "games/home.html", {"games": games})


# --- organisers ------------------------------------------------------------------------------


def _organised(request: HttpRequest, pk: int) -> Game:
    game = get_object_or_404(Game, pk=pk)
    if not (request.user.is_superuser or game.organiser_id == request.user.pk):
        raise PermissionDenied("You do not organise this game.")
    return game


@staff_member_required
def game_new(request: HttpRequest) -> HttpResponse:
    slug = request.POST.get("title") or request.GET.get("title") or ""
    try:
        schema = get_title(slug).options_schema if slug else []
    except KeyError:
        schema = []
    form = forms.NewGameForm(request.POST or None, initial={"title": slug}, schema=schema)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.create_game(
                request.user,
                form.cleaned_data["title"],
                form.cleaned_data["name"],
                form.options(),
                form.cleaned_data["seats"],
            )
        except OptionsError as e:
            form.add_error(None, str(e))
        else:
            messages.success(request, "Game created. Check the seats, then start it.")
            return redirect(game)
    return render(request, "games/game_new.html", {"form": form})


@staff_member_required
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    game = _organised(request, pk)
    view = game.engine.view(game.state, None) if game.state is not None else None
    outcome = game.engine.outcome(game.state) if game.state is not None else None
    seats = list(game.seats.select_related("player"))
    rows = score_rows(outcome, {s.index: s.name for s in seats}) if outcome else None
    return render(
        request,
        "games/game_detail.html",
        {"game": game, "seats": seats, "view": view, "rows": rows, "tiebreak": outcome.tiebreak if outcome else ""},
    )


@staff_member_required
@require_POST
def game_start(request: HttpRequest, pk: int) -> HttpResponse:
    game = _organised(request, pk)
    try:
        services.start_game(game, actor=request.user)
    except (services.SubmitError, OptionsError) as e:
        messages.error(request, getattr(e, "message", str(e)))
    else:
        messages.success(request, "The game has started: every player has been emailed.")
    return redirect(game)


@staff_member_required
def outbox(request: HttpRequest) -> HttpResponse:
    """The embedded mailbox: what the local mail backend 'delivered'."""
    return render(request, "games/outbox.html", {"mails": DeliveredMail.objects.all()[:200]})


@staff_member_required
def outbox_mail(request: HttpRequest, pk: int) -> HttpResponse:
    mail = get_object_or_404(DeliveredMail, pk=pk)
    return render(request, "games/outbox_mail.html", {"mail": mail})


@staff_member_required
def outbox_html(request: HttpRequest, pk: int) -> HttpResponse:
    mail = get_object_or_404(DeliveredMail, pk=pk)
    resp = HttpResponse(mail.body_html or "<p>(no HTML part)</p>")
    resp["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
    return resp


# --- seats (signed links, no password) -------------------------------------------------------


def _seat_or_error(request: HttpRequest, token: str) -> Seat | HttpResponse:
    try:
        return links.seat_from_token(token)
    except links.LinkError as e:
        return render(
            request, "games/link_error.html", {"message": str(e), "expired_seat": e.seat, "token": token}, status=403
        )


def seat(request: HttpRequest, token: str) -> HttpResponse:
    seat = _seat_or_error(request, token)
    if isinstance(seat, HttpResponse):
        return seat
    game = seat.game
    if request.method == "POST":
        return _seat_post(request, token, seat)
    if game.state is None:
        return render(request, "games/seat_waiting.html", {"game": game, "seat": seat})
    engine = game.engine
    state = game.state
    outcome = engine.outcome(state)
    prompt = None if outcome else engine.prompts(state).get(seat.index)
    if game.status != Game.Status.ACTIVE:
        prompt = None
    view = engine.view(state, seat.index)
    names = {s.index: s.name for s in game.seats.select_related("player")}
    log = list(enumerate(view.get("log", [])))
    new_from = seat.seen_log or len(log)
    if seat.seen_log != len(log):
        Seat.objects.filter(pk=seat.pk).update(seen_log=len(log))  # a read marker, not game state
    ctx = {
        "game": game,
        "seat": seat,
        "token": token,
        "view": view,
        "log": log[::-1],
        "prompt": prompt.to_dict() if prompt else None,
        "prompt_html": forms.render_prompt(prompt.to_dict()) if prompt else "",
        "prompt_key": services.prompt_key(prompt) if prompt else "",
        "rows": score_rows(outcome, names) if outcome else None,
        "tiebreak": outcome.tiebreak if outcome else "",
        "new_from": new_from,
        "others_waiting": game.to_move,
    }
    return render(request, "games/seat.html", ctx)


def _seat_post(request: HttpRequest, token: str, seat: Seat) -> HttpResponse:
    game = seat.game
    here = reverse("seat", args=[token])
    try:
        expected = int(request.POST.get("version", ""))
    except ValueError:
        messages.error(request, "This form is incomplete; here is the table as it is now.")
        return redirect(here)
    engine = game.engine
    prompt = engine.prompts(game.state).get(seat.index) if game.state is not None else None
    try:
        # with no question for this seat the service still says why (already answered, not your move)
        answer = forms.answer_from_post(prompt.to_dict(), request.POST) if prompt else None
        services.submit(game.pk, seat.index, answer, expected, via="web", prompt_key=request.POST.get("prompt_key"))
    except IllegalMove as e:
        messages.error(request, f"{e} Nothing was played.")
    except services.SubmitError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, "Played.")
    return redirect(here + "#decision")


@require_POST
def seat_fresh_link(request: HttpRequest, token: str) -> HttpResponse:
    """An expired link may ask for a fresh one, which goes to the seat's own address only."""
    try:
        links.seat_from_token(token)
        return redirect("seat", token=token)
    except links.LinkError as e:
        if e.seat is None or e.seat.is_bot or not e.seat.email:
            return render(request, "games/link_error.html", {"message": str(e)}, status=403)
        notify.fresh_link(e.seat)
        return render(
            request,
            "games/link_error.html",
            {"message": "A fresh link is on its way to the address this seat was invited with.", "sent": True},
        )


def seat_history(request: HttpRequest, token: str) -> HttpResponse:
    """Step through the game as this seat saw it then (everything, once the game is over)."""
    seat = _seat_or_error(request, token)
    if isinstance(seat, HttpResponse):
        return seat
    game = seat.game
    if game.state is None:
        return redirect("seat", token=token)
    steps = list(game.events.exclude(kind=Event.Kind.ENDED).values_list("seq", flat=True))
    try:
        step = int(request.GET.get("step", steps[-1]))
    except ValueError:
        step = steps[-1]
    step = min(max(step, 0), steps[-1])
    state, _ = services.replay(game, upto=step)
    ended = game.status == Game.Status.ENDED
    # once the game is over every hand may be seen: pick whose eyes to look through
    names = {s.index: s.name for s in game.seats.select_related("player")}
    as_seat = seat.index
    if ended and request.GET.get("as", "").isdigit() and int(request.GET["as"]) in names:
        as_seat = int(request.GET["as"])
    view = game.engine.view(state, as_seat)
    return render(
        request,
        "games/history.html",
        {
            "game": game,
            "seat": seat,
            "token": token,
            "view": view,
            "step": step,
            "last": steps[-1],
            "prev": step - 1 if step > 0 else None,
            "next": step + 1 if step < steps[-1] else None,
            "ended": ended,
            "names": names,
            "as_seat": as_seat,
            "log": list(enumerate(view.get("log", [])))[::-1],
        },
    )


# --- mail preferences ------------------------------------------------------------------------


@csrf_exempt  # RFC 8058 one-click: mail providers POST "List-Unsubscribe=One-Click" without a session
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks (mail scanners open links); POST unsubscribes. The person's games go on."""
    user = notify.user_from_unsubscribe(token)
    if user is None:
        return render(request, "games/unsubscribe.html", {"error": "This unsubscribe link is not valid."}, status=403)
    if request.method == "POST":
        type(user).objects.filter(pk=user.pk).update(unsubscribed=True)
        return render(request, "games/unsubscribe.html", {"done": True, "email": user.email})
    return render(request, "games/unsubscribe.html", {"email": user.email})


def seat_settings(request: HttpRequest, token: str) -> HttpResponse:
    """A player's own mail preferences and timezone, reached from their seat link."""
    seat = _seat_or_error(request, token)
    if isinstance(seat, HttpResponse):
        return seat
    user = seat.player
    if user is None:
        raise PermissionDenied("A bot seat has no preferences.")
    form = forms.PreferencesForm(request.POST or None, instance=user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Saved. Your games go on as before.")
        return redirect("seat-settings", token=token)
    return render(request, "games/settings.html", {"form": form, "seat": seat, "game": seat.game, "token": token})
