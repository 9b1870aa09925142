"""Push in headless Chromium, as far as it goes here. Real: the manifest, the service worker and its
registration at scope "/", the button's script, its POST with the CSRF token, the worker's push
handler and notifications (the push message handed to the real worker by DevTools'
ServiceWorker.deliverPushMessage, as a push service would after decrypting), the worker's caches.
Stubbed: PushManager.subscribe, which headless Chromium refuses here with an AbortError for want of
a push service (the first test shows the refusal); the stub returns the subscription a browser
would, with keys made by the test."""

from __future__ import annotations

import base64
import json
from urllib.parse import urlsplit

import pytest
from django.test import Client

from games import links
from games.channels import vapid
from games.models import PushDevice
from tests.support.push_service import Browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REGISTRATION = "navigator.serviceWorker.ready.then(r => ({scope: r.scope, script: r.active.scriptURL}))"


@pytest.fixture
def seat_page(browser, live_server, make_game):
    """A context allowed to notify, and the URL of a seat page of a started game."""
    game = make_game()
    seat = game.seats.get(index=0)
    context = browser.new_context()
    context.grant_permissions(["notifications"], origin=live_server.url)
    yield context, f"{live_server.url}/play/{links.token_for(seat)}/", seat
    context.close()


def registered(page) -> dict:
    """Register the worker the way the button does, then wait until it controls the page."""
    page.evaluate("navigator.serviceWorker.register('/sw.js', {scope: '/'})")
    info = page.evaluate(REGISTRATION)
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    return info


def test_the_manifest_and_worker_load_and_the_worker_takes_the_whole_site(seat_page, live_server):
    context, url, _ = seat_page
    page = context.new_page()
    page.goto(url)
    manifest = page.evaluate("fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())")
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    page.click("text=Notify me on this device")
    page.wait_for_function("document.querySelector('[data-push-status]').textContent !== ''")
    # real: with no push service to reach, Chromium refuses to subscribe; the person is told
    assert "would not turn notifications on (AbortError)" in page.text_content("[data-push-status]")
    assert not PushDevice.objects.exists()
    info = page.evaluate(REGISTRATION)
    origin = f"{urlsplit(page.url).scheme}://{urlsplit(page.url).netloc}"
    assert info == {"scope": f"{origin}/", "script": f"{origin}/sw.js"}


STUB = """
(() => {
  const sub = %s;
  let current = null;
  const made = () => ({
    endpoint: sub.endpoint,
    toJSON: () => sub,
    unsubscribe: async () => { current = null; window.__unsubscribed = true; return true; },
  });
  PushManager.prototype.subscribe = async function (options) {
    window.__asked = {userVisibleOnly: options.userVisibleOnly, key: Array.from(new Uint8Array(options.applicationServerKey))};
    current = made();
    return current;
  };
  PushManager.prototype.getSubscription = async function () { return current; };
})();
"""


def test_the_button_posts_the_subscription_and_turns_it_off_again(seat_page):
    context, url, seat = seat_page
    sub = Browser().subscription("https://fcm.googleapis.com/fcm/send/test-device")
    context.add_init_script(STUB % json.dumps(sub))
    page = context.new_page()
    page.goto(url)
    page.click("text=Notify me on this device")
    page.wait_for_selector("text=Turn off on this device", state="visible")
    assert "will now be notified" in page.text_content("[data-push-status]")
    asked = page.evaluate("window.__asked")
    key = vapid.public_key()
    assert asked == {"userVisibleOnly": True, "key": list(base64.urlsafe_b64decode(key + "=" * (-len(key) % 4)))}
    device = PushDevice.objects.get()
    assert device.user_id == seat.player_id and device.endpoint == sub["endpoint"]
    assert "Chrome" in device.label
    page.click("text=Turn off on this device")
    page.wait_for_selector("text=Notify me on this device", state="visible")
    assert page.evaluate("window.__unsubscribed") is True
    assert not PushDevice.objects.exists()


def test_the_worker_shows_a_push_and_keeps_the_link_on_this_site(seat_page):
    context, url, _ = seat_page
    page = context.new_page()
    page.goto(url)
    registered(page)
    cdp = context.new_cdp_session(page)
    seen: list[dict] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: seen.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    for _ in range(50):
        if any(not r["isDeleted"] for r in seen):
            break
        page.wait_for_timeout(100)
    [registration] = [r for r in seen if not r["isDeleted"]]
    origin = registration["scopeURL"].rstrip("/")
    payload = {
        "title": "Your move in Test table",
        "body": "Ana played; your move.",
        "url": "https://elsewhere.example/play/abc/",
        "tag": "wait-1",
    }
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": origin, "registrationId": registration["registrationId"], "data": json.dumps(payload)},
    )
    # polled here: wait_for_function does not await a promise (a promise is truthy at once)
    shown_list: list[dict] = []
    for _ in range(50):
        shown_list = page.evaluate(
            "navigator.serviceWorker.ready.then(r => r.getNotifications())"
            ".then(ns => ns.map(n => ({title: n.title, body: n.body, tag: n.tag, url: n.data.url})))"
        )
        if shown_list:
            break
        page.wait_for_timeout(100)
    [shown] = shown_list
    # a link to another site is never opened: the worker keeps its path, on this site
    assert shown == {**payload, "url": f"{origin}/play/abc/"}


def test_the_worker_keeps_nothing_private(seat_page, live_server):
    context, url, seat = seat_page
    client = Client()
    client.force_login(seat.player)
    page = context.new_page()
    page.goto(url)
    registered(page)
    origin = f"{urlsplit(page.url).scheme}://{urlsplit(page.url).netloc}"
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": origin}])
    for path in (urlsplit(url).path, urlsplit(url).path + "history/", "/me/", "/", "/games/"):
        page.goto(origin + path)
        assert page.evaluate("navigator.serviceWorker.controller !== null"), path
    kept = page.evaluate(
        """caches.keys().then(names => Promise.all(names.map(n => caches.open(n).then(c => c.keys()))))
           .then(lists => lists.flat().map(r => new URL(r.url).pathname))"""
    )
    assert "/offline/" in kept and "/static/site.css" in kept, kept
    assert [p for p in kept if not (p == "/offline/" or p.startswith("/static/"))] == []


def test_a_tap_focuses_the_open_tab_of_the_page_or_opens_it(seat_page):
    """Real: the worker's tap handler (`openSeat`, what notificationclick calls) picks the window.
    Chromium lets a worker open or focus a window only inside a real click on a notification,
    which nothing can make here, so each call ends in Chromium's refusal, and the refusal names
    which of the two the worker chose: focusing the tab already on that page, else opening it."""
    context, url, _ = seat_page
    page = context.new_page()
    page.goto(url)
    page.evaluate("navigator.serviceWorker.register('/sw.js', {scope: '/'})")
    page.evaluate("navigator.serviceWorker.ready")
    [worker] = context.service_workers
    tap = "async (url) => { try { await self.openSeat(url); return 'done'; } catch (e) { return e.message; } }"
    seat_path = urlsplit(url).path
    # another site's link keeps only its path: it is this site's open seat tab, so it is focused
    assert worker.evaluate(tap, f"https://elsewhere.example{seat_path}") == "Not allowed to focus a window."
    assert worker.evaluate(tap, f"{seat_path}history/") == "Not allowed to open a window."
