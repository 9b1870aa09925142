"""Web push and the installable site: the manifest, the service worker (at the root, so its scope
is the whole site), an offline page, and turning push on or off for a browser (from the profile,
signed in, or from a seat page, by its link). The posted subscription is read by one bounded
parser (games.channels.push_input); a refused one changes nothing and says why."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET, require_POST

from games import links
from games.actions import push_devices
from games.channels.push_input import Refused, device_label, read_subscription
from games.models import Seat

THEME = "#6b3410"


# the worker's cache name: change it when the icons or styles it keeps change, so an old cache is let go
WORKER_CACHE = "v1"


@require_GET
@cache_control(max_age=3600, public=True)
def manifest(request: HttpRequest) -> HttpResponse:
    """What makes the site installable: its name, icons, colour, and where it opens."""
    data = {
        "name": "Café turns",
        "short_name": "Café turns",
        "description": _("Your turns in four café board games, played at your own pace."),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#fffaf3",
        "theme_color": THEME,
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": static("icons/maskable-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
            {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})


@require_GET
@cache_control(no_cache=True)  # a browser checks for a new worker on each visit
def service_worker(request: HttpRequest) -> HttpResponse:
    response = render(request, "push/sw.js", {"version": WORKER_CACHE}, content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
@cache_control(max_age=3600, public=True)
def offline(request: HttpRequest) -> HttpResponse:
    """What the worker shows when the network is gone: the same for everyone, so it may be kept."""
    return render(request, "push/offline.html")


# --- turning push on and off ------------------------------------------------------------------


def _answer(ok: bool, message: str, status: int = 200) -> JsonResponse:
    return JsonResponse({"ok": ok, "message": message}, status=status)


def _subscribe(request: HttpRequest, user) -> JsonResponse:
    try:
        sub = read_subscription(request.body, settings.PUSH_LOCAL_HOSTS)
    except Refused as e:
        return _answer(False, _("%(why)s Nothing was saved.") % {"why": e}, 400)
    device, created = push_devices.subscribe(user, sub, device_label(request.headers.get("User-Agent", "")))
    if created:
        said = _("This device (%(device)s) will now be notified when it is your move.")
    else:
        said = _("This device (%(device)s) still will be notified when it is your move.")
    return _answer(True, said % {"device": device.label}, 201 if created else 200)


def _unsubscribe(request: HttpRequest, user) -> JsonResponse:
    try:
        sub = read_subscription(request.body, settings.PUSH_LOCAL_HOSTS)
    except Refused as e:
        return _answer(False, _("%(why)s Nothing was changed.") % {"why": e}, 400)
    if push_devices.remove_endpoint(user, sub.endpoint):
        return _answer(True, _("This device will no longer be notified."))
    return _answer(True, _("This device was not being notified; nothing was changed."))


@login_required
@require_POST
@never_cache
def profile_push(request: HttpRequest) -> HttpResponse:
    """POST the browser's subscription (JSON): this device is notified from now on."""
    return _subscribe(request, request.user)


@login_required
@require_POST
@never_cache
def profile_push_off(request: HttpRequest) -> HttpResponse:
    """POST the subscription the browser just let go of: it is forgotten."""
    return _unsubscribe(request, request.user)


@login_required
@require_POST
def profile_push_remove(request: HttpRequest, pk: int) -> HttpResponse:
    """The profile's Remove button, for any of the person's devices (a lost phone too)."""
    if push_devices.remove(request.user, pk):
        messages.success(request, _("That device will no longer be notified."))
    else:
        messages.error(request, _("There is no such device of yours; nothing was changed."))
    return redirect("/me/#push")


def _seat_player(request: HttpRequest, token: str) -> tuple[Seat | None, JsonResponse | None]:
    try:
        seat = links.seat_from_token(token, lean=True)
    except links.LinkError as e:
        return None, _answer(False, str(e), 403)
    if seat.player is None or (seat.is_bot and not seat.stand_in):
        return None, _answer(False, _("Only a player's own seat can be notified."), 400)

    return seat, None


@require_POST
@never_cache
def seat_push(request: HttpRequest, token: str) -> HttpResponse:
    """From a seat page (its link, no sign-in needed): this device is notified of the player's moves."""
    seat, refused = _seat_player(request, token)
    return refused or _subscribe(request, seat.player)


@require_POST
@never_cache
def seat_push_off(request: HttpRequest, token: str) -> HttpResponse:
    seat, refused = _seat_player(request, token)
    return refused or _unsubscribe(request, seat.player)
