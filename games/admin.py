"""The organisers' admin: games with who is to move, seats, the read-only log, the outbox."""

from __future__ import annotations

import json
from zoneinfo import ZoneInfo

from django import forms as django_forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.utils import unquote
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Min
from django.http import Http404, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from cardsets import store as cardset_store

from . import host_actions
from .actions import organise, write
from .engine import OptionsError
from .engine.typed import Unreadable, read_int
from .forms.fields import NumberField, PlainTextField
from .host_actions import rewind_steps, voided_by
from .log_words import Said, words_by_step
from .messages import reading_for
from .messages import render as rendered
from .models import ChatHook, DeliveredMail, Event, Game, InboundMail, Notification, PushDevice, Seat
from .present import LOG_LINES, table_context

BOTH = [admin.ActionLocation.CHANGE_LIST, admin.ActionLocation.CHANGE_FORM]
MAX_ID = 2**63 - 1  # the largest primary key a database here holds
ONE_GAME = "game__id__exact"  # the log list's filter to one game: the game's History


def short_time(when) -> str:
    """A list column's time, short enough to sit in a narrow column: "23 Nov 16:05" (the year when not this one)."""
    if when is None:
        return "–"
    local = timezone.localtime(when)
    return date_format(local, "j M H:i" if local.year == timezone.localtime().year else "j M Y H:i")


def said_with_payload(said: Said | None, event: Event) -> str:
    """A step in the title's words, its payload (secrets hidden) folded below for who needs it."""
    return format_html(
        '<div class="said">{}</div><details class="payload"><summary>payload</summary><pre>{}</pre></details>',
        str(said) if said is not None else "",
        json.dumps(event.public_payload(), indent=1, ensure_ascii=False),
    )


class _PartOfGame:
    """Seats and the log are parts of a game: whoever may see or change the game may see or change them."""

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.has_perm("games.view_game") or request.user.has_perm("games.change_game")

    def has_change_permission(self, request, obj=None) -> bool:
        return request.user.has_perm("games.change_game")


class OneSeatPerPerson(django_forms.BaseInlineFormSet):
    """A draft's seats as the new-game form and join links have them: one seat per person."""

    def clean(self) -> None:
        super().clean()
        seen: dict[int, int] = {}
        for form in self.forms:
            data = getattr(form, "cleaned_data", None) or {}
            player = data.get("player")
            if player is None or data.get("DELETE") or data.get("is_bot"):
                continue
            if player.pk in seen:
                raise ValidationError(
                    f"{player.email} is in seat {seen[player.pk] + 1} already: one seat per person. Nothing was saved."
                )
            seen[player.pk] = data.get("index", 0)


class SeatInline(_PartOfGame, admin.TabularInline):
    """Seats: editable before the deal only; after it a change of player goes through an action."""

    model = Seat
    formset = OneSeatPerPerson
    extra = 0
    fields = ("index", "player", "mail", "is_bot", "stand_in", "deadline", "misses", "wants_pause", "waiting_since")
    autocomplete_fields = ("player",)

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.status != Game.Status.DRAFT:
            return self.fields
        return ("mail", "stand_in", "deadline", "misses", "wants_pause", "waiting_since")

    @admin.display(description=gettext_lazy("mail"))
    def mail(self, seat: Seat) -> str:
        """Whether game mail reaches this seat's player: refused for good, turned off, or fine."""
        player = seat.player if seat.player_id else None
        if player is None:
            return "—"
        if player.mail_refused_at:
            why = player.mail_refused_reason or _("by the mail server")
            return (_("refused (%(why)s)") % {"why": why})[:120]
        return _("turned off") if player.unsubscribed else _("ok")

    def has_add_permission(self, request, obj=None) -> bool:
        return (obj is None or obj.status == Game.Status.DRAFT) and self.has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return (obj is None or obj.status == Game.Status.DRAFT) and self.has_change_permission(request, obj)


