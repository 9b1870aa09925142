"""The tokens made in accounts/tokens.py that the calendar feed added: its address, and seat links
dated to the start of their day."""

from __future__ import annotations

import time

import pytest
from django.core import signing

from accounts import tokens


def test_a_feed_address_is_the_same_each_time_and_reads_back():
    token = tokens.calendar_token(12, "nonce-a")
    assert tokens.calendar_token(12, "nonce-a") == token, "the profile shows one address, not a new one each visit"
    assert tokens.read_calendar_token(token) == (12, "nonce-a")
    assert tokens.calendar_token(12, "nonce-b") != token


@pytest.mark.parametrize(
    "token",
    [
        "",
        "no-signature",
        tokens.calendar_token(12, "nonce-a")[:-2],
        tokens.seat_token(12, "nonce-a"),  # another kind of token never reads as a feed address
        signing.Signer(salt="elsewhere").sign_object({"u": 12, "n": "nonce-a"}),
        "x\udc80y:abc",
    ],
    # named, not shown: a seat token is signed to the second, and each xdist worker collects its own
    ids=["empty", "unsigned", "cut", "seat-token", "other-salt", "surrogate"],
)
def test_anything_but_a_genuine_feed_address_is_a_bad_token(token):
    with pytest.raises(tokens.BadToken):
        tokens.read_calendar_token(token)


def test_a_genuine_signature_over_something_else_names_nobody():
    odd = signing.Signer(salt=tokens.CALENDAR_SALT).sign_object([1, 2])
    assert tokens.read_calendar_token(odd) == (None, None)


def test_a_seat_link_dated_to_the_start_of_its_day_is_the_same_all_day_and_lives_its_time_from_then(settings):
    day = int(time.time()) // 86400 * 86400
    token = tokens.seat_token(5, "n", signed_at=day)
    assert tokens.seat_token(5, "n", signed_at=day) == token
    assert tokens.read_seat_token(token) == (5, "n")
    settings.SEAT_LINK_MAX_AGE = int(time.time()) - day + 60  # the link's age plus a minute: still open
    assert tokens.read_seat_token(token) == (5, "n")
    settings.SEAT_LINK_MAX_AGE = max(1, int(time.time()) - day - 60)  # older than that: expired, still told apart
    with pytest.raises(tokens.ExpiredToken):
        tokens.read_seat_token(token)
