"""Chat webhooks as people use them: a player's on the profile (/me/), a game's on its host's page,
a seat's per-game off switch; refusals in words that change nothing, and every address masked.
The endpoints fuzzed with hostile forms: never a server error, no row changed on a refusal."""

from __future__ import annotations

import socket

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from accounts.models import User
from games import links
from games.models import ChatHook, Seat
from tests.support import hostile as h
from tests.support.fuzzing import fuzz

pytestmark = pytest.mark.django_db

FORM = "application/x-www-form-urlencoded"


@pytest.fixture
def no_dns(monkeypatch):
    """Every name resolves to this machine (no lookup leaves it): only numeric public addresses pass."""
    real = socket.getaddrinfo

    def resolve(host, port, *a, **k):
        try:
            import ipaddress

            ipaddress.ip_address(str(host).strip("[]"))
            return real(host, port, *a, **k)
        except ValueError:
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port or 80))]

    monkeypatch.setattr(socket, "getaddrinfo", resolve)


@pytest.fixture
def ana(django_user_model, client):
    user = django_user_model.objects.create_user("ana@example.com", None, name="Ana")
    client.force_login(user)
    return user


def test_a_player_adds_a_webhook_and_sees_it_masked(ana, client, settings, no_dns):
    settings.CHANNEL_ALLOWED_HOSTS = ["hooks.example.org"]
    url = "https://hooks.example.org/services/T000/B000/abcdefSECRET1234"
    r = client.post("/me/chat/", {"format": "slack", "url": url}, follow=True)
    assert r.status_code == 200
    page = r.content.decode()
    hook = ChatHook.objects.get(owner=ana)
    assert hook.url == url and hook.enabled
    assert "https://hooks.example.org/…1234" in page and "abcdefSECRET" not in page


@pytest.mark.parametrize(
    "url, words",
    [
        ("http://127.0.0.1:9/hook", "private, local or reserved"),
        ("http://169.254.169.254/latest/", "private, local or reserved"),
        ("http://[::1]/x", "private, local or reserved"),
        ("http://localhost/x", "private, local or reserved"),
        ("ftp://example.org/x", "Only http:// and https://"),
    ],
)
def test_a_refused_address_is_refused_in_words_at_the_form(ana, client, settings, url, words):
    settings.CHANNEL_ALLOWED_HOSTS = []
    r = client.post("/me/chat/", {"format": "discord", "url": url})
    assert r.status_code == 400 and words in r.content.decode()
    assert not ChatHook.objects.exists()


def test_a_telegram_address_needs_its_chat_id(ana, client, settings):
    settings.CHANNEL_ALLOWED_HOSTS = ["8.8.8.8"]
    r = client.post("/me/chat/", {"format": "telegram", "url": "https://8.8.8.8/bot1:A/sendMessage"})
    assert r.status_code == 400 and "chat_id" in r.content.decode() and not ChatHook.objects.exists()


def test_the_test_button_sends_a_test_message(ana, client, hook_server):
    hook = ChatHook.objects.create(owner=ana, format="discord", url=hook_server.url("/api/webhooks/1/s3cret"))
    r = client.post(f"/me/chat/{hook.pk}/", {"do": "test"}, follow=True)
    assert "The test message was sent." in r.content.decode()
    assert hook_server.received[0].json()["content"].startswith("This webhook will be told")


def test_a_test_that_finds_the_webhook_gone_turns_it_off_and_says_why(ana, client, hook_server):
    hook = ChatHook.objects.create(owner=ana, format="slack", url=hook_server.url("/services/s3cret"))
    hook_server.plan = [(404, {})]
    hook_server.body = b"no_service s3cret"
    page = client.post(f"/me/chat/{hook.pk}/", {"do": "test"}, follow=True).content.decode()
    hook.refresh_from_db()
    assert not hook.enabled and "is gone (HTTP 404)" in page and "s3cret" not in page
    client.post(f"/me/chat/{hook.pk}/", {"do": "on"})
    hook.refresh_from_db()
    assert hook.enabled and hook.disabled_reason == ""


def test_another_persons_webhook_is_not_found(ana, client, django_user_model):
    ben = django_user_model.objects.create_user("ben@example.com", None)
    hook = ChatHook.objects.create(owner=ben, format="json", url="https://hooks.example.org/x")
    for do in ("test", "off", "remove"):
        assert client.post(f"/me/chat/{hook.pk}/", {"do": do}).status_code == 404
    assert ChatHook.objects.get(pk=hook.pk).enabled


def test_a_player_removes_a_webhook(ana, client):
    hook = ChatHook.objects.create(owner=ana, format="json", url="https://hooks.example.org/x")
    client.post(f"/me/chat/{hook.pk}/", {"do": "remove"})
    assert not ChatHook.objects.exists()


def test_a_host_adds_the_groups_chat_and_a_spectator_link_is_made(make_game, organiser, client, settings, no_dns):
    settings.CHANNEL_ALLOWED_HOSTS = ["discord.example.org"]
    game = make_game()
    client.force_login(organiser)
    url = "https://discord.example.org/api/webhooks/1/groupSECRETzz99"
    r = client.post(f"/games/{game.pk}/chat/", {"format": "discord", "url": url}, follow=True)
    page = r.content.decode()
    assert ChatHook.objects.get(game=game).url == url
    game.refresh_from_db()
    assert game.watch_nonce, "the group's messages link to the public page"
    assert "https://discord.example.org/…zz99" in page and "groupSECRET" not in page


