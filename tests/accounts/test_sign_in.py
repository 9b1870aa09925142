"""Signing in by a link mailed to you (issue 14): no password, one use, a button for mail scanners."""

from __future__ import annotations

import re

import pytest
from django.core import mail as django_mail
from django.test import Client

from accounts import limits
from accounts.models import User
from games.models import Notification

pytestmark = pytest.mark.django_db(transaction=True)


def ask(client: Client, email: str, **extra):
    return client.post("/sign-in/", {"email": email}, **extra)


def link_in(message) -> str:
    return re.search(r"http://testserver(/sign-in/link/\?sesame=[^\s\"<]+)", message.body).group(1)


def mailed_link(client: Client, email: str) -> str:
    sent = len(django_mail.outbox)
    assert ask(client, email).status_code == 200
    assert len(django_mail.outbox) == sent + 1
    message = django_mail.outbox[-1]
    assert message.to == [email]
    return link_in(message)


def signed_in_as(client: Client) -> str | None:
    pk = client.session.get("_auth_user_id")
    return User.objects.get(pk=pk).email if pk else None


def test_a_known_player_signs_in_by_the_button_on_the_mailed_link(make_game):
    make_game()  # ana has a seat
    client = Client()
    link = mailed_link(client, "ana@example.com")
    page = client.get(link)
    assert page.status_code == 200 and b"Sign in as ana@example.com?" in page.content
    assert signed_in_as(client) is None, "opening the link (as a mail scanner does) signs no one in"
    token = link.split("sesame=", 1)[1]
    done = client.post("/sign-in/link/", {"sesame": token})
    assert done.status_code == 302 and done["Location"] == "/"
    assert signed_in_as(client) == "ana@example.com"
    home = client.get("/")
    assert b"My games" in home.content and b"Test table" in home.content


def test_a_sign_in_link_works_once():
    User.objects.create_user("cy@example.org")
    first, second = Client(), Client()
    token = mailed_link(first, "cy@example.org").split("sesame=", 1)[1]
    assert first.post("/sign-in/link/", {"sesame": token}).status_code == 302
    again = second.post("/sign-in/link/", {"sesame": token})
    assert again.status_code == 403 and b"already used" in again.content
    assert signed_in_as(second) is None
    assert second.get(f"/sign-in/link/?sesame={token}").status_code == 403


def test_an_expired_or_forged_link_is_refused_in_words(settings):
    User.objects.create_user("cy@example.org")
    client = Client()
    token = mailed_link(client, "cy@example.org").split("sesame=", 1)[1]
    forged = token[:-3] + ("aaa" if not token.endswith("aaa") else "bbb")
    for bad in (forged, "", "x" * 5000, token[:10]):
        response = client.post("/sign-in/link/", {"sesame": bad})
        assert response.status_code == 403 and b"Ask for a new one" in response.content
    settings.SESAME_MAX_AGE = -1  # every link is now past its age
    response = client.post("/sign-in/link/", {"sesame": token})
    assert response.status_code == 403 and b"expired" in response.content
    assert signed_in_as(client) is None


def test_the_page_says_the_same_whether_the_address_is_known_or_not():
    User.objects.create_user("known@example.org")
    known = ask(Client(), "known@example.org").content.decode()
    unknown = ask(Client(), "unknown@example.org").content.decode()
    strip = lambda html: re.sub(r"(known|unknown)@example\.org|csrfmiddlewaretoken\" value=\"[^\"]+", "", html)  # noqa: E731
    assert strip(known) == strip(unknown)
    # a new address gets an account without a password and a link, to host games of their own
    newcomer = User.objects.get(email="unknown@example.org")
    assert not newcomer.has_usable_password()
    assert Notification.objects.filter(recipient="unknown@example.org", kind=Notification.Kind.SIGN_IN).count() == 1


