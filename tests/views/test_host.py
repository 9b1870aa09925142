"""Start a game with friends (issue 14): anyone signed in hosts games, and manages only their own."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Event, Game, Seat

pytestmark = pytest.mark.django_db(transaction=True)


def signed_in(email: str) -> Client:
    client = Client()
    client.force_login(User.objects.for_email(email))
    return client


def hosted_game(client: Client, title: str = "pebbles") -> Game:
    response = client.post(
        reverse("game-new"),
        {"title": title, "name": "Friday table", "seats": "host@example.org\nfriend@example.org"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    return Game.objects.get(name="Friday table")


def test_a_signed_in_player_creates_and_starts_a_game_and_hosts_it():
    host = signed_in("host@example.org")
    game = hosted_game(host)
    assert game.organiser.email == "host@example.org" and not game.organiser.is_staff
    assert host.post(reverse("game-start", args=[game.pk])).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    page = host.get(reverse("game-detail", args=[game.pk])).content.decode()
    assert "Manage" in page and "Pause (every clock stops)" in page
    assert "friend@example.org" in page, "the host sees the addresses they invited"
    home = host.get("/").content.decode()
    assert "Games I host" in home and "Friday table" in home


def test_nobody_else_sees_or_manages_a_hosted_game():
    game = hosted_game(signed_in("host@example.org"))
    stranger = signed_in("stranger@example.org")
    assert stranger.get(reverse("game-detail", args=[game.pk])).status_code == 403
    assert stranger.post(reverse("game-start", args=[game.pk])).status_code == 403
    assert stranger.post(reverse("game-act", args=[game.pk, "end"]), {"reason": "mine now"}).status_code == 403
    assert Client().get(reverse("game-detail", args=[game.pk]))["Location"].startswith("/sign-in/")
    game.refresh_from_db()
    assert game.status == Game.Status.DRAFT


def test_the_host_pauses_resumes_extends_replaces_and_ends_with_a_reason_in_the_log():
    host = signed_in("host@example.org")
    game = hosted_game(host)
    host.post(reverse("game-start", args=[game.pk]))

    def act(slug: str, **data) -> None:
        response = host.post(reverse("game-act", args=[game.pk, slug]), data)
        assert response.status_code == 302, response.content.decode()[:1500]

    act("pause", reason="a holiday")
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED
    act("resume", reason="back")
    act("replace", seat="1", email="newcomer@example.org", reason="friend left")
    assert Seat.objects.get(game=game, index=1).player.email == "newcomer@example.org"
    act("end", reason="we stop here")
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED
    logged = list(Event.objects.filter(game=game, kind=Event.Kind.ADMIN).values_list("payload", "actor__email"))
    assert [(p["action"], p.get("reason")) for p, _ in logged] == [
        ("pause", "a holiday"),
        ("resume", "back"),
        ("replace_player", "friend left"),
        ("end", "we stop here"),
    ]
    assert {who for _, who in logged} == {"host@example.org"}


def test_a_host_action_without_a_reason_or_on_an_ended_game_changes_nothing():
    host = signed_in("host@example.org")
    game = hosted_game(host)
    host.post(reverse("game-start", args=[game.pk]))
    before = Event.objects.filter(game=game).count()
    response = host.post(reverse("game-act", args=[game.pk, "pause"]), {"reason": "   "})
    assert response.status_code == 400 and "required" in response.content.decode().lower()
    host.post(reverse("game-act", args=[game.pk, "end"]), {"reason": "over"})
    after_end = Event.objects.filter(game=game).count()
    response = host.post(reverse("game-act", args=[game.pk, "end"]), {"reason": "again"}, follow=True)
    assert "over already" in response.content.decode()
    assert Event.objects.filter(game=game).count() == after_end > before
    assert host.get(reverse("game-act", args=[game.pk, "no-such-thing"])).status_code == 404


def test_the_host_is_told_when_an_invited_address_turned_all_email_off():
    host = signed_in("host@example.org")
    game = hosted_game(host)
    User.objects.filter(email="friend@example.org").update(unsubscribed=True)
    page = host.get(reverse("game-detail", args=[game.pk])).content.decode()
    assert "gets no email" in page
    response = host.post(reverse("game-start", args=[game.pk]), follow=True).content.decode()
    assert "turned all email off" in response and "not invited" in response
    from games.models import Notification

    assert not Notification.objects.filter(recipient="friend@example.org", kind="invite").exists()


def test_the_host_never_sees_the_address_of_someone_who_joined_by_the_link():
    from games import links
    from games.actions import joining

    host = signed_in("host@example.org")
    response = host.post(reverse("game-new"), {"title": "pebbles", "name": "Open", "seats": "host@example.org\nopen"})
    assert response.status_code == 302
    game = Game.objects.get(name="Open")
    data = links.read_confirm_token(links.confirm_token(game, "secret.joiner@example.org", "Jo"))
    joining.claim_seat(data, User.objects.for_email("secret.joiner@example.org"))
    page = host.get(reverse("game-detail", args=[game.pk])).content.decode()
    assert "Jo" in page and "secret.joiner@example.org" not in page and "joined by the link" in page


def test_the_hosts_links_are_whole_with_a_copy_button_their_actions_are_buttons_and_my_seat_is_a_click_away():
    from games import links

    host = signed_in("host@example.org")
    response = host.post(
        reverse("game-new"), {"title": "pebbles", "name": "Friday table", "seats": "host@example.org\nopen"}
    )
    game = Game.objects.get(name="Friday table")
    assert response.status_code == 302
    host.post(reverse("game-join-link", args=[game.pk]), {"do": "new"})
    host.post(reverse("game-watch-link", args=[game.pk]), {"do": "new"})
    game.refresh_from_db()
    page = host.get(reverse("game-detail", args=[game.pk])).content.decode()
    for name, url in (("join", links.join_url(game)), ("watch", links.watch_url(game))):
        assert f'<input id="{name}-link" class="share-url" readonly value="{url}"' in page
        assert f'<button type="button" class="button copy" data-copy="{name}-link" hidden>Copy</button>' in page
    assert page.count('<button class="button secondary" name="do" value="revoke">Revoke the link</button>') == 2
    assert page.count('class="button secondary" name="do" value="new">Make a new link') == 2
    assert "copy.js" in page
    mine = Seat.objects.get(game=game, player__email="host@example.org")
    assert f'href="{reverse("seat", args=[links.token_for(mine)])}">Go to my seat</a>' in page
    # a host who does not play has no seat to go to
    other = signed_in("other@example.org")
    other.post(reverse("game-new"), {"title": "pebbles", "name": "Not mine", "seats": "a@example.org\nb@example.org"})
    hosted = Game.objects.get(name="Not mine")
    assert "Go to my seat" not in other.get(reverse("game-detail", args=[hosted.pk])).content.decode()
