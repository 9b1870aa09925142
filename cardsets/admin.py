"""Card sets in the admin: name, provenance and who is offered a set are edited here; the cards are
edited one row per card (fields generated from the card list's fields, each validated, then the
whole set re-validated by the title's loader). A set a game holds, or the shipped one, is never
changed in place: saving a card makes a copy."""

from __future__ import annotations

import copy as copy_module

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine.typed import Unreadable, read_int

from . import store
from .forms import CardForm, field_kinds
from .kinds import card_key
from .models import CardSet

PAGE = 20  # cards per page of the editor


def _page(raw: str | None, count: int) -> int:
    """The page asked for, or the first one when it is not a page of this file."""
    try:
        return read_int(raw or "0", low=0, high=max(count - 1, 0) // PAGE)
    except Unreadable:
        return 0


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin):
    list_display = ("name", "title", "check_status", "is_usable", "shared", "added_by", "added_at")
    list_filter = ("title", "shared", "check_status")
    search_fields = ("name", "provenance")
    fields = ("name", "title", "provenance", "shared", "summary")
    readonly_fields = ("title", "summary")

    def has_add_permission(self, request) -> bool:
        return False  # a set comes from an upload or from editing a copy's cards

    def save_model(self, request, obj: CardSet, form, change) -> None:
        super().save_model(request, obj, form, change)
        store.forget_name(obj.title, obj.recorded_hash)  # a seat page names its game's set

    def delete_model(self, request, obj: CardSet) -> None:
        super().delete_model(request, obj)
        store.forget_name(obj.title, obj.recorded_hash)

    def delete_queryset(self, request, queryset) -> None:
        gone = list(queryset.values_list("title", "recorded_hash"))
        super().delete_queryset(request, queryset)
        for slug, recorded_hash in gone:
            store.forget_name(slug, recorded_hash)

    @admin.display(description=gettext_lazy("Usable"), boolean=True, ordering="check_status")
    def is_usable(self, obj: CardSet) -> bool:
        return obj.usable

    @admin.display(description=gettext_lazy("Set"))
    def summary(self, obj: CardSet) -> str:
        if obj.pk is None:
            return ""
        return format_html(
            "{} · {} · {} · {} <code>{}</code><br>{}<br>"
            '<a href="{}">{}</a> · <a href="{}">{}</a> · <a href="{}">{}</a>',
            obj.title,
            _("bot check: %(status)s") % {"status": obj.check_label},
            _("usable: %(yes)s") % {"yes": _("yes") if obj.usable else _("no")},
            _("hash"),
            obj.content_hash[:16],
            "; ".join(obj.warnings) or _("No warnings."),
            reverse("admin:cardsets_cardset_cards", args=[obj.pk]),
            _("Edit the cards"),
            reverse("admin:cardsets_cardset_cards", args=[obj.pk]) + "?copy=1",
            _("Copy this set"),
            obj.get_absolute_url(),
            _("Its page (bot check, preview, export)"),
        )

    def get_urls(self):
        return [
            path("<int:pk>/cards/", self.admin_site.admin_view(self.cards_view), name="cardsets_cardset_cards"),
            *super().get_urls(),
        ]

    def cards_view(self, request, pk: int):
        """One form per card of one file; a POST saves one card (or, for a held set, a copy with it)."""
        cs = CardSet.objects.filter(pk=pk).first()
        if cs is None:
            raise Http404(_("No such card set."))
        if not self.has_change_permission(request, cs):
            raise PermissionDenied
        kind = store.kind_of(cs.title)
        files = list(kind.lists)
        file = request.POST.get("file") or request.GET.get("file") or files[0]
        if file not in files:
            file = files[0]
        copy = (request.POST.get("copy") or request.GET.get("copy")) == "1"
        fields = field_kinds(kind, cs.files, file)
        entries = kind.entries(cs.files, file)
        try:
            index = read_int(request.POST.get("index", ""), low=0, high=len(entries) - 1)
        except Unreadable:
            index = -1
        if request.method == "POST" and index < 0:
            messages.error(request, _("That card is not in this set; nothing was changed."))
            return HttpResponseRedirect(request.path + f"?file={file}")
        page = index // PAGE if request.method == "POST" else _page(request.GET.get("page"), len(entries))
        rows = [
            {
                "index": i,
                "key": card_key(entries[i], i),
                "form": CardForm(fields=fields, entry=entries[i], prefix=f"c{i}"),
            }
            for i in range(page * PAGE, min(len(entries), (page + 1) * PAGE))
        ]
        if request.method == "POST":
            form = CardForm(request.POST, fields=fields, entry=entries[index], prefix=f"c{index}")
            rows[index - page * PAGE]["form"] = form
            if form.is_valid():
                try:
                    saved, new = self._save(request, cs, file, index, form.cleaned_data["entry"], copy)
                except store.SetRefused as e:
                    form.place_error(_("%(why)s Nothing was changed.") % {"why": e})
                else:
                    if saved.pk == cs.pk and not new:
                        messages.success(
                            request,
                            _("%(card)s: saved. Run the bot check again before using the set.")
                            % {"card": card_key(entries[index], index)},
                        )
                    else:
                        messages.success(
                            request,
                            _("%(card)s: saved in a new set, “%(name)s”.")
                            % {"card": card_key(entries[index], index), "name": saved.name},
                        )
                    url = reverse("admin:cardsets_cardset_cards", args=[saved.pk])
                    return HttpResponseRedirect(f"{url}?file={file}&page={page}#card-{index}")
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "cs": cs,
            "title": _("Cards of %(name)s") % {"name": cs.name},
            "files": files,
            "file": file,
            "copy": copy,
            "rows": rows,
            "pages": range((len(entries) + PAGE - 1) // PAGE),
            "page": page,
        }
        status = 400 if request.method == "POST" else 200
        return TemplateResponse(request, "admin/cardsets/cards.html", context, status=status)

    def _save(self, request, cs: CardSet, file: str, index: int, entry: dict, copy: bool) -> tuple[CardSet, bool]:
        if not copy:
            return store.change_card(request.user, cs, file, index, entry)
        files = copy_module.deepcopy(cs.files)
        store.kind_of(cs.title).entries(files, file)[index] = entry
        return store.add_set(
            request.user, cs.title, (_("Copy of %(name)s") % {"name": cs.name})[:100], cs.provenance, files
        ), True
