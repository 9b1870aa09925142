"""Shared fixtures: the tiny Pebbles title, eager Celery, mail kept in memory."""

from __future__ import annotations

import pytest

from games.titles import register
from tests.support.pebbles import TITLE as PEBBLES

register(PEBBLES)


@pytest.fixture(autouse=True)
def _fast_local_services(settings, tmp_path):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.SITE_URL = "http://testserver"
    settings.STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _site_language_again():
    """Each test starts in the site's language: a request leaves its reader's language active in the
    thread (Django's LocaleMiddleware sets it for each request, so the service is never misled)."""
    from django.conf import settings as django_settings
    from django.utils import translation

    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _own_cache(settings, request):
    """Each test its own empty cache (rate-limit counters), whatever the xdist worker ran before."""
    from django.core.cache import caches

    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": request.node.nodeid}
    }
    caches["default"].clear()
    yield
    caches["default"].clear()


@pytest.fixture(autouse=True)
def _fresh_state_parts():
    """Tests empty the database between them; production never deletes a stored state part."""
    from games import state_parts

    state_parts.forget()


@pytest.fixture(autouse=True)
def _reproducible_seeds(request, monkeypatch):
    """Every game a test starts gets a seed derived from the test's name, so a run can be repeated
    exactly (production seeds come from the secrets module)."""
    import hashlib
    import itertools

    from games.actions import organise

    counter = itertools.count()
    monkeypatch.setattr(
        organise, "new_seed", lambda: hashlib.sha256(f"{request.node.nodeid}:{next(counter)}".encode()).hexdigest()[:32]
    )


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_user("org@example.com", "pw-organiser-1", is_staff=True, name="Olga")


@pytest.fixture
def make_game(organiser):
    """A started game of `title` with the given seats (emails, or None for a bot)."""
    from games.actions import organise

    def make(title: str = "pebbles", seats=("ana@example.com", "ben@example.com"), options=None, start=True):
        game = organise.create_game(organiser, title, "Test table", options or {}, list(seats))
        if start:
            game = organise.start_game(game)
        game.refresh_from_db()
        return game

    return make


@pytest.fixture
def clocked(organiser):
    """A started Pebbles game with a 60-minute clock, reminders 10 minutes before, bot after 2 misses."""
    from games.actions import organise

    def make(seats=("ana@example.com", "ben@example.com"), **clock):
        settings = {"decision_minutes": 60, "reminder_minutes": 10, "bot_after_misses": 2, **clock}
        game = organise.create_game(organiser, "pebbles", "Clocked", {}, list(seats), **settings)
        organise.start_game(game)
        game.refresh_from_db()
        return game

    return make


@pytest.fixture
def travel(monkeypatch):
    """Move the service's clock: travel(61) = 61 minutes after the test began."""
    from datetime import timedelta

    import django.utils.timezone as tz

    real_now = tz.now
    begin = real_now()

    def to(minutes: float):
        fake = begin + timedelta(minutes=minutes)
        monkeypatch.setattr(tz, "now", lambda: fake)
        return fake

    yield to
    monkeypatch.setattr(tz, "now", real_now)


@pytest.fixture
def relay(make_game):
    """A started Relay game (tests/support/relay.py: a turn of several steps) of two people, both
    numbers hidden: Ana (seat 0) is to run her turn."""
    from games.actions import play
    from games.titles import register, unregister
    from tests.support.relay import TITLE as RELAY

    register(RELAY)
    try:
        game = make_game(title="relay", seats=("ana@example.com", "ben@example.com"))
        for seat in (0, 1):
            play.submit(game.pk, seat, 1, None, via="web")
        game.refresh_from_db()
        assert game.engine.prompts(game.state).keys() == {0}
        yield game
    finally:
        unregister("relay")
