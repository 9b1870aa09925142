"""A seat's pages, behind its signed link (no password): the table, its decision, and the seat's
small controls, each a POST of its own; the history; a fresh link; playing again.

A seat page never changes anything on GET (mail scanners open links); only its form's POST
does, through play.submit, which reads the posted answer against the question under the lock.
"""

from __future__ import annotations

import hashlib

from django.contrib import messages
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from accounts import bounces, languages
from cardsets import store as cardset_store
from games import links, notify, waiting
from games.actions import answers, deadlines, organise, play, replay, talk, write
from games.clock import rules as clock
from games.clock import terms as clock_terms
from games.clock import vacation
from games.engine.prompts import prompt_key
from games.engine.typed import Unreadable, read_int
from games.forms.prompts import kept_picks, render_prompt
from games.forms.seat import PlanForm, TalkForm, VacationForm
from games.messages import reading_for, say
from games.messages import render as rendered
from games.models import Event, Game, Seat, Vacation
from games.present import LOG_LINES, as_shown, shown_scores, table_context, table_template
from games.reader_time import local_time
from games.views.live import marker


def seat_or_error(
    request: HttpRequest, token: str, lean: bool = False, log_lines: int | None = None
) -> Seat | HttpResponse:
    try:
        return links.seat_from_token(token, lean=lean, log_lines=log_lines)
    except links.LinkError as e:
        return render(
            request, "games/link_error.html", {"message": str(e), "expired_seat": e.seat, "token": token}, status=403
        )


SECTIONS = ("decision", "undo", "takeback", "pause", "vacation", "plan", "talk")


@never_cache  # Back must refetch the table as it is now, never show a stale question
def seat(request: HttpRequest, token: str) -> HttpResponse:
    """The table from one seat, its decision, and the seat's small controls (each POSTs to its own view)."""
    posted = request.method == "POST"
    seat = seat_or_error(request, token, lean=posted, log_lines=None if posted else LOG_LINES)
    if isinstance(seat, HttpResponse):
        return seat
    if not seat.is_bot:
        languages.as_player(request, seat.player)
    if request.method == "POST":
        return _seat_post(request, token, seat)
    game = seat.game
    if game.state is None:
        return render(request, "games/seat_waiting.html", {"game": game, "seat": seat, "token": token})
    engine = game.engine
    state = game.state
    outcome = engine.outcome(state)
    prompts = {} if outcome else engine.prompts(state)
    prompt = prompts.get(seat.index) if game.status == Game.Status.ACTIVE else None
    seats = list(game.seats.select_related("player"))
    names = {s.index: s.name for s in seats}
    # the database may have sent only the newest lines (seat.log_total says how many there are)
    table = table_context(
        engine, game.title, state, seat.index, names, LOG_LINES, getattr(seat, "log_total", None), game=game
    )
    total = table["log_total"]
    new_from = seat.seen_log or total
    if seat.seen_log != total:
        Seat.objects.filter(pk=seat.pk).update(seen_log=total)  # a read marker, not game state
    tz = _reader_tz(seat, game)
    playing = game.status == Game.Status.ACTIVE
    person = seat.player_id is not None and not (seat.is_bot and not seat.stand_in)
    # messages for a control are shown next to it; the rest at the top as usual
    notes: dict[str, list] = {name: [] for name in SECTIONS}
    top = []
    for m in messages.get_messages(request):
        (notes[m.extra_tags] if m.extra_tags in notes else top).append(m)
    # the question in the reader's words (its key is the engine's own: the same in every language)
    shown = rendered(prompt.to_dict(), reading_for(game, names)) if prompt else None
    ctx = {
        "messages": top,
        "notes": notes,
        "game": game,
        "seat": seat,
        "token": token,
        **table,
        "prompt": shown,
        "prompt_html": render_prompt(shown, picked=_refused_picks(request, seat, prompt)) if prompt else "",
        "prompt_key": prompt_key(prompt) if prompt else "",
        "new_from": new_from,
        "others_waiting": game.to_move,
        "tz": tz,
        "my_deadline": local_time(seat.deadline, tz) if prompt else "",
        "clock_rules": say(clock_terms.describe_said(game.clock, game.vacation_days if game.auto_vacation else 0)),
        "table": _table_rows(game, seats, seat, prompts, tz),
        "person": person,
        "playing": playing,
        "undo": _undo_offer(game, seat) if playing and person and not seat.stand_in else None,
        "pause_votes": [s.name for s in seats if s.wants_pause and s.player_id and not s.is_bot],
        "vacation": _vacation_panel(game, seat, tz) if person and game.status != Game.Status.ENDED else None,
        "plan": _plan_panel(game, seat, prompt, names) if playing and person and not seat.is_bot else None,
        "talk": _talk_panel(request, game, seat, tz),
        "again_offered": game.status == Game.Status.ENDED and Game.objects.filter(previous=game).exists(),
        "paused": paused_line(game, tz) if game.status == Game.Status.PAUSED else "",
        "cardset_name": cardset_store.name_for(game.title, game.cardset_hash),
        "live_marker": marker(game.version, game.last_message, game.status),
        "your_move": prompt is not None,
        "next_game": _next_game(request, seat) if prompt is None else None,
        **_mail_refused(seat, token),
    }
    return render(request, "games/seat.html", ctx)


