"""The live seat page's check: has anything the page shows changed since it was drawn?

An open seat page asks `GET /play/<token>/live/?v=<marker>` every few seconds (static/seat.js);
the marker is the one the page was drawn with (`marker`). The answer is 204 (nothing new) or 200
"changed", and nothing else: no game data, so the check can show a seat nothing it may not see.
Only on "changed" does the page fetch itself again and swap the parts that changed.

Why plain polling of a small endpoint, and not a push channel (server-sent events, websockets):
the service runs on the embedded default (SQLite, no Redis, Django's own server) and in production
on gunicorn's worker threads. A held-open connection per open tab would take a worker thread for as
long as the tab stays open and needs a broker to fan changes out between processes; a check that
costs one indexed query and renders nothing needs neither, works behind any proxy and scales with
the web processes like every other page. Its cost is measured by bench/live.py.
"""

from __future__ import annotations

import re

from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from accounts import tokens
from games.models import Game, Seat

# <version>.<newest table-talk message id>.<status>: the game's version moves with every event
# (answers, timeouts, organisers' actions), the talk marker with every message, and the status
# with a start (which plays no event of its own)
_MARKER = re.compile(r"[0-9]{1,10}\.[0-9]{1,10}\.[a-z]{1,10}", re.ASCII)

# the seat's nonce and its game's marker: one row, found by the seat's primary key and joined on the
# game's; written out once rather than built by the ORM at every check (the ORM's building cost as
# much as the query itself: bench/live.py)
_ROW = (
    f'SELECT s."nonce", g."version", g."last_message", g."status" FROM "{Seat._meta.db_table}" s'
    f' JOIN "{Game._meta.db_table}" g ON g."id" = s."game_id" WHERE s."id" = %s'
)


def marker(version: int, last_message: int, status: str) -> str:
    """What a seat page was drawn from, as the check compares it."""
    return f"{version}.{last_message}.{status}"


def _refused(words: str, status: int) -> HttpResponse:
    return HttpResponse(words, status=status, content_type="text/plain; charset=utf-8")


@never_cache
@require_GET
def seat_live(request: HttpRequest, token: str) -> HttpResponse:
    """204 when the page drawn at `v` is still current, 200 "changed" when it is not; one query.

    A link that opens no seat is refused in words (403), as the seat page refuses it; then a marker
    no page of ours carries is refused (400) rather than answered, so the check never guesses.
    """
    try:
        seat_pk, nonce = tokens.read_seat_token(token)
    except tokens.ExpiredToken:
        return _refused(_("This link has expired: reload the page to ask for a fresh one."), 403)
    except tokens.BadToken:
        return _refused(_("This link is not valid. It may have been cut short by your mail program."), 403)
    if not isinstance(seat_pk, int) or isinstance(seat_pk, bool):
        return _refused(_("This link is not valid."), 403)
    with connection.cursor() as cursor:
        cursor.execute(_ROW, [seat_pk])
        row = cursor.fetchone()
    if row is None:
        return _refused(_("This link is for a seat that no longer exists."), 403)
    seat_nonce, version, last_message, status = row
    if seat_nonce != nonce:
        return _refused(_("This link has been replaced by a newer one: use the link in your latest email."), 403)
    seen = request.GET.get("v", "")
    if not _MARKER.fullmatch(seen):
        return _refused(_("This check needs the version the page was drawn with (v=...). Reload the page."), 400)
    if seen == marker(version, last_message, status):
        return HttpResponse(status=204)
    return HttpResponse("changed", content_type="text/plain; charset=utf-8")
