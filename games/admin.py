"""The organisers' admin: games with who is to move, seats, the read-only log, the outbox."""

from __future__ import annotations

import json

from django.contrib import admin, messages
from django.utils.html import format_html

from . import services
from .models import DeliveredMail, Event, Game, Notification, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "player", "is_bot", "waiting_since")
    readonly_fields = ("waiting_since",)
    autocomplete_fields = ("player",)


class EventInline(admin.TabularInline):
    model = Event
    extra = 0
    can_delete = False
    fields = ("seq", "kind", "seat", "via", "actor", "created_at", "shown_payload")
    readonly_fields = fields
    ordering = ("-seq",)
    max_num = 0

    @admin.display(description="payload")
    def shown_payload(self, obj: Event) -> str:
        return json.dumps(obj.public_payload())[:300]

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("name", "title", "status", "to_move", "waiting_since", "organiser", "version")
    list_filter = ("status", "title")
    search_fields = ("name", "seats__player__email")
    readonly_fields = ("status", "version", "to_move", "waiting_since", "cardset_hash", "created_at", "updated_at")
    inlines = [SeatInline, EventInline]
    actions = ["start_games"]

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        return qs if request.user.is_superuser else qs.filter(organiser=request.user)

    def save_model(self, request, obj, form, change):
        if not change and not obj.organiser_id:
            obj.organiser = request.user
        super().save_model(request, obj, form, change)

    def get_changeform_initial_data(self, request):
        return {"organiser": request.user.pk}

    @admin.action(description="Start the selected games (deals and emails every player)")
    def start_games(self, request, queryset):
        for game in queryset:
            try:
                services.start_game(game, actor=request.user)
            except services.SubmitError as e:
                self.message_user(request, f"{game.name}: {e.message}", messages.WARNING)
            else:
                self.message_user(request, f"{game.name}: started.", messages.SUCCESS)


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """The log is append-only: visible, never editable."""

    list_display = ("game", "seq", "kind", "seat", "via", "actor", "created_at")
    list_filter = ("kind", "via")
    search_fields = ("game__name",)
    fields = ("game", "seq", "kind", "seat", "via", "actor", "created_at", "shown_payload")
    readonly_fields = fields

    @admin.display(description="payload")
    def shown_payload(self, obj: Event):
        return format_html("<pre>{}</pre>", json.dumps(obj.public_payload(), indent=2))

    def get_queryset(self, request):
        qs = super().get_queryset(request).select_related("game", "actor")
        return qs if request.user.is_superuser else qs.filter(game__organiser=request.user)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("created_at", "recipient", "kind", "game", "status", "attempts", "short_error", "sent_at")
    list_filter = ("status", "kind")
    search_fields = ("recipient", "subject", "game__name")
    readonly_fields = [f.name for f in Notification._meta.fields]
    actions = ["send_again"]

    @admin.display(description="last error")
    def short_error(self, obj: Notification) -> str:
        return obj.last_error[:80]

    def get_queryset(self, request):
        qs = super().get_queryset(request).select_related("game")
        return qs if request.user.is_superuser else qs.filter(game__organiser=request.user)

    def has_add_permission(self, request) -> bool:
        return False

    @admin.action(description="Try sending again now")
    def send_again(self, request, queryset):
        from . import mail

        for note in queryset.exclude(status=Notification.Status.SENT):
            if note.status == Notification.Status.GAVE_UP:
                Notification.objects.filter(pk=note.pk).update(status=Notification.Status.FAILED)
            mail.send(note.pk)
        self.message_user(request, "Tried again; see each row's status.")


@admin.register(DeliveredMail)
class DeliveredMailAdmin(admin.ModelAdmin):
    list_display = ("delivered_at", "to", "subject")
    search_fields = ("to", "subject")