class EventInline(_PartOfGame, admin.TabularInline):
    """The log, read-only; a step voided by a rewind or an undo stays, marked with what voided it."""

    model = Event
    extra = 0
    can_delete = False
    fields = ("seq", "kind", "seat", "via", "actor", "created_at", "voided", "said")
    readonly_fields = fields
    ordering = ("-seq",)
    max_num = 0

    @admin.display(description=gettext_lazy("voided"))
    def voided(self, obj: Event) -> str:
        cache = self.__dict__.setdefault("_voided_cache", {})
        if obj.game_id not in cache:
            cache[obj.game_id] = voided_by(obj.game_id)
        by = cache[obj.game_id].get(obj.seq)
        return _("voided by #%(seq)s") % {"seq": by} if by is not None else ""

    @admin.display(description=gettext_lazy("what happened"))
    def said(self, obj: Event) -> str:
        return said_with_payload(words_by_step(obj.game).get(obj.seq), obj)

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class GameAdminForm(django_forms.ModelForm):
    """The game form, with the title's usable card sets to choose from (cardsets.store)."""

    cardset = django_forms.TypedChoiceField(
        required=False,
        coerce=int,
        empty_value=None,
        label=gettext_lazy("Card set"),
        help_text=gettext_lazy(
            "The cards a new game is played with (blank: the title's shipped set). Only sets that passed "
            "their bot check are offered."
        ),
    )

    class Meta:
        model = Game
        fields = ("name", "title", "options")  # the admin's fieldsets name the rest

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        game = self.instance
        # the draft's set is shown as chosen (and kept as it is unless the field is changed)
        self.held = cardset_store.held(game.title, game.options) if game.pk else None
        if self.held is not None and "cardset" in self.fields:
            self.initial["cardset"] = self.held.pk
            field = self.fields["cardset"]
            if self.held.pk not in {pk for pk, _label in field.choices}:
                field.choices = [*field.choices, (self.held.pk, f"{self.held.name} (this game's set)")]

    def clean(self):
        cleaned = super().clean()
        pk, title = cleaned.get("cardset"), cleaned.get("title") or getattr(self.instance, "title", "")
        held_pk = self.held.pk if self.held is not None else None
        if pk is not None and (pk != held_pk or "title" in self.changed_data):
            try:
                cleaned["cardset_options"] = cardset_store.chosen(self.user, title, pk)
            except OptionsError:
                self.add_error("cardset", _("That card set is not a usable set of this game."))
        cleaned["cardset_cleared"] = pk is None and held_pk is not None
        return cleaned


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    form = GameAdminForm
    # what an organiser types goes through the same parsers as everything a player types
    formfield_overrides = {
        models.PositiveIntegerField: {"form_class": NumberField},
        models.PositiveSmallIntegerField: {"form_class": NumberField},
        models.CharField: {"form_class": PlainTextField},
    }
    # short columns, so the list fits a 1280-px screen: dates as "23 Nov 16:05"; the version is on the
    # game's page; the organiser is a column only for a superuser (everyone else sees only their own)
    list_display = ("name", "title", "status", "to_move", "waiting", "next_deadline", "organiser")
    list_filter = ("status", "title")
    search_fields = ("name", "seats__player__email")
    readonly_fields = (
        "status",
        "version",
        "to_move",
        "waiting_since",
        "paused_at",
        "cardset_hash",
        "created_at",
        "updated_at",
    )
    fieldsets = (
        (None, {"fields": ("name", "title", "organiser", "cardset", "options", "status", "to_move", "waiting_since")}),
        (
            gettext_lazy("Clock"),
            {
                "fields": (
                    ("decision_hours", "decision_minutes"),
                    ("daily_deadline", "timezone"),
                    ("reminder_hours", "reminder_minutes"),
                    ("timeout_policy", "bot_after_misses"),
                    ("bank_hours", "bank_increment_hours", "bank_cap_hours"),
                    "quiet_days",
                    ("vacation_days", "auto_vacation"),
                    "paused_at",
                ),
                "description": gettext_lazy(
                    "Time per decision in hours or minutes, or a fixed time of day, or a time bank; "
                    "empty means no clock. Quiet days are days of the week (e.g. sat, sun) on which no clock runs. "
                    "A change applies from each seat's next decision; extend a deadline that is running with the "
                    "action."
                ),
            },
        ),
        (
            gettext_lazy("Record"),
            {"fields": ("version", "cardset_hash", "created_at", "updated_at"), "classes": ("collapse",)},
        ),
    )
    inlines = [SeatInline, EventInline]
    actions = [
        "start_games",
        "pause_games",
        "resume_games",
        "extend_deadlines",
        "resend_last",
        "replace_player",
        "hand_to_bot",
        "rewind_game",
        "end_games",
    ]

    def get_queryset(self, request):
        qs = super().get_queryset(request).annotate(earliest_deadline=Min("seats__deadline"))
        return qs if request.user.is_superuser else qs.filter(organiser=request.user)

    def get_readonly_fields(self, request, obj=None):
        ro = list(self.readonly_fields)
        if not request.user.is_superuser:
            ro.append("organiser")
        if obj is not None and obj.status != Game.Status.DRAFT:
            ro += ["title", "options"]
        return ro

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        form.user = request.user
        if "cardset" in form.base_fields:
            form.base_fields["cardset"].choices = [("", "the title's shipped set")] + cardset_store.all_choices(
                request.user
            )
            form.base_fields["cardset"].disabled = obj is not None and obj.status != Game.Status.DRAFT
        if "timezone" in form.base_fields:
            form.base_fields["timezone"].validators.append(_valid_timezone)
        return form

    def save_model(self, request, obj, form, change):
        if not change and not obj.organiser_id:
            obj.organiser = request.user
        if form.cleaned_data.get("cardset_options") and obj.status == Game.Status.DRAFT:
            obj.options = {**(obj.options or {}), **form.cleaned_data["cardset_options"]}
        elif form.cleaned_data.get("cardset_cleared") and obj.status == Game.Status.DRAFT:
            obj.options = {k: v for k, v in (obj.options or {}).items() if k != "cardset"}  # the shipped set
        super().save_model(request, obj, form, change)

    def get_changeform_initial_data(self, request):
        return {"organiser": request.user.pk}

    def get_list_display(self, request):
        shown = super().get_list_display(request)
        return shown if request.user.is_superuser else tuple(c for c in shown if c != "organiser")

    @admin.display(description=gettext_lazy("waiting since"), ordering="waiting_since")
    def waiting(self, obj: Game) -> str:
        return short_time(obj.waiting_since)

    @admin.display(description=gettext_lazy("earliest deadline"), ordering="earliest_deadline")
    def next_deadline(self, obj: Game) -> str:
        return short_time(obj.earliest_deadline)

    def history_view(self, request, object_id, extra_context=None):
        """A game's history is its own log, each step in words; Django's record of edits to this
        form would say nothing of the play."""
        game = self.get_object(request, unquote(object_id))
        if game is None or not self.has_view_or_change_permission(request, game):
            raise Http404(_("No such game among yours."))
        return HttpResponseRedirect(reverse("admin:games_event_changelist") + f"?{ONE_GAME}={game.pk}")

    # --- the table as any seat sees it -------------------------------------------------------

    def get_urls(self):
        extra = [
            path(
                "<path:object_id>/table/",
                self.admin_site.admin_view(self.table_view),
                name="games_game_table",
            ),
        ]
        return extra + super().get_urls()

    def table_view(self, request, object_id):
        """Read-only: the table through one seat's eyes, drawn as that seat's page draws it (the
        title's own table template and pictures, the site's CSS), with what the seat is asked shown
        but not answerable (the organiser's own games only)."""
        game = self.get_object(request, object_id)
        if game is None or not self.has_view_permission(request, game):
            raise Http404(_("No such game among yours."))
        seats = list(game.seats.select_related("player"))
        try:
            index = read_int(request.GET.get("seat", "0"))
        except Unreadable:
            index = 0
        if index not in {s.index for s in seats}:
            index = seats[0].index if seats else 0
        seat = next((s for s in seats if s.index == index), None)
        context = {
            "title": f"{game.name}: the table as {seat.name if seat else '?'} sees it",
            "game": game,
            "seats": seats,
            "seat": seat,
            "seat_index": index,
            "view": None,
            "prompt": None,  # the drawings stay pictures: nothing on this page can answer for the seat
            "new_from": None,
            "deadline": seat.deadline if seat else None,
        }
        if game.state is not None:
            engine = game.engine
            names = {s.index: s.name for s in seats}
            context |= table_context(engine, game.title, game.state, index, names, LOG_LINES, game=game)
            asked = engine.prompts(game.state).get(index) if context["rows"] is None else None
            shown = rendered(asked.to_dict(), reading_for(game, names)) if asked is not None else None
            context["asked"] = shown if game.status == Game.Status.ACTIVE else None
        return TemplateResponse(request, "admin/games/game/table.html", context)

    # --- actions: each asks why on a page of its own, then calls the service ---------------------

    def response_action(self, request, queryset, *args, **kwargs):
        """An action's selection is read like every typed number: a garbled or impossible id is
        refused in words before Django's admin turns it into a query."""
        picked = request.POST.getlist(helpers.ACTION_CHECKBOX_NAME)
        try:
            ids = [read_int(raw, low=1, high=MAX_ID) for raw in picked]
        except Unreadable:
            self.message_user(request, _("That selection does not name games: pick them again."), messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())
        post = request.POST.copy()
        post.setlist(helpers.ACTION_CHECKBOX_NAME, [str(i) for i in ids])
        request.POST = post
        return super().response_action(request, queryset, *args, **kwargs)

    @admin.action(description=gettext_lazy("Start the selected games (deals and emails every player)"))
    def start_games(self, request, queryset):
        if not queryset.exists():
            self.message_user(request, _("None of the selected games is one you organise."), messages.ERROR)
            return
        for game in queryset:
            try:
                organise.start_game(game, actor=request.user)
            except write.SubmitError as e:
                self.message_user(
                    request, _("%(game)s: %(why)s") % {"game": game.name, "why": e.message}, messages.WARNING
                )
            else:
                self.message_user(request, _("%(game)s: started.") % {"game": game.name}, messages.SUCCESS)

    def _ask(self, request, queryset, action: str, title: str, form_class, do, single=False, form_kwargs_for=None):
        """The intermediate page: a form with the reason (and what the action needs), then the service.

        `do(game, cleaned_data) -> str` says what was done; a SubmitError is shown as an error.
        """
        games = list(queryset)
        if not games:
            self.message_user(request, _("None of the selected games is one you organise."), messages.ERROR)
            return None
        if single and len(games) != 1:
            self.message_user(request, _("Pick exactly one game for this action."), messages.ERROR)
            return None
        game = games[0] if single else None
        kwargs = {"game": game, **(form_kwargs_for(game) if form_kwargs_for and game is not None else {})}
        form = form_class(request.POST if "apply" in request.POST else None, **kwargs)
        if form.is_bound and form.is_valid():
            for g in games:
                try:
                    done = do(g, form.cleaned_data)
                except write.SubmitError as e:
                    self.message_user(
                        request, _("%(game)s: %(why)s") % {"game": g.name, "why": e.message}, messages.ERROR
                    )
                else:
                    self.message_user(request, _("%(game)s: %(why)s") % {"game": g.name, "why": done}, messages.SUCCESS)
            return None
        on_form = f"{admin.ActionLocation.CHANGE_FORM.value}-action" in request.POST
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": title,
            "games": games,
            "form": form,
            "action": action,
            "action_field": f"{admin.ActionLocation.CHANGE_FORM.value}-action" if on_form else "action",
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/games/game/action_form.html", context)

    def _host_action(self, request, queryset, slug: str, action: str, title: str, single: bool = False):
        """One of games.host_actions, through the intermediate page (the same form and write as a host's)."""
        act = host_actions.ACTIONS[slug]
        return self._ask(
            request,
            queryset,
            action,
            title,
            act.form,
            lambda game, data: act.do(game, data, request.user),
            single=single,
            form_kwargs_for=act.form_kwargs,
        )

    @admin.action(description=gettext_lazy("Pause (every clock stops)"), permissions=["change"], location=BOTH)
    def pause_games(self, request, queryset):
        return self._host_action(request, queryset, "pause", "pause_games", gettext_lazy("Pause games"))

    @admin.action(description=gettext_lazy("Resume (clocks go on)"), permissions=["change"], location=BOTH)
    def resume_games(self, request, queryset):
        return self._host_action(request, queryset, "resume", "resume_games", gettext_lazy("Resume games"))

    @admin.action(description=gettext_lazy("Extend the deadline"), permissions=["change"], location=BOTH)
    def extend_deadlines(self, request, queryset):
        single = queryset.count() == 1  # the seat is picked for one game only; else every running deadline
        return self._host_action(
            request, queryset, "extend", "extend_deadlines", gettext_lazy("Extend deadlines"), single=single
        )

    @admin.action(
        description=gettext_lazy("Resend the last notification to a seat"), permissions=["change"], location=BOTH
    )
    def resend_last(self, request, queryset):
        return self._host_action(
            request, queryset, "resend", "resend_last", gettext_lazy("Resend a seat's question"), single=True
        )

    @admin.action(description=gettext_lazy("Replace a seat's player"), permissions=["change"], location=BOTH)
    def replace_player(self, request, queryset):
        return self._host_action(
            request, queryset, "replace", "replace_player", gettext_lazy("Replace a seat's player"), single=True
        )

    @admin.action(description=gettext_lazy("Hand a seat to a bot"), permissions=["change"], location=BOTH)
    def hand_to_bot(self, request, queryset):
        return self._host_action(
            request, queryset, "bot", "hand_to_bot", gettext_lazy("Hand a seat to a bot"), single=True
        )

    @admin.action(description=gettext_lazy("Rewind to an earlier step"), permissions=["change"], location=BOTH)
    def rewind_game(self, request, queryset):
        if queryset.count() == 1 and not rewind_steps(queryset.get()):
            self.message_user(
                request,
                _("%(game)s: nothing has been played yet to rewind.") % {"game": queryset.get().name},
                messages.ERROR,
            )
            return None
        return self._host_action(request, queryset, "rewind", "rewind_game", gettext_lazy("Rewind a game"), single=True)

    @admin.action(description=gettext_lazy("End the game now"), permissions=["change"], location=BOTH)
    def end_games(self, request, queryset):
        return self._host_action(request, queryset, "end", "end_games", gettext_lazy("End games"))


