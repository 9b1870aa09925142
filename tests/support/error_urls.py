"""Test-only URLs: the site's own, plus one view for each way a request can fail."""

from __future__ import annotations

import psycopg
from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.db.utils import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import handler500 as site_handler500
from config.urls import urlpatterns as site_urlpatterns

handler500 = site_handler500  # the site's own: a database that is away gives its 503 page here too

SECRET = "internal detail: the database password is hunter2"


def denied(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied("You do not organise this game.")


def bad(request: HttpRequest) -> HttpResponse:
    raise BadRequest(SECRET)


def suspicious(request: HttpRequest) -> HttpResponse:
    raise SuspiciousOperation(SECRET)


def broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError(SECRET)


def database_away(request: HttpRequest) -> HttpResponse:
    raise OperationalError(f"connection to server failed: {SECRET}")


def connection_closed(request: HttpRequest) -> HttpResponse:
    raise InterfaceError(f"connection already closed: {SECRET}")


def driver_refused(request: HttpRequest) -> HttpResponse:
    """psycopg's own error, not wrapped by Django (code that talks to the driver or a pool)."""
    raise psycopg.OperationalError(f"connection refused: {SECRET}")


def wrapped(request: HttpRequest) -> HttpResponse:
    try:
        raise OperationalError(f"the database system is starting up: {SECRET}")
    except OperationalError as e:
        raise RuntimeError(SECRET) from e


def crash_while_handling(request: HttpRequest) -> HttpResponse:
    """A bug in code that handles a database error is a crash of its own, not 'try again'."""
    try:
        raise OperationalError(SECRET)
    except OperationalError:
        raise RuntimeError(SECRET)  # noqa: B904


def session_write(request: HttpRequest) -> HttpResponse:
    """Fine in the view; the session middleware saves the session after it returns."""
    request.session["seen"] = True
    return HttpResponse("ok")


urlpatterns = [
    path("fail/database/", database_away),
    path("fail/closed/", connection_closed),
    path("fail/driver/", driver_refused),
    path("fail/wrapped/", wrapped),
    path("fail/while-handling/", crash_while_handling),
    path("fail/session/", session_write),
    path("fail/denied/", denied),
    path("fail/bad/", bad),
    path("fail/suspicious/", suspicious),
    path("fail/broken/", broken),
    *site_urlpatterns,
]
