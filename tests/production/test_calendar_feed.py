"""The calendar feed on PostgreSQL, with its revision stamps in Redis: what a calendar app polling
it meets (a 200, then 304s until a deadline moves), in two queries."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.core.cache import caches
from django.test import Client
from icalendar import Calendar

from accounts.models import User
from games.actions import organise
from games.calendar_feed import feed_url

pytestmark = [pytest.mark.production, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def redis_cache(settings):
    """The production cache (tests/conftest.py gives every test a local one)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.FailSoftRedisCache",
            "LOCATION": settings.REDIS_URL,
            "KEY_PREFIX": "calendar-test",
        }
    }
    caches["default"].clear()
    yield
    caches["default"].clear()


def test_a_calendar_app_polls_the_feed_on_postgres_and_redis(
    clocked, organiser, redis_cache, django_assert_max_num_queries
):
    game = clocked()
    clocked()
    path = urlsplit(feed_url(User.objects.get(email="ana@example.com"))).path
    app = Client()
    with django_assert_max_num_queries(2):
        first = app.get(path)
    assert first.status_code == 200 and len(Calendar.from_ical(first.content).walk("VEVENT")) == 2
    assert app.get(path, headers={"If-None-Match": first["ETag"]}).status_code == 304
    assert app.get(path, headers={"If-Modified-Since": first["Last-Modified"]}).status_code == 304

    organise.extend_deadline(game, 3, organiser, "a long week")
    moved = app.get(path, headers={"If-None-Match": first["ETag"]})
    assert moved.status_code == 200 and moved["ETag"] != first["ETag"]
    assert app.get(path, headers={"If-Modified-Since": first["Last-Modified"]}).status_code == 200
