"""Which language a person reads (accounts/languages.py): the switcher, the browser's, the profile's,
and hostile headers and codes that fall back to the site's language without an error."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from accounts import languages
from accounts.models import User
from games import links
from tests.accounts.test_sign_in import mailed_link

pytestmark = pytest.mark.django_db(transaction=True)
COOKIE = settings.LANGUAGE_COOKIE_NAME


def page_language(response) -> str:
    return response.headers.get("Content-Language", "")


def test_every_language_offered_is_a_code_we_have():
    assert [code for code, _ in settings.LANGUAGES] == ["en", "pt", "ja", "es", "fr", "de"]
    assert languages.valid("ja") == "ja" and languages.valid("xx") is None and languages.valid(["ja"]) is None


def test_a_visitor_reads_the_language_their_browser_asks_for():
    client = Client()
    assert page_language(client.get("/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,en;q=0.5")) == "de"
    assert page_language(client.get("/", HTTP_ACCEPT_LANGUAGE="pt-BR")) == "pt"
    assert page_language(client.get("/", HTTP_ACCEPT_LANGUAGE="ja")) == "ja"
    assert page_language(client.get("/", HTTP_ACCEPT_LANGUAGE="sv")) == "en"


@pytest.mark.parametrize(
    "header",
    ["x" * 100_000, "de;q=abc", "*;q=1,,,;;;", "de-" + "A" * 500, "\u00e9\u00e9;q=0.5", "en;q=999999999999999999999"],
    ids=["huge", "bad-q", "punctuation", "long-tag", "non-ascii", "huge-q"],
)
def test_a_hostile_accept_language_falls_back_without_an_error(header):
    response = Client().get("/", HTTP_ACCEPT_LANGUAGE=header)
    assert response.status_code == 200
    assert page_language(response) in {code for code, _ in settings.LANGUAGES}


def test_the_switcher_keeps_a_visitors_choice_and_refuses_a_code_we_do_not_have():
    client = Client()
    r = client.post("/language/", {"language": "fr", "next": "/rules/"})
    assert r.status_code == 302 and r.headers["Location"] == "/rules/"
    assert client.cookies[COOKIE].value == "fr"
    assert page_language(client.get("/", HTTP_ACCEPT_LANGUAGE="de")) == "fr", "the choice wins over the browser"
    r = client.post("/language/", {"language": "xx-evil"})
    assert r.status_code == 302 and client.cookies[COOKIE].value == "fr", "an unknown code changes nothing"


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "javascript:alert(1)"])
def test_the_switcher_goes_back_only_on_this_site(target):
    r = Client().post("/language/", {"language": "de", "next": target})
    assert r.status_code == 302 and r.headers["Location"] == "/"


def test_the_switcher_is_a_post():
    assert Client().get("/language/").status_code == 405


def test_a_signed_in_persons_choice_is_kept_in_their_profile(make_game):
    make_game()
    ana = User.objects.get(email="ana@example.com")
    client = Client()
    client.force_login(ana)
    client.post("/language/", {"language": "ja"})
    ana.refresh_from_db()
    assert ana.language == "ja" and languages.for_user(ana) == "ja"
    # on another device: signing in brings the profile's language, whatever the browser asks for
    again = Client()
    token = mailed_link(again, ana.email).split("sesame=", 1)[1]
    assert again.post("/sign-in/link/", {"sesame": token}, HTTP_ACCEPT_LANGUAGE="fr").status_code == 302
    assert again.cookies[COOKIE].value == "ja"
    assert page_language(again.get("/", HTTP_ACCEPT_LANGUAGE="fr")) == "ja"


def test_signing_in_without_a_language_keeps_the_browsers(make_game):
    make_game()
    client = Client()
    token = mailed_link(client, "ben@example.com").split("sesame=", 1)[1]
    client.post("/sign-in/link/", {"sesame": token}, HTTP_ACCEPT_LANGUAGE="pt-PT,pt;q=0.9")
    assert User.objects.get(email="ben@example.com").language == "pt"


def test_a_seat_page_reads_in_its_players_language_and_takes_the_browsers_when_none_is_chosen(make_game):
    game = make_game()
    ana = game.seats.get(index=0)
    url = f"/play/{links.token_for(ana)}/"
    assert ana.player.language == ""
    assert page_language(Client().get(url, HTTP_ACCEPT_LANGUAGE="es")) == "es"
    ana.player.refresh_from_db()
    assert ana.player.language == "es", "the browser's language is kept for the player's mail"
    User.objects.filter(pk=ana.player_id).update(language="de")
    assert page_language(Client().get(url, HTTP_ACCEPT_LANGUAGE="fr")) == "de", "the profile wins"


def test_a_profile_without_a_language_is_written_to_in_the_sites():
    user = User(email="x@example.com")
    assert languages.for_user(user) == settings.LANGUAGE_CODE == "en"
    user.language = "<script>"
    assert languages.for_user(user) == "en"


@hsettings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    code=st.one_of(st.text(max_size=40), st.sampled_from(["en", "de", "ja", "pt-br", "EN", "de\x00"])),
    nxt=st.text(max_size=60),
    header=st.text(max_size=300),
)
def test_the_switcher_and_the_header_never_fail(code, nxt, header):
    client = Client()
    r = client.post("/language/", {"language": code.replace("\x00", ""), "next": nxt.replace("\x00", "")})
    assert r.status_code == 302
    kept = client.cookies.get(COOKIE)
    assert kept is None or kept.value in languages.CODES
    try:
        header.encode("latin-1")
    except UnicodeEncodeError:
        return  # not a header a client can send
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=header)
    assert response.status_code == 200
    translation.activate("en")
