"""Error pages (issue 12): in the site's look, saying in plain words what to do next, never internals.

Django renders templates/400.html, 403.html, 404.html and 500.html when DEBUG is off (as in
production); a 500 is also logged with its traceback so the organiser can find it. A database
that is away for a moment (issue 22: a PostgreSQL restart) is a 503 "try again" page instead,
from a view or a middleware alike, logged as one warning line (config/errors.py).
"""

from __future__ import annotations

import logging

import pytest

from tests.support.error_urls import SECRET

pytestmark = pytest.mark.django_db

SITE_LOOK = ('<link rel="stylesheet" href="/static/site.css">', "☕ Café turns")


@pytest.fixture
def failing(settings, client):
    """The client against the test URLs, as production runs: no debug pages, errors become responses."""
    settings.DEBUG = False
    settings.ROOT_URLCONF = "tests.support.error_urls"
    client.raise_request_exception = False
    return client


def _page(response, status: int, heading: str) -> str:
    html = response.content.decode()
    assert response.status_code == status
    assert response["Content-Type"].startswith("text/html")
    for piece in SITE_LOOK:
        assert piece in html, f"the {status} page is not in the site's look"
    assert f"<h1>{heading}</h1>" in html
    assert "nothing was played or changed" in html.lower() or status in (500, 503)
    for internal in (SECRET, "Traceback", "File &quot;", 'File "', "RuntimeError", "django."):
        assert internal not in html, f"the {status} page shows {internal!r}"
    return html


def test_a_page_that_is_not_there(failing):
    html = _page(failing.get("/no/such/page/"), 404, "There is no page here")
    assert "use the link in your latest email" in html


def test_a_refusal_says_why_and_where_to_go(failing):
    html = _page(failing.get("/fail/denied/"), 403, "This page is not open to you")
    assert "You do not organise this game." in html
    assert "link in your latest email" in html


@pytest.mark.parametrize("url", ["/fail/bad/", "/fail/suspicious/"])
def test_a_request_that_cannot_be_read(failing, url):
    html = _page(failing.get(url), 400, "We could not read that request")
    assert "try once more" in html


def test_a_bad_host_header(failing):
    _page(failing.get("/", HTTP_HOST="evil.example"), 400, "We could not read that request")


def test_an_expired_form(failing, make_game):
    from django.test import Client

    from games import links
    from games.models import Event

    game = make_game()
    seat = game.seats.get(index=0)
    browser = Client(enforce_csrf_checks=True, raise_request_exception=False)
    logged = Event.objects.filter(game=game).count()
    response = browser.post(links.url_for(seat), {"version": game.version, "answer": "1"})
    _page(response, 403, "This form had expired")
    assert Event.objects.filter(game=game).count() == logged


def _reached(record: logging.LogRecord) -> list[logging.Handler]:
    """The configured handlers (not pytest's) that would write this record out."""
    logger: logging.Logger | None = logging.getLogger(record.name)
    out: list[logging.Handler] = []
    while logger is not None:
        out += [
            h
            for h in logger.handlers
            if not type(h).__module__.startswith("_pytest") and record.levelno >= h.level and h.filter(record)
        ]
        logger = logger.parent if logger.propagate else None
    return out


def test_a_crash_shows_a_calm_page_and_logs_the_traceback(failing, caplog):
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = failing.get("/fail/broken/")
    html = _page(response, 500, "Something went wrong on our side")
    assert "try again in a minute" in html
    [record] = [r for r in caplog.records if r.name == "django.request" and r.levelno == logging.ERROR]
    assert record.exc_info and record.exc_info[0] is RuntimeError
    assert "Traceback" in caplog.text and SECRET in caplog.text  # the log has it all; the page has none of it
    assert _reached(record), "a 500 reaches no log handler: it would be lost in production"


def test_the_500_page_needs_no_request_and_no_database(django_assert_num_queries):
    from django.template.loader import render_to_string

    with django_assert_num_queries(0):
        html = render_to_string("500.html")
    assert "Something went wrong on our side" in html and SITE_LOOK[1] in html


# --- the database away for a moment (issue 22) ------------------------------------------------


def _text(html: str) -> str:
    return " ".join(html.split())


def _unavailable(response, caplog) -> str:
    """The 503 page, its headers, and its one warning line (no traceback, no error record)."""
    html = _page(response, 503, "We will be back in a moment")
    text = _text(html)
    assert int(response["Retry-After"]) > 0
    assert response["Cache-Control"] == "no-store"
    assert "Please try again in a moment." in text
    assert "may or may not have been played" in text and "link in your latest email" in text
    assert "Sending it again is safe: an answer is never played twice." in text
    for internal in ("OperationalError", "InterfaceError", "psycopg", "connection"):
        assert internal not in html, f"the 503 page shows {internal!r}"
    records = [r for r in caplog.records if r.name == "django.request"]
    assert [r.levelno for r in records] == [logging.WARNING], "one warning line, not Django's error with a traceback"
    assert "database unavailable, answered 503" in records[0].getMessage() and not records[0].exc_info
    assert _reached(records[0]), "the warning reaches no log handler"
    return html


def test_the_test_urls_use_the_sites_error_handler(failing):
    from django.urls import get_resolver

    from config.errors import server_error

    assert get_resolver("tests.support.error_urls").resolve_error_handler(500) is server_error
    assert get_resolver("config.urls").resolve_error_handler(500) is server_error


@pytest.mark.parametrize("url", ["/fail/database/", "/fail/closed/", "/fail/driver/", "/fail/wrapped/"])
def test_a_database_that_is_away_says_try_again_in_a_moment(failing, caplog, url):
    with caplog.at_level(logging.INFO, logger="django.request"):
        response = failing.get(url)
    _unavailable(response, caplog)


def test_a_database_error_in_a_middleware_is_a_503_too(failing, caplog):
    """The session store fails as the session middleware saves, after the view returned."""
    from unittest import mock

    from django.contrib.sessions.backends.db import SessionStore
    from django.db.utils import OperationalError

    away = OperationalError("server closed the connection unexpectedly")
    with mock.patch.object(SessionStore, "save", side_effect=away) as save, caplog.at_level(logging.INFO):
        response = failing.get("/fail/session/")
    assert save.called, "the session middleware did not save"
    _unavailable(response, caplog)


def test_a_crash_while_handling_a_database_error_is_still_a_crash(failing, caplog):
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = failing.get("/fail/while-handling/")
    _page(response, 500, "Something went wrong on our side")
    [record] = [r for r in caplog.records if r.name == "django.request"]
    assert record.levelno == logging.ERROR and record.exc_info[0] is RuntimeError


def test_the_503_page_needs_no_request_and_no_database(django_assert_num_queries):
    from django.db.utils import OperationalError
    from django.template.loader import render_to_string

    from config.errors import server_error

    with django_assert_num_queries(0):
        html = render_to_string("503.html")
        try:
            raise OperationalError("the database system is shutting down")
        except OperationalError:
            response = server_error(None)
    assert "We will be back in a moment" in html and SITE_LOOK[1] in html
    assert response.status_code == 503 and response.content.decode() == html


def test_the_503_warning_names_the_route_never_a_seat_link(failing, caplog, monkeypatch):
    from django.db.utils import OperationalError

    from games import links

    def away(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(links, "seat_from_token", away)
    token = "seat-link-that-works-for-whoever-reads-it"
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = failing.get(f"/play/{token}/")
    _unavailable(response, caplog)
    line = next(r.getMessage() for r in caplog.records if r.name == "django.request")
    assert "GET /play/<str:token>/" in line and token not in caplog.text
