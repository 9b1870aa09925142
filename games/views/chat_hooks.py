"""Chat webhooks on the profile (a person's own) and the host's game page (the game's): the list
with masked addresses and why a hook is off, adding (refused in words at the form), and the
buttons: send a test, turn off, turn on, remove. The pages that own them check who may touch which."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from games.actions import channels
from games.actions.write import SubmitError
from games.forms.channels import HINTS, ChatHookForm
from games.models import ChatHook

DOS = ("test", "off", "on", "remove")


def listed(hooks, act_url) -> list[dict]:
    """What a page shows of each hook: never its whole address. `act_url(pk)` is where its buttons post."""
    return [
        {
            "pk": h.pk,
            "act_base": act_url(h.pk),
            "format": h.get_format_display(),
            "masked": h.masked_url,
            "enabled": h.enabled,
            "disabled_reason": h.disabled_reason,
            "last_error": h.last_error,
        }
        for h in hooks
    ]


def hints() -> list[tuple[str, str]]:
    return [(ChatHook.Format(k).label, v) for k, v in HINTS.items()]


def add(request: HttpRequest, *, owner=None, game=None) -> ChatHookForm | None:
    """Add a hook from the posted form; None when added (a message says so), else the form with why."""
    form = ChatHookForm(request.POST)
    if not form.is_valid():
        return form
    try:
        channels.add_hook(fmt=form.cleaned_data["format"], url=form.cleaned_data["url"], owner=owner, game=game)
    except SubmitError as e:
        form.add_error(None, _("%(why)s Nothing was saved.") % {"why": e.message})
        return form
    messages.success(request, _("Webhook added. Send it a test message to check it works."))
    return None


def act(request: HttpRequest, hook: ChatHook) -> None:
    """The button posted (`do`): anything else is refused in words and changes nothing."""
    do = request.POST.get("do", "")
    if do not in DOS:
        messages.error(request, _("There is no such button. Nothing was changed."))
    elif do == "test":
        said = channels.send_test(hook)
        (messages.success if said == channels.sent_words() else messages.error)(request, said)
    elif do == "off":
        channels.set_hook_enabled(hook, False)
        messages.success(request, _("Webhook turned off."))
    elif do == "on":
        channels.set_hook_enabled(hook, True)
        messages.success(request, _("Webhook turned on again."))
    elif do == "remove":
        channels.remove_hook(hook)
        messages.success(request, _("Webhook removed."))


def context(hooks, act_url, add_url: str, form: ChatHookForm | None = None) -> dict:
    return {
        "hooks": listed(hooks, act_url),
        "add_url": add_url,
        "chat_form": form or ChatHookForm(),
        "chat_hints": hints(),
    }


def no_such(request: HttpRequest) -> HttpResponse:
    return render(request, "404.html", {"message": _("There is no such webhook here.")}, status=404)
