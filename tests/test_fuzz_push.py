"""Issue 25's push endpoints under the fuzz of issue 12: turning push on and off from the profile
and from a seat's link, and the profile's Remove. Never a server error; a refusal says why in
words; a refused post stores nothing, and an accepted one stores exactly what a browser sent."""

from __future__ import annotations

import base64
import json
from urllib.parse import quote

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from games import links
from games.models import PushDevice
from tests.support import hostile as h
from tests.support.push_service import Browser
from tests.test_fuzz_endpoints import Findings, Poster, fuzz, pick_token, seat_url, token_choice

pytestmark = pytest.mark.django_db(transaction=True)

GOOD = Browser().subscription("https://push.example.com/wpush/v2/abc")


def devices() -> list[tuple]:
    return list(PushDevice.objects.order_by("pk").values_list("pk", "user_id", "endpoint", "p256dh", "auth"))


def subscription_body() -> st.SearchStrategy[bytes]:
    """Mostly a subscription with one part made hostile; sometimes no JSON at all."""
    text = st.one_of(h.hostile_text(80), st.sampled_from(list(GOOD["keys"].values())))
    endpoint = st.one_of(
        st.just(GOOD["endpoint"]),
        h.hostile_text(80),
        h.hostile_text(40).map(lambda t: "https://push.example.com/" + t),
        st.sampled_from(
            [
                "https://127.0.0.1/p",
                "https://[::ffff:10.0.0.1]/p",
                "https://169.254.169.254/p",
                "http://push.example.com/p",
                "https://push.example.com:99999/p",
                "https://push.example.com/" + "x" * 2000,
                "https://exa mple.com/",
                "https:///p",
            ]
        ),
    )
    keys = st.one_of(
        st.just(GOOD["keys"]),
        st.fixed_dictionaries({"p256dh": text, "auth": text}),
        st.binary(min_size=1, max_size=80).map(
            lambda b: {"p256dh": base64.urlsafe_b64encode(b).decode(), "auth": GOOD["keys"]["auth"]}
        ),
        st.none(),
        h.hostile_text(20),
    )
    doc = st.fixed_dictionaries({"endpoint": endpoint, "keys": keys}, optional={"expirationTime": h.hostile_number()})
    return st.one_of(
        doc.map(lambda d: json.dumps(d).encode("utf-8", "surrogatepass")),
        doc.map(lambda d: json.dumps(d, ensure_ascii=False).encode("utf-8", "surrogatepass")),
        st.binary(max_size=600),
        h.hostile_text(200).map(lambda t: t.encode("utf-8", "surrogatepass")),
    )


def check(findings: Findings, response, before: list, repro: str, user_id: int) -> None:
    after = devices()
    if response.status_code >= 400:
        message = response.json().get("message", "") if response["Content-Type"] == "application/json" else ""
        if response["Content-Type"] == "application/json" and not h.in_words(message):
            findings.add("push", "a refusal not in words", repro, message[:200])
        if after != before:
            findings.add("push", "a refused post changed the devices", repro)
        return
    changed = [row for row in after if row not in before]
    if response.status_code in (200, 201) and response.json().get("ok"):
        for _pk, owner, endpoint, p256dh, auth in changed:
            if owner != user_id or not endpoint.startswith("https://push.example.com/"):
                findings.add("push", "stored a device it should not have", repro, endpoint[:80])
            if len(base64.urlsafe_b64decode(p256dh + "==")) != 65 or len(base64.urlsafe_b64decode(auth + "==")) != 16:
                findings.add("push", "stored keys of the wrong size", repro)
        PushDevice.objects.filter(pk__in=[row[0] for row in changed]).delete()


@fuzz(150)
@given(body=subscription_body(), which=st.sampled_from(["/me/push/", "/me/push/off/"]))
def test_fuzz_the_profile_push_endpoints(django_user_model, body, which):
    findings = Findings()
    ana, _ = django_user_model.objects.get_or_create(email="ana@example.com", defaults={"name": "Ana"})
    client = Client()
    client.force_login(ana)
    poster = Poster(findings, which, client)
    before = devices()
    repro = f"POST {which} {body[:200]!r}"
    response = poster.raw(which, body, "application/json", repro)
    check(findings, response, before, repro, ana.pk)
    findings.check()


@fuzz(60)
@given(body=subscription_body(), plan=token_choice(), off=st.booleans())
def test_fuzz_the_seat_push_endpoints(make_game, body, plan, off):
    findings = Findings()
    game = make_game()
    seats = list(game.seats.order_by("index"))
    genuine = links.token_for(seats[0])
    token, how = pick_token(plan, genuine, [links.token_for(s) for s in seats[1:]])
    url = seat_url(token, "push/off/" if off else "push/")
    before = devices()
    response = Poster(findings, "seat push").raw(url, body, "application/json", f"POST {url} {body[:200]!r}")
    if how == "garbled" and response.status_code < 400:
        findings.add("seat push", "a garbled link was taken", f"POST {url}")
    owner = next((s.player_id for s in seats if links.token_for(s) == token), seats[0].player_id)
    check(findings, response, before, f"POST {url} {body[:200]!r}", owner)
    findings.check()


@fuzz(60)
@given(pk=st.one_of(st.integers(-5, 10**40).map(str), h.hostile_text(20)))
def test_fuzz_the_profile_remove_button(django_user_model, pk):
    findings = Findings()
    ana, _ = django_user_model.objects.get_or_create(email="ana@example.com", defaults={"name": "Ana"})
    ben, _ = django_user_model.objects.get_or_create(email="ben@example.com", defaults={"name": "Ben"})
    if not PushDevice.objects.filter(user=ben).exists():
        PushDevice.objects.create(user=ben, endpoint=GOOD["endpoint"], p256dh=GOOD["keys"]["p256dh"], auth="x")
    client = Client()
    client.force_login(ana)
    before = devices()
    url = f"/me/push/{quote(pk.encode('utf-8', 'surrogatepass'), safe='')}/remove/"
    response = Poster(findings, "push remove", client).form(url, [], url)
    if devices() != before:
        findings.add("push remove", "another person's device was removed", url)
    assert response.status_code in (302, 404), response.status_code
    findings.check()
