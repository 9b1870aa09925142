"""Signed seat links: forged, expired, another seat's, revoked."""

from __future__ import annotations

import pytest
from django.core import signing

from accounts import tokens
from games import links
from games.models import Seat

pytestmark = pytest.mark.django_db


def test_a_link_opens_its_own_seat(make_game):
    game = make_game(start=False)
    seat = game.seats.get(index=1)
    assert links.seat_from_token(links.token_for(seat)) == seat


def test_a_forged_link_is_refused(make_game):
    game = make_game(start=False)
    token = links.token_for(game.seats.get(index=0))
    forged = token[:-3] + ("aaa" if not token.endswith("aaa") else "bbb")
    with pytest.raises(links.LinkError, match="not valid"):
        links.seat_from_token(forged)


def test_a_link_signed_with_another_key_is_refused(make_game, settings):
    game = make_game(start=False)
    seat = game.seats.get(index=0)
    other = signing.dumps({"s": seat.pk, "n": seat.nonce}, key="someone-else", salt=tokens.SEAT_SALT, compress=True)
    with pytest.raises(links.LinkError):
        links.seat_from_token(other)


def test_a_token_made_for_another_purpose_is_refused(make_game):
    game = make_game(start=False)
    seat = game.seats.get(index=0)
    token = signing.dumps({"s": seat.pk, "n": seat.nonce}, salt="something-else", compress=True)
    with pytest.raises(links.LinkError):
        links.seat_from_token(token)


def test_an_expired_link_is_refused_but_knows_its_seat(make_game, settings):
    game = make_game(start=False)
    seat = game.seats.get(index=0)
    token = links.token_for(seat)
    settings.SEAT_LINK_MAX_AGE = -1
    with pytest.raises(links.LinkError, match="expired") as e:
        links.seat_from_token(token)
    assert e.value.seat == seat


def test_rotating_the_nonce_revokes_old_links(make_game):
    game = make_game(start=False)
    seat = game.seats.get(index=0)
    token = links.token_for(seat)
    Seat.objects.filter(pk=seat.pk).update(nonce="rotated")
    with pytest.raises(links.LinkError, match="replaced"):
        links.seat_from_token(token)


def test_a_link_for_seat_a_never_names_seat_b(make_game):
    game = make_game(start=False)
    a, b = game.seats.all()
    assert links.seat_from_token(links.token_for(a)).pk == a.pk != b.pk
