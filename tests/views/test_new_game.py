"""The new-game form's clock presets (games/forms/new_game.py): a preset fills the clock fields, and
posted without script it sets them on the server the same way."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from games.forms.new_game import CLOCK_PRESETS, PRESET_FIELDS, clean_clock, preset_values
from games.models import Game

pytestmark = pytest.mark.django_db


def posted(organiser, **fields) -> tuple[int, Game | None]:
    client = Client()
    client.force_login(organiser)
    form = {"title": "pebbles", "name": "Preset table", "seats": "ana@example.com\nbot", **fields}
    response = client.post("/games/new/", form)
    return response.status_code, Game.objects.filter(name="Preset table").first()


def test_a_preset_posted_without_script_sets_the_clock(organiser):
    status, game = posted(organiser, clock_preset="bank", timezone="Europe/Lisbon")
    assert status == 302 and game is not None
    assert (game.bank_hours, game.bank_increment_hours, game.quiet_days) == (72, 24, "sat,sun")
    assert game.decision_hours is None and game.timezone == "Europe/Lisbon", "the timezone stays the host's"
    assert game.vacation_days == settings.VACATION_DAYS


def test_my_own_settings_use_the_fields_as_filled(organiser):
    status, game = posted(organiser, clock_preset="", decision_hours="48")
    assert status == 302 and game.decision_hours == 48 and game.bank_hours is None


def test_each_preset_passes_the_clocks_checks_and_names_every_field_it_sets():
    for slug, (label, values) in CLOCK_PRESETS.items():
        assert set(values) == set(PRESET_FIELDS) and len(PRESET_FIELDS) == 12, slug
        assert clean_clock({**values, "timezone": "UTC", "vacation_days": 14}) == [], label
    assert preset_values()["quick"]["decision_minutes"] == "10" and preset_values()["day"]["decision_minutes"] == ""


def test_an_unknown_preset_is_refused_in_words_and_nothing_is_made(organiser):
    status, game = posted(organiser, clock_preset="forever")
    assert status == 200 and game is None


def test_the_page_offers_the_four_presets_by_name(organiser):
    client = Client()
    client.force_login(organiser)
    page = client.get("/games/new/?title=pebbles").content.decode()
    for label in ("A move a day", "3 days a move", "A 3-day bank, +1 day a move, weekends off", "Quick: 10 minutes"):
        assert label in page
    assert 'id="clock-presets"' in page and "clock_presets.js" in page
