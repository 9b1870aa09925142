"""The calendar feed's address (games/views/calendar.py): what a calendar app gets when it polls,
what a person sees on their profile, and what a bad, damaged or replaced address gets."""

from __future__ import annotations

from urllib.parse import quote, urlsplit

import pytest
from django.core import signing
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st
from icalendar import Calendar

from accounts import tokens
from accounts.models import User
from games.actions import organise, play
from games.calendar_feed import feed_url
from tests.support import hostile as h
from tests.test_fuzz_endpoints import Findings, Poster, fuzz, junk_fields, same_signature

pytestmark = pytest.mark.django_db(transaction=True)


def ana() -> User:
    return User.objects.get(email="ana@example.com")


def path_of(user: User) -> str:
    return urlsplit(feed_url(user)).path


def test_a_calendar_app_gets_my_deadlines_as_a_private_calendar_file(clocked):
    clocked()
    response = Client().get(path_of(ana()))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert response["Cache-Control"] == "private, max-age=300"
    assert response["ETag"].startswith('"') and response["Last-Modified"].endswith("GMT")
    [event] = Calendar.from_ical(response.content).walk("VEVENT")
    assert str(event["summary"]) == "Your move in Clocked"
    assert "Set-Cookie" not in response, "a calendar app has no session, and gets none"