def _next_game(request: HttpRequest, seat: Seat) -> dict[str, str] | None:
    """Where a person goes once this seat asks nothing of them: their next game waiting on them.

    Only for the seat's own player, signed in: a seat link opens one seat, and the page it opens
    must not hand out links to the other seats of whoever holds it (a forwarded link stays one seat).
    """
    user = request.user
    if seat.player_id is None or not user.is_authenticated or user.pk != seat.player_id:
        return None
    found = waiting.next_seat(user, besides_game=seat.game_id)
    if found is None:
        return None
    return {"url": reverse("seat", args=[links.token_for(found)]), "name": found.game.name}


def _mail_refused(seat: Seat, token: str) -> dict[str, str]:
    """What base.html's notice needs when this seat's player's address refuses mail (they may not be
    signed in, so the account's own notice would not reach them)."""
    player = seat.player if seat.player_id and not seat.is_bot else None
    if player is None or player.mail_refused_at is None:
        return {"mail_refused": ""}
    return {
        "mail_refused": bounces.said(player.mail_refused_at, player.mail_refused_reason),
        "mail_refused_address": player.email,
        "mail_refused_action": reverse("seat-mail-works", args=[token]),
    }


def paused_line(game: Game, tz: str) -> str:
    """The paused game's line, "Paused since <when> by <whom> (<why>).", in the reader's timezone."""
    event = game.events.filter(kind=Event.Kind.ADMIN, payload__action="pause").select_related("actor").last()
    since = local_time(game.paused_at or (event.created_at if event else None), tz)
    why = (event.payload.get("reason") or "").strip() if event is not None else ""
    who = organise.who_acted(event.actor, event.via) if event is not None else ""
    values = {"since": since, "who": who, "why": why}
    if event is None:
        text = _("Paused since %(since)s.") if since else _("Paused.")
    elif why:
        text = _("Paused since %(since)s by %(who)s (%(why)s).") if since else _("Paused by %(who)s (%(why)s).")
    else:
        text = _("Paused since %(since)s by %(who)s.") if since else _("Paused by %(who)s.")
    return (text % values) + " " + _("Every clock has stopped until the game resumes.")


def _reader_tz(seat: Seat, game: Game) -> str:
    return seat.player.timezone if seat.player_id and seat.player.timezone else game.timezone


