"""Card set pages: the list, the upload, a set's page (warnings, bot check and its progress), the
preview and the export. Staff see every set; a signed-in host sees their own and the shared usable
ones; nobody sees the data of a set they may not see (a 404, never a hint that it exists)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.formats import number_format
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.messages import sayer

from . import forms, store, tasks
from . import preview as drawing
from .exporting import export_zip
from .models import STARTABLE, CardSet


def _visible(request: HttpRequest, pk: int) -> CardSet:
    cs = get_object_or_404(CardSet, pk=pk)
    if not store.may_view(request.user, cs):
        raise Http404(_("No such card set."))
    return cs


def _managed(request: HttpRequest, pk: int) -> CardSet:
    cs = _visible(request, pk)
    if not store.may_manage(request.user, cs):
        raise Http404(_("No such card set."))
    return cs


@login_required
def cardset_list(request: HttpRequest) -> HttpResponse:
    sets = store.visible(request.user).select_related("added_by")
    return render(request, "cardsets/list.html", {"sets": sets})


@login_required
def upload(request: HttpRequest) -> HttpResponse:
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if request.method == "POST" and length > 2 * settings.CARDSET_UPLOAD_BYTES:
        # refused before Django reads the body (it would spool a large upload to disk)
        refused = _(
            "The upload is %(n)s bytes; a card set's files together stay far below that. Nothing was stored."
        ) % {"n": number_format(length, force_grouping=True)}
        return render(request, "cardsets/upload.html", {"form": forms.UploadForm(), "refused": refused}, status=413)
    form = forms.UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid() and "parsed" in form.cleaned_data:
        try:
            cs = store.add_set(
                request.user,
                form.cleaned_data["title"],
                form.cleaned_data["name"],
                form.cleaned_data["provenance"],
                form.cleaned_data["parsed"],
            )
        except store.SetRefused as e:
            form.add_error("files", _("%(why)s Nothing was stored.") % {"why": e})
        else:
            messages.success(request, _("“%(name)s” is stored. Run the bot check before using it.") % {"name": cs.name})
            return redirect(cs)
    status = 400 if form.errors else 200
    return render(request, "cardsets/upload.html", {"form": form}, status=status)


@login_required
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    cs = _visible(request, pk)
    may_manage = store.may_manage(request.user, cs)
    return render(
        request,
        "cardsets/detail.html",
        {
            "cs": cs,
            "may_manage": may_manage,
            "may_run": may_manage and (cs.check_status in STARTABLE or cs.check_stalled),
            "running": cs.check_status == CardSet.Check.RUNNING and not cs.check_stalled,
            "check_games": settings.CARDSET_CHECK_GAMES,
        },
    )


@login_required
@require_POST
def run_check(request: HttpRequest, pk: int) -> HttpResponse:
    cs = _managed(request, pk)
    total = settings.CARDSET_CHECK_GAMES
    run = store.start_check(cs, total)
    if run is None:
        cs.refresh_from_db()
        messages.info(
            request, _("The bot check is %(status)s: nothing to do.") % {"status": cs.get_check_status_display()}
        )
        return redirect(cs)
    tasks.check_cardset.delay(cs.pk, total, run)
    messages.info(request, _("The bot check is running; this page shows its progress."))
    return redirect(cs)


@login_required
def preview(request: HttpRequest, pk: int) -> HttpResponse:
    cs = _visible(request, pk)
    kind = store.kind_of(cs.title)
    shown = drawing.sections(kind, cs.files, cs.data, say=sayer(kind.slug))
    for _file, items in shown:
        for item in items:
            item.picture = mark_safe(item.picture)  # noqa: S308 - the drawings escape every text they hold
    return render(request, "cardsets/preview.html", {"cs": cs, "sections": shown})


@login_required
def export(request: HttpRequest, pk: int) -> HttpResponse:
    cs = _visible(request, pk)
    blob = export_zip(store.kind_of(cs.title), cs.files, cs.name, cs.provenance)
    response = HttpResponse(blob, content_type="application/zip")
    name = slugify(cs.name)[:60] or "cardset"
    response["Content-Disposition"] = f'attachment; filename="{cs.title}-{name}.zip"'
    return response
