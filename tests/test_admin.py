"""The organisers' admin: lists, the read-only log, the outbox with errors."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Event, Notification

pytestmark = pytest.mark.django_db(transaction=True)


def test_admin_lists_games_with_who_is_to_move(client, organiser, make_game):
    organiser.is_superuser = True
    organiser.save()
    make_game()
    client.force_login(organiser)
    html = client.get(reverse("admin:games_game_changelist")).content.decode()
    assert "Test table" in html and "ana, ben" in html


def test_the_event_log_is_read_only_and_hides_the_seed(client, organiser, make_game):
    organiser.is_superuser = True
    organiser.save()
    game = make_game()
    client.force_login(organiser)
    event = Event.objects.get(game=game, seq=0)
    html = client.get(reverse("admin:games_event_change", args=[event.pk])).content.decode()
    assert game.seed not in html and "(hidden)" in html
    r = client.post(reverse("admin:games_event_delete", args=[event.pk]), {"post": "yes"})
    assert r.status_code == 403 and Event.objects.filter(pk=event.pk).exists()


def test_notifications_show_status_and_error(client, organiser, make_game):
    organiser.is_superuser = True
    organiser.save()
    make_game()
    Notification.objects.filter(kind="invite").update(status="failed", last_error="SMTPServerDisconnected: gone")
    client.force_login(organiser)
    html = client.get(reverse("admin:games_notification_changelist")).content.decode()
    assert "SMTPServerDisconnected" in html and "Failed (will retry)" in html


def test_an_organiser_sees_only_their_own_games(client, django_user_model, make_game):
    make_game()
    other = django_user_model.objects.create_user("other@example.com", "pw-other-12345", is_staff=True)
    from django.contrib.auth.models import Permission

    other.user_permissions.set(Permission.objects.filter(codename__in=["view_game", "change_game"]))
    client.force_login(other)
    html = client.get(reverse("admin:games_game_changelist")).content.decode()
    assert "Test table" not in html