def _table_rows(game: Game, seats: list[Seat], me: Seat, prompts: dict, tz: str) -> list[dict]:
    """Who sits where: asked now and due when, away until when, played by a bot for whom."""
    now = timezone.now()
    away: dict[int, list[str]] = {}
    game_clock = game.clock
    running = {s.pk: s.clock_since for s in seats if s.index in prompts and s.clock_since and game_clock.bank}
    spans: dict[int, list] = {}  # the vacations that stopped a running bank
    drawing: set[int] = set()  # seats on vacation hours drawn automatically
    since = min([*running.values(), now])
    stopped = game.paused_at if game.status == Game.Status.PAUSED and game.paused_at else now  # a pause stops banks
    for v in Vacation.objects.filter(seat__game=game, ends__gt=since).order_by("starts"):
        spans.setdefault(v.seat_id, []).append((v.starts, v.ends))
        if v.ends <= now:
            continue
        if v.automatic:
            if v.starts <= now:
                drawing.add(v.seat_id)
            continue
        until = local_time(v.ends, tz)
        text = (
            _("on vacation until %(until)s") % {"until": until}
            if v.starts <= now
            else _("away from %(starts)s until %(until)s") % {"starts": local_time(v.starts, tz), "until": until}
        )
        away.setdefault(v.seat_id, []).append(text)
    books = vacation.vacation_books(sorted(drawing), now) if drawing else {}
    for pk, book in books.items():
        left = int(vacation.vacation_left(game, book.used).total_seconds() // 3600)
        away.setdefault(pk, []).insert(0, _("using vacation time (%(n)s h left)") % {"n": left})
    rows = []
    for s in seats:
        bank = (
            None
            if s.is_bot
            else clock.bank_left(game_clock, s.bank_seconds, running.get(s.pk), stopped, spans.get(s.pk, []))
        )
        rows.append(
            {
                "name": s.name,
                "me": s.pk == me.pk,
                "asked": s.index in prompts,
                "deadline": local_time(s.deadline, tz) if s.index in prompts else "",
                "bank": say(clock_terms.span_said(bank)) if bank is not None else "",
                "away": away.get(s.pk, []),
                "stand_in": s.stand_in,
                "bot": s.is_bot and not s.stand_in,
                "wants_pause": s.wants_pause,
            }
        )
    return rows


def _undo_offer(game: Game, seat: Seat) -> dict | None:
    """The undo button, or why not: only while this seat's answer is the last thing played (no nagging)."""
    last = play.last_played(game)
    if last is None or last.seat != seat.index or last.kind != Event.Kind.ANSWER or last.via not in write.PEOPLE_VIAS:
        return None
    # the verdict replays the log, so it is kept per (game, version, seat): it cannot change until the version does
    # and the reader's language: the verdict is kept in the words it was said in
    said = f"{game.seed}:{game.version}:{seat.pk}:{get_language()}"
    key = "undo-refusal:" + hashlib.sha256(said.encode()).hexdigest()[:32]
    why = cache.get(key)
    if why is None:
        why = play.undo_refusal(game, seat)
        cache.set(key, why, 3600)
    return {"why": why}


def _vacation_panel(game: Game, seat: Seat, tz: str) -> dict:
    now = timezone.now()
    book = vacation.vacation_books([seat.pk], now)[seat.pk]
    mine = [
        {"starts": local_time(v.starts, tz), "ends": local_time(v.ends, tz)}
        for v in seat.vacations.filter(ends__gt=now)
    ]
    return {
        "allowance": game.vacation_days,
        "used": vacation.days_used(book.begun),  # whole days, and only what has begun
        "mine": mine,
        "form": VacationForm(),
    }


def _upcoming(game: Game, seat: Seat):
    """The question this seat will most likely be asked next, if the title says and it is a single pick."""
    upcoming = game.engine.upcoming  # None: the title does not say
    if upcoming is None:
        return None
    nxt = upcoming(game.state, seat.index)
    return nxt if nxt is not None and getattr(nxt, "kind", "") == "choose" else None


def _plan_panel(game: Game, seat: Seat, prompt, names: dict[int, str]) -> dict | None:
    nxt = None if prompt else _upcoming(game, seat)
    if nxt is None and not seat.plan:
        return None
    reading = reading_for(game, names)  # the page's seats, read once
    labels = {o.id: say(o.label, reading) for o in nxt.options} if nxt else {}
    options = [{"id": o.id, "label": labels[o.id]} for o in nxt.options] if nxt else []
    return {
        "prompt": rendered(nxt.to_dict(), reading) if nxt else None,
        "key": prompt_key(nxt) if nxt else "",
        "form": PlanForm(options=options) if nxt else None,
        "current": [labels.get(a, str(a)) for a in seat.plan],
    }


def _talk_panel(request: HttpRequest, game: Game, seat: Seat, tz: str) -> dict:
    board = game.messages.order_by("-created_at", "-id")[:100]
    draft = request.session.get(_draft_key(seat), "")
    return {
        "messages": [{"author": m.author, "text": m.text, "when": local_time(m.created_at, tz)} for m in board],
        "form": TalkForm(initial={"text": draft}),
        "open": game.status != Game.Status.DRAFT and seat.player_id is not None,
    }


def _draft_key(seat: Seat) -> str:
    return f"talk-draft-{seat.pk}"


def _seat_post(request: HttpRequest, token: str, seat: Seat) -> HttpResponse:
    """An answer: the seat as the link names it (lean), the rest read by the write path under its lock."""
    here = reverse("seat", args=[token])
    try:
        expected = read_int(request.POST.get("version", ""), low=0)
    except Unreadable:
        messages.error(request, _("This form is incomplete; here is the table as it is now."), extra_tags="decision")
        return redirect(here + "#decision")
    try:
        # the form is read against the question under the game's lock; with no question for this
        # seat the service says why (already answered, not your move, the game is over...)
        posted = answers.Posted(request.POST)
        play.submit(seat.game_id, seat.index, posted, expected, via="web", prompt_key=request.POST.get("prompt_key"))
    except write.SubmitError as e:
        messages.error(request, e.message, extra_tags="decision")
        picks = kept_picks(request.POST)
        if picks:  # the page comes back with the player's picks as they left them
            request.session[_picks_key(seat)] = {"key": request.POST.get("prompt_key", "")[:200], "fields": picks}
    else:
        messages.success(request, _("Played."), extra_tags="decision")
    return redirect(here + "#decision")


def _picks_key(seat: Seat) -> str:
    return f"refused-picks-{seat.pk}"


def _refused_picks(request: HttpRequest, seat: Seat, prompt) -> dict | None:
    """The picks of this seat's form that was just refused, if the question is still the one it answered."""
    kept = request.session.pop(_picks_key(seat), None) if _picks_key(seat) in request.session else None
    if isinstance(kept, dict) and kept.get("key") == prompt_key(prompt) and isinstance(kept.get("fields"), dict):
        return kept["fields"]
    return None


def _control(request: HttpRequest, token: str, section: str, act) -> HttpResponse:
    """Find the seat, run `act(seat)` -> a success message; a SubmitError becomes a message and changes nothing."""
    seat = seat_or_error(request, token)
    if isinstance(seat, HttpResponse):
        return seat
    try:
        done = act(seat)
    except write.SubmitError as e:
        messages.error(request, e.message, extra_tags=section)
    else:
        if done:
            messages.success(request, done, extra_tags=section)
    return redirect(reverse("seat", args=[token]) + f"#{section}")


def _same_version(request: HttpRequest, seat: Seat) -> None:
    try:
        expected = read_int(request.POST.get("version", ""), low=0)
    except Unreadable:
        raise write.SubmitError(
            _("This form is incomplete; nothing was changed. Here is the table as it is now."), "form"
        ) from None
    if expected != Game.objects.values_list("version", flat=True).get(pk=seat.game_id):
        raise write.SubmitError(
            _("The table changed since you opened this page, so nothing was changed. Here it is as it is now."),
            "stale",
        )


@require_POST
def seat_undo(request: HttpRequest, token: str) -> HttpResponse:
    def act(seat: Seat) -> str:
        _same_version(request, seat)
        play.undo(seat)
        return _("Your last answer was taken back: answer again.")

    return _control(request, token, "undo", act)


@require_POST
def seat_take_back(request: HttpRequest, token: str) -> HttpResponse:
    def act(seat: Seat) -> str:
        play.take_back_seat(seat)
        return _("Your seat is yours again: the bot has stepped aside.")

    return _control(request, token, "takeback", act)


@require_POST
def seat_mail_works(request: HttpRequest, token: str) -> HttpResponse:
    """The seat's player says mail reaches their address again (it was refused for good before)."""

    def act(seat: Seat) -> str:
        if seat.player is None or (seat.is_bot and not seat.stand_in):
            raise write.SubmitError(_("Only a player's own seat has an address to clear."), "not_a_person")
        if seat.player.mail_refused_at is None:
            raise write.SubmitError(
                _("Mail goes to %(email)s already; nothing was changed.") % {"email": seat.player.email}, "not_refused"
            )
        bounces.clear(seat.player)
        return _("Thank you: game mail goes to %(email)s again.") % {"email": seat.player.email}

    return _control(request, token, "decision", act)


@require_POST
def seat_pause_vote(request: HttpRequest, token: str) -> HttpResponse:
    def act(seat: Seat) -> str:
        if seat.player_id is None or (seat.is_bot and not seat.stand_in):
            raise write.SubmitError(_("Only a player can agree to pause."), "not_a_person")
        yes = request.POST.get("agree") == "yes"
        if organise.vote_pause(seat, yes):
            return _("Everyone agreed: the game is paused, and every clock has stopped.")
        if yes:
            return _("You agreed to pause. The game pauses when every player has agreed.")
        return _("You no longer agree to pause.")

    return _control(request, token, "pause", act)


@require_POST
def seat_vacation(request: HttpRequest, token: str) -> HttpResponse:
    def act(seat: Seat) -> str:
        if seat.player_id is None:
            raise write.SubmitError(_("A bot seat takes no vacations."), "not_a_person")
        tz = _reader_tz(seat, seat.game)
        form = VacationForm(request.POST, tz=tz)
        if not form.is_valid():
            errors = [e for field_errors in form.errors.values() for e in field_errors]
            raise write.SubmitError(_("%(why)s Nothing was saved.") % {"why": " ".join(errors)}, "form")
        starts, ends = form.period()
        deadlines.declare_vacation(seat, starts, ends)
        return _("Vacation saved: away from %(starts)s until %(ends)s. Your clock stops while you are away.") % {
            "starts": local_time(starts, tz),
            "ends": local_time(ends, tz),
        }

    return _control(request, token, "vacation", act)


@require_POST
def seat_plan(request: HttpRequest, token: str) -> HttpResponse:
    def act(seat: Seat) -> str:
        if request.POST.get("clear"):
            play.set_plan(seat, [])
            return _("Your answers left in advance were cleared.")
        game = seat.game
        nxt = _upcoming(game, seat) if game.state is not None else None
        if nxt is None:
            raise write.SubmitError(
                _("There is no question to answer in advance right now. Nothing was saved."), "no_plan"
            )
        if request.POST.get("key") != prompt_key(nxt):
            raise write.SubmitError(
                _(
                    "The choices changed since you opened the page, so nothing was saved. "
                    "Here they are as they are now."
                ),
                "stale",
            )
        form = PlanForm(request.POST, options=[{"id": o.id, "label": o.label} for o in nxt.options])
        if not form.is_valid():
            errors = [e for field_errors in form.errors.values() for e in field_errors]
            raise write.SubmitError(_("%(why)s Nothing was saved.") % {"why": " ".join(errors)}, "form")
        play.set_plan(seat, form.answers())
        return _("Saved: when the question reaches you, your first choice that is still possible is played.")

    return _control(request, token, "plan", act)


@require_POST
def seat_talk(request: HttpRequest, token: str) -> HttpResponse:
    def act(seat: Seat) -> str:
        text = request.POST.get("text", "")
        if seat.player_id is None:
            raise write.SubmitError(_("Only a player can post to the board."), "not_a_person")
        try:
            talk.post_message(seat, text)
        except write.SubmitError:
            if text.strip():
                request.session[_draft_key(seat)] = text[:2000]  # keep what they wrote for another try
            raise
        request.session.pop(_draft_key(seat), None)
        return _("Your message is on the board.")

    return _control(request, token, "talk", act)


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
            {"message": _("A fresh link is on its way to the address this seat was invited with."), "sent": True},
        )