def _valid_timezone(value: str) -> None:
    try:
        ZoneInfo(value)
    except (KeyError, ValueError):
        raise ValidationError(f"“{value}” is not a timezone name, e.g. Europe/Lisbon.") from None


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """The log is append-only: visible, never editable."""

    list_display = ("game", "seq", "kind", "seat", "via", "when", "said")
    list_filter = ("kind", "via")
    search_fields = ("game__name",)
    fields = ("game", "seq", "kind", "seat", "via", "actor", "created_at", "said")
    readonly_fields = fields

    @admin.display(description=gettext_lazy("what happened"))
    def said(self, obj: Event):
        return said_with_payload(words_by_step(obj.game).get(obj.seq), obj)

    @admin.display(description=gettext_lazy("when"), ordering="created_at")
    def when(self, obj: Event) -> str:
        return short_time(obj.created_at)

    def get_list_display(self, request):
        """One game's log (its History) needs no column naming the game."""
        shown = super().get_list_display(request)
        return tuple(c for c in shown if c != "game") if ONE_GAME in request.GET else shown

    def changelist_view(self, request, extra_context=None):
        game = self._one_game(request)
        if game is not None:
            extra_context = {"title": _("The log of %(game)s") % {"game": game.name}, **(extra_context or {})}
        return super().changelist_view(request, extra_context)

    def _one_game(self, request) -> Game | None:
        try:
            pk = read_int(request.GET.get(ONE_GAME, ""), low=1, high=MAX_ID)
        except Unreadable:
            return None
        games = Game.objects.filter(pk=pk)
        return (games if request.user.is_superuser else games.filter(organiser=request.user)).first()

    def get_queryset(self, request):
        # the words need the game's title and version, never its (large) state: one per row otherwise
        qs = super().get_queryset(request).select_related("game", "actor").defer("game__state")
        return qs if request.user.is_superuser else qs.filter(game__organiser=request.user)

    def has_view_permission(self, request, obj=None) -> bool:
        """The log is part of its game: whoever may see the game may read its log (the game's History)."""
        return super().has_view_permission(request, obj) or _PartOfGame.has_view_permission(self, request, obj)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = (
        "created_at",
        "recipient",
        "channel",
        "kind",
        "game",
        "status",
        "attempts",
        "short_error",
        "sent_at",
    )
    list_filter = ("status", "channel", "kind")
    search_fields = ("recipient", "subject", "game__name")
    readonly_fields = [f.name for f in Notification._meta.fields if f.name not in ("body_text", "body_html", "context")]
    readonly_fields += ["text_part"]
    actions = ["send_again"]

    @admin.display(description=gettext_lazy("text as the reader gets it"))
    def text_part(self, obj: Notification) -> str:
        from . import notify

        if obj.channel != Notification.Channel.EMAIL:  # a ping says a few words, made when sent
            from .channels.ping import ping_of

            ping = ping_of(obj)
            return format_html('<pre style="white-space:pre-wrap">{}\n{}\n{}</pre>', ping.title, ping.body, ping.url)
        return format_html('<pre style="white-space:pre-wrap">{}</pre>', notify.render(obj)[0])

    @admin.display(description=gettext_lazy("last error"))
    def short_error(self, obj: Notification) -> str:
        return obj.last_error[:80]

    def get_queryset(self, request):
        qs = super().get_queryset(request).select_related("game")
        return qs if request.user.is_superuser else qs.filter(game__organiser=request.user)

    def has_add_permission(self, request) -> bool:
        return False

    @admin.action(description=gettext_lazy("Try sending again now"))
    def send_again(self, request, queryset):
        """Queued for the mailer (a hung mail server never holds this page); a row given up on is
        tried again, and a row held for a refusing address only once the address is cleared."""
        from . import dispatch

        pks = list(queryset.exclude(status=Notification.Status.SENT).values_list("pk", flat=True))
        Notification.objects.filter(pk__in=pks, status=Notification.Status.GAVE_UP).update(
            status=Notification.Status.FAILED
        )
        dispatch.send_now(pks)
        self.message_user(
            request,
            ngettext(
                "Queued %(n)s to send again; see each row's status.",
                "Queued %(n)s to send again; see each row's status.",
                len(pks),
            )
            % {"n": len(pks)},
        )