def test_a_deactivated_account_gets_no_link_and_the_page_does_not_say_so():
    User.objects.create_user("gone@example.org", is_active=False)
    response = ask(Client(), "gone@example.org")
    assert response.status_code == 200 and b"Check your email" in response.content
    assert not Notification.objects.filter(recipient="gone@example.org").exists()


def test_links_are_rate_limited_per_address_and_per_client():
    client = Client()
    per_address = int(limits.MAIL_PER_ADDRESS.split("/")[0])
    for _ in range(per_address):
        assert ask(client, "ana@example.com").status_code == 200
    refused = ask(Client(REMOTE_ADDR="10.0.0.9"), "ana@example.com")
    assert refused.status_code == 429 and b"Too many sign-in links" in refused.content
    assert Notification.objects.filter(recipient="ana@example.com").count() == per_address
    per_client = int(limits.MAIL_PER_CLIENT.split("/")[0])
    one_machine = Client(REMOTE_ADDR="10.0.0.7")
    for i in range(per_client):
        assert ask(one_machine, f"p{i}@example.org").status_code == 200
    refused = ask(one_machine, "another@example.org")
    assert refused.status_code == 429
    assert not User.objects.filter(email="another@example.org").exists(), "a refused request changes nothing"


def test_behind_the_proxy_the_client_is_the_address_the_proxy_saw(settings):
    settings.BEHIND_PROXY = True
    per_client = int(limits.MAIL_PER_CLIENT.split("/")[0])
    for i in range(per_client):
        assert ask(Client(), f"q{i}@example.org", HTTP_X_FORWARDED_FOR="1.2.3.4, 10.0.0.1").status_code == 200
    assert ask(Client(), "r@example.org", HTTP_X_FORWARDED_FOR="5.6.7.8, 10.0.0.1").status_code == 429
    assert ask(Client(), "r@example.org", HTTP_X_FORWARDED_FOR="9.9.9.9").status_code == 200


@pytest.mark.parametrize(
    "typed", ["", "ana", "ana@", "@example.com", "ana example@x.org", "a" * 300 + "@x.org", "ana\x00@x.org"]
)
def test_an_address_that_is_not_one_is_refused_in_words_and_sends_nothing(typed):
    response = ask(Client(), typed)
    assert response.status_code == 400
    assert b"email address" in response.content
    assert not Notification.objects.exists() and not User.objects.exists()


def test_an_address_is_read_one_way_trimmed_and_lowercased():
    assert ask(Client(), "  Ana.Lima@Example.COM \n").status_code == 200
    assert User.objects.filter(email="ana.lima@example.com").exists()


def test_game_emails_link_to_my_games(make_game):
    make_game()
    move = [m for m in django_mail.outbox if m.subject.startswith("Your move")][-1]
    assert "All your games: http://testserver/" in move.body


def test_the_profile_needs_a_sign_in_and_sets_every_game_at_once(make_game):
    make_game()
    assert Client().get("/me/")["Location"].startswith("/sign-in/")
    client = Client()
    client.force_login(User.objects.get(email="ana@example.com"))
    response = client.post(
        "/me/", {"name": "Ana Lima", "email_mode": "digest", "digest_hour": "7", "timezone": "Europe/Lisbon"}
    )
    assert response.status_code == 302
    ana = User.objects.get(email="ana@example.com")
    assert (ana.name, ana.email_mode, ana.digest_hour, ana.timezone) == ("Ana Lima", "digest", 7, "Europe/Lisbon")
    bad = client.post("/me/", {"name": "x", "email_mode": "each", "digest_hour": "25", "timezone": "Mars/Base"})
    assert bad.status_code == 400
    assert User.objects.get(email="ana@example.com").timezone == "Europe/Lisbon"


def test_signing_out_ends_the_session(make_game):
    make_game()
    client = Client()
    client.force_login(User.objects.get(email="ana@example.com"))
    assert client.post("/sign-out/").status_code == 302
    assert signed_in_as(client) is None