def test_an_unchanged_feed_is_a_304_to_either_question_and_a_change_is_a_200(clocked):
    game = clocked()
    app = Client()
    first = app.get(path_of(ana()))
    etag, modified = first["ETag"], first["Last-Modified"]

    same = app.get(path_of(ana()), headers={"If-None-Match": etag})
    assert same.status_code == 304 and same.content == b""
    assert same["ETag"] == etag and same["Cache-Control"] == "private, max-age=300"
    assert app.get(path_of(ana()), headers={"If-Modified-Since": modified}).status_code == 304
    assert app.head(path_of(ana()), headers={"If-None-Match": etag}).status_code == 304

    play.submit(game.pk, 0, 2, None, via="web")  # ana answered: her deadline is gone
    changed = app.get(path_of(ana()), headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert Calendar.from_ical(changed.content).walk("VEVENT") == []
    assert app.get(path_of(ana()), headers={"If-Modified-Since": modified}).status_code == 200
    assert app.get(path_of(ana()), headers={"If-None-Match": changed["ETag"]}).status_code == 304


def test_a_poll_costs_two_queries(clocked, django_assert_max_num_queries):
    for _ in range(3):
        clocked()
    path = path_of(ana())
    with django_assert_max_num_queries(2):
        assert Client().get(path).status_code == 200


def test_my_profile_shows_the_address_and_a_new_one_stops_the_old(clocked):
    clocked()
    user = ana()
    old = feed_url(user)
    person = Client()
    person.force_login(user)
    page = person.get("/me/").content.decode()
    assert 'id="calendar"' in page and old in page
    assert "webcal://" + old.split("://", 1)[1] in page

    response = person.post("/me/calendar/new/")
    assert response.status_code == 302 and response["Location"] == "/me/#calendar"
    new = feed_url(ana())
    assert new != old
    page = person.get("/me/").content.decode()
    assert new in page and old not in page and "The old one no longer works" in page

    gone = Client().get(urlsplit(old).path)
    assert gone.status_code == 404 and "replaced by a newer one" in gone.content.decode()
    assert Client().get(urlsplit(new).path).status_code == 200


def test_a_new_address_needs_a_signed_in_post(clocked):
    clocked()
    nonce = ana().calendar_nonce
    assert Client().post("/me/calendar/new/").status_code == 302  # to sign in
    person = Client()
    person.force_login(ana())
    assert person.get("/me/calendar/new/").status_code == 405, "a link (or a mail scanner) changes nothing"
    assert ana().calendar_nonce == nonce


def test_forged_cut_and_other_kinds_of_token_are_a_404_in_words(clocked):
    game = clocked()
    user = ana()
    genuine = tokens.calendar_token(user.pk, user.calendar_nonce)
    seat = game.seats.get(index=0)
    ben = User.objects.get(email="ben@example.com")
    wrong = [
        genuine[:-3],  # cut short
        genuine[:-1] + ("A" if genuine[-1] != "A" else "B"),  # tampered with
        tokens.seat_token(seat.pk, seat.nonce),  # a seat link's token: another kind
        tokens.unsubscribe_token(user.pk),
        tokens.calendar_token(user.pk, "guessed"),  # a nonce that is not hers
        signing.Signer(salt="something else").sign_object({"u": user.pk, "n": user.calendar_nonce}),
        tokens.calendar_token(ben.pk, user.calendar_nonce),
        "x" * 5000,
    ]
    for token in wrong:
        response = Client().get(f"/me/calendar/{quote(token, safe='')}.ics")
        assert response.status_code == 404, token[:40]
        assert "This calendar address does not work" in response.content.decode()
        assert b"BEGIN:VCALENDAR" not in response.content


def test_a_deactivated_persons_feed_opens_nothing(clocked):
    clocked()
    path = path_of(ana())
    User.objects.filter(email="ana@example.com").update(is_active=False)
    assert Client().get(path).status_code == 404


def test_organisers_ending_the_game_empties_the_feed(clocked, organiser):
    game = clocked()
    organise.end_game(game, organiser, "a test")
    response = Client().get(path_of(ana()))
    assert response.status_code == 200 and Calendar.from_ical(response.content).walk("VEVENT") == []


def test_hostile_feed_tokens_never_open_a_feed_nor_fail(clocked):
    """GET /me/calendar/<token>.ics with garbled, hostile and huge tokens: a 404 (or the site's own
    4xx for a path it cannot read), never a server error, never a calendar; nothing changes."""
    clocked()
    user = ana()
    genuine = tokens.calendar_token(user.pk, user.calendar_nonce)
    findings = Findings()
    endpoint = "GET /me/calendar/<token>.ics"

    @fuzz(200)
    @given(
        token=st.one_of(
            h.garbling().map(lambda garble: garble(genuine)),
            h.hostile_text(60),
            st.sampled_from(h.SPECIAL_TEXT),
        ),
        suffix=st.sampled_from((".ics", ".ics", ".ICS", ".ics/", "")),
    )
    def example(token, suffix) -> None:
        if same_signature(token, genuine) and suffix == ".ics":
            return
        url = f"/me/calendar/{quote(token.encode('utf-8', 'surrogatepass'), safe='')}{suffix}"
        repro = f"url={h.short(url, 120)}"
        response = Poster(findings, endpoint).get(url, repro)
        if response.status_code >= 500:
            return
        if response.status_code == 200 or b"BEGIN:VCALENDAR" in response.content:
            findings.add(endpoint, "a damaged address opened a feed", repro)
        if not 400 <= response.status_code < 500:
            findings.add(endpoint, f"answered {response.status_code}", repro)
        text = response.content.decode("utf-8", "replace")
        if not h.in_words(h.visible_text(text) if "<" in text else text):
            findings.add(endpoint, "a refusal that says nothing", repro)

    example()
    assert ana().calendar_nonce == user.calendar_nonce
    findings.check()


def test_hostile_posts_to_make_a_new_address_only_ever_make_one_for_the_person_signed_in(clocked):
    """POST /me/calendar/new/ takes no field: whatever is posted, a signed-in person gets a new
    address (and only they), someone not signed in changes nothing; never a server error."""
    clocked()
    findings = Findings()
    endpoint = "POST /me/calendar/new/"
    person = Client(raise_request_exception=False)
    person.force_login(ana())
    ben = User.objects.get(email="ben@example.com")

    @fuzz(60)
    @given(junk=junk_fields(), signed_in=st.booleans())
    def example(junk, signed_in) -> None:
        before, bens = ana().calendar_nonce, ben.calendar_nonce
        repro = f"signed_in={signed_in} form={[(k, h.short(v, 30)) for k, v in junk]}"
        poster = Poster(findings, endpoint, client=person if signed_in else None)
        response = poster.form("/me/calendar/new/", junk, repro)
        if response.status_code >= 500:
            return
        after = ana().calendar_nonce
        if signed_in and (after == before or response.status_code != 302):
            findings.add(endpoint, "a signed-in post made no new address", repro)
        if not signed_in and after != before:
            findings.add(endpoint, "a post by nobody signed in changed the address", repro)
        if User.objects.get(pk=ben.pk).calendar_nonce != bens:
            findings.add(endpoint, "another person's address changed", repro)

    example()
    findings.check()
