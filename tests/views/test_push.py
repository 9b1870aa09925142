"""Turning push on and off from a browser (the profile, signed in; a seat page, by its link), the
profile's list of devices, and the installable site's manifest, worker and offline page."""

from __future__ import annotations

import json

import pytest

from games import links
from games.channels import vapid
from games.models import PushDevice
from tests.support.push_service import Browser

pytestmark = pytest.mark.django_db

PHONE = "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0"
ENDPOINT = "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABnsecretpart"


@pytest.fixture
def ana(django_user_model):
    return django_user_model.objects.create_user("ana@example.com", name="Ana")


def post_json(client, url: str, data, **extra):
    return client.post(url, json.dumps(data), content_type="application/json", HTTP_USER_AGENT=PHONE, **extra)


def test_turning_push_on_from_the_profile_keeps_one_row_per_device(client, ana):
    client.force_login(ana)
    browser = Browser()
    first = post_json(client, "/me/push/", browser.subscription(ENDPOINT))
    assert first.status_code == 201 and "Firefox on Android" in first.json()["message"]
    # the same browser again (new keys after a reinstall, say): the row is updated, not doubled
    again = Browser()
    second = post_json(client, "/me/push/", again.subscription(ENDPOINT))
    assert second.status_code == 200
    [device] = PushDevice.objects.all()
    assert device.user == ana and device.label == "Firefox on Android"
    assert device.p256dh == again.subscription(ENDPOINT)["keys"]["p256dh"]


def test_subscribing_again_turns_a_device_the_service_had_turned_off_back_on(client, ana):
    client.force_login(ana)
    post_json(client, "/me/push/", Browser().subscription(ENDPOINT))
    PushDevice.objects.update(disabled_reason="gone (410)", disabled_at="2026-11-01T00:00Z")
    post_json(client, "/me/push/", Browser().subscription(ENDPOINT))
    device = PushDevice.objects.get()
    assert device.disabled_at is None and device.disabled_reason == ""


def test_turning_it_off_on_this_device_forgets_the_subscription(client, ana):
    client.force_login(ana)
    sub = Browser().subscription(ENDPOINT)
    post_json(client, "/me/push/", sub)
    off = post_json(client, "/me/push/off/", sub)
    assert off.status_code == 200 and "no longer" in off.json()["message"]
    assert not PushDevice.objects.exists()
    again = post_json(client, "/me/push/off/", sub)
    assert again.status_code == 200 and "nothing was changed" in again.json()["message"]


def test_a_bad_subscription_is_refused_in_words_and_nothing_is_stored(client, ana):
    client.force_login(ana)
    good = Browser().subscription(ENDPOINT)
    for bad, said in [
        ({**good, "endpoint": "http://push.example.com/x"}, "https"),
        ({**good, "endpoint": "https://127.0.0.1/x"}, "not on this machine"),
        ({**good, "endpoint": "https://10.1.2.3/x"}, "not on this machine"),
        ({**good, "endpoint": "https://[::1]/x"}, "not on this machine"),
        ({**good, "endpoint": "https://169.254.169.254/latest"}, "not on this machine"),
        ({**good, "endpoint": "https://localhost/x"}, "not on this machine"),
        ({**good, "endpoint": "https://user:pw@push.example.com/x"}, "names a host"),
        ({**good, "endpoint": "https://push.example.com/" + "x" * 1000}, "at most"),
        ({**good, "keys": {"p256dh": good["keys"]["p256dh"][:-4], "auth": good["keys"]["auth"]}}, "65 bytes"),
        ({**good, "keys": {"p256dh": good["keys"]["p256dh"], "auth": "AAAA"}}, "16 bytes"),
        ({**good, "keys": {"p256dh": "not base64!", "auth": good["keys"]["auth"]}}, "base64url"),
        ({"endpoint": ENDPOINT}, "needs an endpoint and keys"),
        ([1, 2], "not a push subscription"),
    ]:
        response = post_json(client, "/me/push/", bad)
        assert response.status_code == 400, bad
        assert said in response.json()["message"] and "Nothing was saved" in response.json()["message"]
    response = client.post("/me/push/", b"\xff\xfe{", content_type="application/json")
    assert response.status_code == 400 and "not JSON" in response.json()["message"]
    assert not PushDevice.objects.exists()


def test_push_is_turned_on_only_by_a_signed_in_person_with_the_sites_csrf_token(client, ana):
    from django.test import Client

    sub = Browser().subscription(ENDPOINT)
    assert post_json(client, "/me/push/", sub).status_code == 302  # to sign in
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(ana)
    assert post_json(strict, "/me/push/", sub).status_code == 403  # no CSRF token
    page = strict.get("/me/")
    token = page.cookies["csrftoken"].value
    assert post_json(strict, "/me/push/", sub, HTTP_X_CSRFTOKEN=token).status_code == 201
    assert strict.get("/me/push/").status_code == 405


def test_the_profile_lists_the_devices_and_removes_one(client, ana, django_user_model):
    client.force_login(ana)
    post_json(client, "/me/push/", Browser().subscription(ENDPOINT))
    device = PushDevice.objects.get()
    page = client.get("/me/").content.decode()
    assert "Notify me on this device" in page and "Firefox on Android" in page and "not notified yet" in page
    assert vapid.public_key() in page
    assert "gAAAAABnsecretpart" not in page, "an endpoint is the device's secret"
    # another person's device cannot be removed by guessing its number
    ben = django_user_model.objects.create_user("ben@example.com", name="Ben")
    client.force_login(ben)
    refused = client.post(f"/me/push/{device.pk}/remove/", follow=True)
    assert "no such device" in refused.content.decode()
    assert PushDevice.objects.filter(pk=device.pk).exists()
    client.force_login(ana)
    removed = client.post(f"/me/push/{device.pk}/remove/", follow=True)
    assert "no longer be notified" in removed.content.decode()
    assert not PushDevice.objects.exists()


def test_a_seat_page_offers_push_and_its_link_subscribes_the_seats_player(client, make_game):
    game = make_game()
    seat = game.seats.get(index=0)
    token = links.token_for(seat)
    page = client.get(f"/play/{token}/").content.decode()
    assert "Notify me on this device" in page and f"/play/{token}/push/" in page
    sub = Browser().subscription(ENDPOINT)
    response = post_json(client, f"/play/{token}/push/", sub)
    assert response.status_code == 201
    assert PushDevice.objects.get().user == seat.player
    assert post_json(client, f"/play/{token}/push/off/", sub).status_code == 200
    assert not PushDevice.objects.exists()
    forged = post_json(client, f"/play/{token[:-3]}xyz/push/", sub)
    assert forged.status_code == 403 and not PushDevice.objects.exists()


def test_the_site_is_installable(client):
    manifest = client.get("/manifest.webmanifest")
    assert manifest["Content-Type"] == "application/manifest+json"
    data = manifest.json()
    assert data["start_url"] == "/" and data["display"] == "standalone" and data["theme_color"]
    sizes = {(i["sizes"], i["purpose"]) for i in data["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in data["icons"]:
        assert client.get(icon["src"]).status_code == 200, icon["src"]
    assert '<link rel="manifest" href="/manifest.webmanifest">' in client.get("/games/").content.decode()


def test_the_worker_is_served_for_the_whole_site_and_the_offline_page_is_anyones(client, ana):
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker["Content-Type"].startswith("text/javascript")
    assert worker["Service-Worker-Allowed"] == "/"
    assert "no-cache" in worker["Cache-Control"]
    client.force_login(ana)
    offline = client.get("/offline/").content.decode()
    assert "You are offline" in offline and "ana@example.com" not in offline and "csrf" not in offline