def seat_history(request: HttpRequest, token: str) -> HttpResponse:
    """Step through the game as this seat saw it then (everything, once the game is over)."""
    seat = seat_or_error(request, token)
    if isinstance(seat, HttpResponse):
        return seat
    if not seat.is_bot:
        languages.as_player(request, seat.player)
    game = seat.game
    if game.state is None:
        return redirect("seat", token=token)
    steps = list(game.events.exclude(kind=Event.Kind.ENDED).values_list("seq", flat=True))
    try:
        step = read_int(request.GET.get("step", steps[-1]))
    except Unreadable:
        step = steps[-1]
    step = min(max(step, 0), steps[-1])
    state, _events = replay.replay(game, upto=step)
    ended = game.status == Game.Status.ENDED
    # once the game is over every hand may be seen: pick whose eyes to look through
    names = {s.index: s.name for s in game.seats.select_related("player")}
    as_seat = seat.index
    try:
        picked = read_int(request.GET.get("as", ""))
    except Unreadable:
        picked = None
    if ended and picked in names:
        as_seat = picked
    view = game.engine.view(state, as_seat)
    lines = view.get("log", [])
    view = as_shown(game, {**view, "log": lines[-LOG_LINES:]}, as_seat, names, len(lines), upto=step)
    outcome = game.engine.outcome(game.state) if ended else None
    return render(
        request,
        "games/history.html",
        {
            **shown_scores(outcome, names, game.title),
            "game": game,
            "seat": seat,
            "token": token,
            "view": view,
            "table_template": table_template(game.title),
            "step": step,
            "last": steps[-1],
            "prev": step - 1 if step > 0 else None,
            "next": step + 1 if step < steps[-1] else None,
            "ended": ended,
            "names": names,
            "as_seat": as_seat,
            "log": list(enumerate(view["log"], start=len(lines) - len(view["log"])))[::-1],
            "log_hidden": len(lines) - len(view["log"]),
        },
    )


