"""A turn of several steps sent at once, and its preview, behind the seat's signed link.

The seat page's script queues a seat's steps (Café's placement and actions, tapped on the grid):
after each, it asks `seat_preview` for the table as it will be (the pure engine applies the queued
answers to a copy of the state; nothing is written) and draws it; then `seat_turn` sends them all
through the write path, which plays them in order in one transaction, or none and says which and
why. Both read the same fields: the page's `version` and `prompt_key` (the question it showed)
and `steps`, a JSON list of answers. Without script the page answers one step at a time, as
before (games/views/seat.py).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games import links
from games.actions import answers, play, steps, write
from games.engine import IllegalMove
from games.engine.typed import Unreadable, read_int
from games.forms.prompts import render_prompt
from games.messages import reading_for, refusal
from games.messages import render as rendered
from games.models import Seat
from games.present import table_template

from .seat import seat_or_error


def _version(request: HttpRequest) -> int:
    try:
        return read_int(request.POST.get("version", ""), low=0)
    except Unreadable:
        raise write.SubmitError(_("This form is incomplete; here is the table as it is now."), "form") from None


def _steps(request: HttpRequest, sending: bool = True) -> list:
    """The posted steps; unreadable ones are refused (saying nothing was played when they were sent)."""
    try:
        return answers.read_steps(request.POST.get("steps"), steps.MAX_STEPS)
    except IllegalMove as e:
        raise write.SubmitError(write.nothing_played(refusal(e)) if sending else refusal(e), "form") from None


@require_POST
def seat_turn(request: HttpRequest, token: str) -> HttpResponse:
    """Send a queued turn: every step played in order, or none, with the reason shown by the decision."""
    seat = seat_or_error(request, token, lean=True)
    if isinstance(seat, HttpResponse):
        return seat
    try:
        expected = _version(request)
        sent = _steps(request)
        played = play.submit_steps(
            seat.game_id, seat.index, sent, expected, via="web", prompt_key=request.POST.get("prompt_key")
        )
    except write.SubmitError as e:
        messages.error(request, e.message, extra_tags="decision")
    else:
        said = (
            _("Played.")
            if len(played) == 1
            else ngettext("Played your %(n)s step.", "Played your %(n)s steps.", len(played)) % {"n": len(played)}
        )
        messages.success(request, said, extra_tags="decision")
    return redirect(reverse("seat", args=[token]) + "#decision")


@never_cache
@require_POST
def seat_preview(request: HttpRequest, token: str) -> JsonResponse:
    """The table as this seat would see it after its queued steps, as JSON for its page; writes nothing.

    {"ok": true, "steps": [{"answer", "label"}], "asked": whether a question follows, "table": the
    title's table drawn from the seat's view (or "" when the last step may not be shown ahead, "note"
    says why), "prompt": the next question and "prompt_html" its form fields}; or {"ok": false,
    "message": why, in words} with status 400 (403 for a link that opens no seat).
    """
    try:
        seat = links.seat_from_token(token)
    except links.LinkError as e:
        return JsonResponse({"ok": False, "message": str(e)}, status=403)
    try:
        expected = _version(request)
        sent = _steps(request, sending=False)
        seen = play.preview_steps(seat.game, seat, sent, expected, request.POST.get("prompt_key"))
    except write.SubmitError as e:
        return JsonResponse({"ok": False, "message": e.message}, status=400)

    return JsonResponse(_drawn(request, seat, token, seen))


def _drawn(request: HttpRequest, seat: Seat, token: str, seen: play.Preview) -> dict:
    """The preview as its page draws it: the title's own table template, from the seat's view only."""
    game = seat.game
    out = {
        "ok": True,
        "steps": [{"answer": s.answer, "label": s.label} for s in seen.steps],
        "asked": seen.prompt is not None,
        "note": seen.note,
        "table": "",
        "prompt": None,
        "prompt_html": "",
    }
    if seen.state is None:
        return out
    reading = reading_for(game, {s.index: s.name for s in game.seats.select_related("player")})
    view = rendered(game.engine.view(seen.state, seat.index), reading)
    prompt = rendered(seen.prompt.to_dict(), reading) if seen.prompt is not None else None
    context = {"game": game, "seat": seat, "token": token, "view": view, "prompt": prompt, "preview": True}
    out["table"] = table_template(game.title).render(context, request)
    if prompt is not None:
        out["prompt"] = prompt
        out["prompt_html"] = str(render_prompt(prompt))
    return out
