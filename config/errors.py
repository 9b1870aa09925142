"""The site's handler500: a database that is away for a moment is a 503 "try again", not a crash.

Django turns any exception a request raises (in a view, a template or a middleware such as the
session store) into a response in django.core.handlers.exception.response_for_exception; those it
does not know go to handle_uncaught_exception, which calls the URLconf's handler500 while the
exception is still being handled (so sys.exc_info() names it; checked against Django 6.1, WSGI).
During a PostgreSQL restart every request that needs the database raises OperationalError or
InterfaceError (connection refused, "terminating connection due to administrator command", "the
database system is starting up"); on SQLite a lock held past the busy timeout is one too. Each of
those is answered with templates/503.html and Retry-After, and logged as one warning line: an
outage of a few seconds should not fill the log with a traceback per request. Anything else is a
real crash and gets Django's own 500 page and traceback, as before.
"""

from __future__ import annotations

import logging
import sys

from django.db.utils import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.urls import Resolver404, resolve
from django.views import defaults

log = logging.getLogger("django.request")

RETRY_AFTER_SECONDS = 5  # a restart takes a few seconds; the page says "in a moment"

# Django wraps the driver's errors in its own (the driver's is the __cause__), but code that
# talks to psycopg directly (or a pool) raises psycopg's, so both count.
UNAVAILABLE: tuple[type[BaseException], ...] = (OperationalError, InterfaceError)
try:
    import psycopg

    UNAVAILABLE += (psycopg.OperationalError, psycopg.InterfaceError)
except ImportError:  # the embedded default (SQLite) needs no psycopg
    pass


def database_unavailable(exc: BaseException | None) -> BaseException | None:
    """The database error behind `exc`, if the database could not be reached or used.

    Follows explicit causes (`raise X from e`: X happened because of e) but not the implicit
    context of an exception raised while handling another, which may be a bug of its own.
    """
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, UNAVAILABLE):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__
    return None


def unavailable_response() -> HttpResponse:
    """The 503 page: rendered with no request and no context, so it needs neither, nor the database."""
    response = HttpResponse(loader.get_template("503.html").render(), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"  # a proxy must not keep serving it once the database is back
    return response


def server_error(request: HttpRequest | None = None, template_name: str = "500.html") -> HttpResponse:
    """handler500: a 503 page when the database is unavailable, else Django's own 500 page."""
    cause = database_unavailable(sys.exc_info()[1])
    if cause is None:
        return defaults.server_error(request, template_name)
    response = unavailable_response()
    first_line = (str(cause).strip().splitlines() or [""])[0][:200]
    where = f"{request.method} {_route(request)}" if request is not None else "a request"
    log.warning(
        "database unavailable, answered 503: %s: %s: %s",
        where,
        type(cause).__name__,
        first_line,
        extra={"status_code": 503},
    )
    # Django logs every 5xx again as an error with the traceback (log_response, in
    # response_for_exception and again in BaseHandler.get_response); this line is the log entry.
    response._has_been_logged = True
    return response


def _route(request: HttpRequest) -> str:
    """The URL pattern the request matched ("play/<str:token>/"), never its path: a seat page's
    path is a signed link that works for whoever reads the log."""
    match = getattr(request, "resolver_match", None)
    if match is None:
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return "(no such page)"
    return "/" + (match.route or match.view_name or "")