@require_POST
def seat_again(request: HttpRequest, token: str) -> HttpResponse:
    """A finished game's player offers the same table another game (or opens the one offered)."""
    seat = seat_or_error(request, token)
    if isinstance(seat, HttpResponse):
        return seat
    if seat.player_id is None or (seat.is_bot and not seat.stand_in):
        raise PermissionDenied(_("A bot seat cannot offer to play again."))
    again = Game.objects.filter(previous=seat.game).first()
    offered, waiting_before = again is None, again is not None and again.status == Game.Status.DRAFT
    try:
        if offered:
            again = organise.play_again(seat.game, actor=seat.player)
        elif waiting_before and not again.seats.filter(accepted=False).exists():
            # an offer to bots alone, made before such an offer started at once: say the last yes
            again = organise.accept_rematch(again.seats.get(player_id=seat.player_id))
    except write.SubmitError as e:
        if again is None or e.code != "started":
            messages.error(request, e.message)
            return redirect("seat", token=token)
        again.refresh_from_db()  # started by another request meanwhile
    if again.status != Game.Status.DRAFT and (offered or waiting_before):
        messages.success(request, _("A new game has started at the same table: here is your seat."))
    elif offered:
        messages.success(request, _("Offered: everyone got an email, and the game starts once all say yes."))
    mine = again.seats.filter(player_id=seat.player_id).first()
    return redirect("seat", token=links.token_for(mine)) if mine else redirect("home")


@require_POST
def seat_accept(request: HttpRequest, token: str) -> HttpResponse:
    """Yes to playing again, with one click."""
    seat = seat_or_error(request, token)
    if isinstance(seat, HttpResponse):
        return seat
    try:
        game = organise.accept_rematch(seat)
    except write.SubmitError as e:
        messages.error(request, e.message)
    else:
        started = game.status == Game.Status.ACTIVE
        messages.success(
            request,
            _("Everyone said yes: the game has started.")
            if started
            else _("Thanks: it starts once everyone says yes."),
        )
    return redirect("seat", token=token)
