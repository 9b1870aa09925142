"""The organisers' pages as read by the server: the log in words, History, the list's columns, the
outbox's framed HTML part and the site icon (the browser checks are in tests/browser/test_admin_pages.py)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from games.actions import organise, play
from games.models import DeliveredMail, Event

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def game_client(client, organiser):
    """An organiser who may see and change games, and nothing said about the log model."""
    organiser.user_permissions.set(Permission.objects.filter(codename__in=["view_game", "change_game"]))
    client.force_login(organiser)
    return client


def hidden_numbers(game):
    play.submit(game.pk, 0, 2, None, via="web")
    play.submit(game.pk, 1, 3, None, via="web")
    game.refresh_from_db()
    return game


def test_the_log_on_the_game_page_says_each_step_in_words_with_the_payload_folded(game_client, make_game, organiser):
    game = hidden_numbers(make_game())
    organise.pause(game, organiser, "a holiday")
    html = game_client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert '<div class="said">ana hid a number.</div>' in html
    assert '<div class="said">Olga paused the game: a holiday</div>' in html
    assert (
        '<details class="payload"><summary>payload</summary><pre>{\n &quot;answer&quot;: 2,\n &quot;lines&quot;: [\n  1,\n  2\n ]\n}</pre></details>'
        in html
    )
    assert "You hid 2" not in html, "a seat's private line stays with the seat"
    assert game.seed not in html and "(hidden)" in html


def test_history_opens_the_games_own_log_in_words(game_client, make_game, organiser):
    game = hidden_numbers(make_game())
    other = hidden_numbers(make_game())
    change = game_client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    log_url = reverse("admin:games_event_changelist") + f"?game__id__exact={game.pk}"
    assert f'href="{log_url}" class="historylink"' in change
    assert reverse("admin:games_game_history", args=[game.pk]) not in change
    r = game_client.get(reverse("admin:games_game_history", args=[game.pk]))
    assert r.status_code == 302 and r["Location"] == log_url, "the old History address leads to the log too"
    log = game_client.get(log_url)
    assert log.status_code == 200, "whoever may see the game may read its log"
    shown = [e.pk for e in log.context["cl"].result_list]
    assert shown == list(Event.objects.filter(game=game).values_list("pk", flat=True))
    html = log.content.decode()
    assert other.pk != game.pk and '<div class="said">ben hid a number.</div>' in html
    assert "The log of Test table" in html and "column-game" not in html, "one game's log needs no game column"
    one = game_client.get(reverse("admin:games_event_change", args=[shown[1]])).content.decode()
    assert '<div class="said">ana hid a number.</div>' in one and "<summary>payload</summary>" in one


def test_history_of_a_game_not_mine_is_not_found(client, make_game, django_user_model):
    game = make_game()
    other = django_user_model.objects.create_user("other@example.com", "pw-other-12345", is_staff=True)
    other.user_permissions.set(Permission.objects.filter(codename__in=["view_game", "change_game"]))
    client.force_login(other)
    assert client.get(reverse("admin:games_game_history", args=[game.pk])).status_code == 404
    for garbled in ["abc", "9" * 40, "-1", "1;2"]:
        assert client.get(f"/admin/games/game/{garbled}/history/").status_code == 404, garbled
    log = client.get(reverse("admin:games_event_changelist") + f"?game__id__exact={game.pk}")
    assert list(log.context["cl"].result_list) == []


def test_the_games_list_has_short_columns(game_client, make_game, organiser):
    make_game()
    html = game_client.get(reverse("admin:games_game_changelist")).content.decode()
    assert "column-version" not in html and "column-organiser" not in html, "an organiser sees only their own games"
    organiser.is_superuser = True
    organiser.save()
    html = game_client.get(reverse("admin:games_game_changelist")).content.decode()
    assert "column-organiser" in html and "column-waiting" in html and "column-next_deadline" in html


def test_the_outbox_may_frame_its_html_part_and_nothing_else_may(client, organiser, make_game, settings):
    settings.MAILERS = {"default": {"BACKEND": "games.mail.LocalMailboxBackend"}}
    make_game()
    mail = DeliveredMail.objects.exclude(body_html="").first()
    client.force_login(organiser)
    page = client.get(reverse("outbox-mail", args=[mail.pk]))
    assert page["X-Frame-Options"] == "DENY", "the outbox page itself is never framed"
    frame = page.content.decode().split('<iframe class="mail-html"')[1].split(">")[0]
    sandbox = frame.split('sandbox="')[1].split('"')[0].split()
    assert "allow-scripts" not in sandbox and "allow-same-origin" not in sandbox
    part = client.get(reverse("outbox-html", args=[mail.pk]))
    assert part["X-Frame-Options"] == "SAMEORIGIN"
    policy = part["Content-Security-Policy"]
    assert "frame-ancestors 'self'" in policy and "default-src 'none'" in policy and "sandbox" in policy
    assert part.content.decode() == mail.body_html


def test_the_site_has_an_icon(game_client):
    client = game_client
    r = client.get("/favicon.ico")
    assert r.status_code == 302 and r["Location"].endswith("/favicon.svg")
    icon = '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
    assert icon in client.get(reverse("home")).content.decode()
    assert icon in client.get(reverse("admin:games_game_changelist")).content.decode()
    client.logout()
    assert icon in client.get(reverse("admin:login")).content.decode()
    from django.contrib.staticfiles import finders

    svg = open(finders.find("favicon.svg"), encoding="utf-8").read()
    assert svg.startswith("<svg") and "<title>Café turns</title>" in svg


def test_the_payload_folded_below_is_the_public_one(game_client, make_game):
    game = make_game()
    created = Event.objects.get(game=game, seq=0)
    html = game_client.get(reverse("admin:games_event_change", args=[created.pk])).content.decode()
    assert game.seed not in html
    shown = json.dumps(created.public_payload(), indent=1, ensure_ascii=False)
    assert shown.replace('"', "&quot;") in html


def test_a_garbled_log_filter_is_answered_without_a_server_error(game_client, make_game):
    make_game()
    for garbled in ["abc", "-1", "0", "9" * 40, "1 OR 1=1", "١", "", "1\x00"]:
        r = game_client.get(reverse("admin:games_event_changelist"), {"game__id__exact": garbled})
        assert r.status_code in (200, 302), garbled
