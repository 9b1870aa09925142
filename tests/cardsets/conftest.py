"""Fixtures for the card set tests: a staff member without a password (hashing one costs a second)."""

from __future__ import annotations

import pytest


@pytest.fixture
def organiser(django_user_model):
    """Staff, as tests/conftest.py's organiser, minus the password these tests never type."""
    return django_user_model.objects.create_user("org@example.com", None, is_staff=True, name="Olga")