@admin.register(DeliveredMail)
class DeliveredMailAdmin(admin.ModelAdmin):
    list_display = ("delivered_at", "to", "subject")
    search_fields = ("to", "subject")


# --- chat webhooks (games.channels.chat): the URL is a secret, shown masked and never edited here --


@admin.register(ChatHook)
class ChatHookAdmin(admin.ModelAdmin):
    list_display = ("created", "format", "address", "owner", "game", "enabled", "disabled_reason")
    list_filter = ("format", "enabled")
    search_fields = ("owner__email", "game__name")
    fields = ("format", "address", "owner", "game", "enabled", "last_error", "disabled_reason", "created")
    readonly_fields = ("format", "address", "owner", "game", "last_error", "disabled_reason", "created")

    @admin.display(description=gettext_lazy("address (masked)"))
    def address(self, obj: ChatHook) -> str:
        return obj.masked_url

    def get_queryset(self, request):
        qs = super().get_queryset(request).select_related("owner", "game")
        return qs if request.user.is_superuser else qs.filter(game__organiser=request.user)

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(InboundMail)
class InboundMailAdmin(admin.ModelAdmin):
    """Replies that came by the SMTP listener or the IMAP mailbox: what the reader made of each, and
    those given up, for an organiser to look into. Read only; the raw message is not shown (it may
    hold a person's whole mail thread), only its size."""

    list_display = ("received_at", "source", "status", "result", "attempts", "size")
    list_filter = ("source", "status", "result")
    search_fields = ("message_id", "envelope_from")
    readonly_fields = (
        "source",
        "status",
        "result",
        "envelope_from",
        "envelope_to",
        "peer",
        "message_id",
        "received_at",
        "handled_at",
        "moved_at",
        "attempts",
        "last_error",
        "size",
    )
    exclude = ("raw", "mailbox_key", "claimed_until")

    @admin.display(description=gettext_lazy("Size"))
    def size(self, obj: InboundMail) -> str:
        size = len(obj.raw or b"")
        return ngettext("%(n)s byte", "%(n)s bytes", size) % {"n": number_format(size, force_grouping=True)}

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PushDevice)
class PushDeviceAdmin(admin.ModelAdmin):
    """People's devices with push on: which work and why one was turned off. The endpoint and keys
    are the device's secrets and are never shown; an organiser may remove a device."""

    list_display = ("user", "label", "created_at", "last_used_at", "disabled_at", "disabled_reason")
    list_filter = (("disabled_at", admin.EmptyFieldListFilter),)
    search_fields = ("user__email", "label")
    fields = ("user", "label", "created_at", "last_used_at", "disabled_at", "disabled_reason")
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
