"""Test-only URLs: the site's own, plus one view for each way a request can fail."""

from __future__ import annotations

from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import urlpatterns as site_urlpatterns

SECRET = "internal detail: the database password is hunter2"


def denied(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied("You do not organise this game.")


def bad(request: HttpRequest) -> HttpResponse:
    raise BadRequest(SECRET)


def suspicious(request: HttpRequest) -> HttpResponse:
    raise SuspiciousOperation(SECRET)


def broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError(SECRET)


urlpatterns = [
    path("fail/denied/", denied),
    path("fail/bad/", bad),
    path("fail/suspicious/", suspicious),
    path("fail/broken/", broken),
    *site_urlpatterns,
]
