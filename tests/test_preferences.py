"""The profile's form (games/forms/preferences.py): the timezone as a menu of zones, the digest hour as a time."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from games.forms.preferences import PreferencesForm, timezone_choices

pytestmark = pytest.mark.django_db

FORM = {"name": "Ana", "email_mode": "digest", "digest_hour": "7", "timezone": "Europe/Lisbon"}


def signed_in() -> tuple[Client, User]:
    user = User.objects.create_user("ana@example.com")
    client = Client()
    client.force_login(user)
    return client, user


def test_the_timezone_is_a_menu_of_zones_by_region_with_mine_chosen():
    client, user = signed_in()
    user.timezone = "America/Sao_Paulo"
    user.save()
    page = client.get("/me/").content.decode()
    assert '<select name="timezone"' in page and "data-browser-zone" in page
    assert '<optgroup label="Europe">' in page and '<option value="Europe/Lisbon">Lisbon</option>' in page
    assert '<option value="America/Sao_Paulo" selected>Sao Paulo</option>' in page
    assert "timezone.js" in page, "the browser's zone is offered by script"
    regions = [region for region, _ in timezone_choices()]
    assert regions[0] == "" and "Europe" in regions and "US" not in regions


def test_the_digest_hour_is_a_time_of_day_and_saves_as_before():
    client, user = signed_in()
    page = client.get("/me/").content.decode()
    assert '<option value="8" selected>08:00</option>' in page and "Daily digest at (your time)" in page
    assert client.post("/me/", FORM).status_code == 302
    user.refresh_from_db()
    assert (user.digest_hour, user.timezone, user.email_mode) == (7, "Europe/Lisbon", "digest")


def test_a_zone_typed_before_outside_the_menu_is_kept_and_a_bad_one_refused():
    _, user = signed_in()
    user.timezone = "US/Eastern"  # a link name: valid, not among the canonical zones
    form = PreferencesForm(instance=user)
    assert '<option value="US/Eastern" selected>US/Eastern</option>' in str(form["timezone"])
    bad = PreferencesForm({**FORM, "timezone": "Mars/Base"}, instance=user)
    assert not bad.is_valid() and "is not a timezone name" in str(bad.errors["timezone"])
    hour = PreferencesForm({**FORM, "digest_hour": "24"}, instance=user)
    assert not hour.is_valid() and "An hour from 0 to 23." in str(hour.errors["digest_hour"])