def test_someone_else_cannot_touch_a_games_chat(make_game, client, django_user_model):
    game = make_game()
    hook = ChatHook.objects.create(game=game, format="json", url="https://hooks.example.org/x")
    client.force_login(django_user_model.objects.create_user("eve@example.com", None))
    assert client.post(f"/games/{game.pk}/chat/", {"format": "json", "url": "https://8.8.8.8/"}).status_code == 403
    assert client.post(f"/games/{game.pk}/chat/{hook.pk}/", {"do": "remove"}).status_code == 403
    assert ChatHook.objects.count() == 1


def test_a_seat_turns_chat_off_for_this_game_only(make_game):
    game = make_game()
    seat = game.seats.get(index=0)
    token = links.token_for(seat)
    c = Client()
    page = c.get(f"/play/{token}/settings/").content.decode()
    assert "Not for this game" in page
    r = c.post(f"/play/{token}/channels/", {"muted": ["chat"]})
    assert r.status_code == 302
    seat.refresh_from_db()
    assert seat.muted_channels == ["chat"]
    assert c.post(f"/play/{token}/channels/", {"muted": ["email"]}).status_code == 400, "email has its own settings"
    seat.refresh_from_db()
    assert seat.muted_channels == ["chat"]


# --- fuzz ------------------------------------------------------------------------------------


def hooks() -> list[tuple]:
    return list(ChatHook.objects.order_by("pk").values_list("pk", "owner_id", "game_id", "format", "url", "enabled"))


FIELDS = st.lists(
    st.tuples(
        st.sampled_from(("format", "url", "do", "muted", "x")),
        st.one_of(
            h.hostile_text(),
            st.sampled_from(("discord", "telegram", "json", "test", "off", "on", "remove", "chat", "push")),
            st.sampled_from(("http://127.0.0.1/x", "https://[::ffff:10.0.0.1]/", "http://0/", "https://8.8.8.8/")),
        ),
    ),
    max_size=6,
)


@fuzz(60)
@given(pairs=FIELDS)
def test_fuzz_the_profile_chat_endpoints(ana_fuzz, pairs):
    user, hook = ana_fuzz
    c = Client()
    c.force_login(user)
    for url in ("/me/chat/", f"/me/chat/{hook.pk}/", "/me/chat/999999/"):
        before = hooks()
        r = c.post(url, h.form_body(pairs), content_type=FORM)
        assert r.status_code in (200, 302, 400, 404)
        after = hooks()
        if r.status_code in (400, 404):
            assert after == before, "a refusal changes nothing"
        if r.status_code == 400:
            assert "errorlist" in r.content.decode(), "told in words"
        if after != before:  # whatever changed was asked for, and an address added was one we may reach
            for row in after:
                if row not in before and row[4] != hook.url:
                    assert row[4].startswith(("http://", "https://")) and "127.0.0.1" not in row[4]
    ChatHook.objects.exclude(pk=hook.pk).delete()
    ChatHook.objects.filter(pk=hook.pk).update(enabled=True, disabled_reason="", last_error="")
    if not ChatHook.objects.filter(pk=hook.pk).exists():
        hook.save()


@pytest.fixture
def ana_fuzz(django_user_model, settings, no_dns):
    settings.CHAT_LOCAL = True
    settings.CHANNEL_ALLOWED_HOSTS = []
    user = django_user_model.objects.create_user("ana@example.com", None, name="Ana")
    hook = ChatHook.objects.create(owner=user, format="json", url="https://hooks.example.org/x")
    return user, hook


@fuzz(40)
@given(pairs=FIELDS)
def test_fuzz_the_host_chat_and_seat_channels(host_fuzz, pairs):
    game, organiser, token = host_fuzz
    c = Client()
    c.force_login(organiser)
    for url in (f"/games/{game.pk}/chat/", f"/games/{game.pk}/chat/424242/", f"/play/{token}/channels/"):
        before = hooks(), list(Seat.objects.values_list("pk", "muted_channels"))
        r = c.post(url, h.form_body(pairs), content_type=FORM)
        assert r.status_code in (200, 302, 400, 404)
        if r.status_code in (400, 404):
            assert (hooks(), list(Seat.objects.values_list("pk", "muted_channels"))) == before
    ChatHook.objects.all().delete()
    Seat.objects.update(muted_channels=[])


@pytest.fixture
def host_fuzz(make_game, organiser, settings, no_dns):
    settings.CHAT_LOCAL = True
    settings.CHANNEL_ALLOWED_HOSTS = []
    game = make_game()
    return game, organiser, links.token_for(game.seats.get(index=0))


def test_the_user_model_is_untouched_by_chat_pages(ana, client):
    """The profile's chat form is separate: posting it never changes the person's other settings."""
    before = list(User.objects.values_list("pk", "email", "name", "timezone", "email_mode"))
    client.post("/me/chat/", {"format": "json", "url": "http://10.0.0.1/", "name": "Eve", "timezone": "Asia/Tokyo"})
    assert list(User.objects.values_list("pk", "email", "name", "timezone", "email_mode")) == before
