"""The one reader of a posted push subscription, and the check of where a push may go."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.channels.push_input import Refused, device_label, endpoint_problem, read_subscription
from tests.support import hostile as h
from tests.support.fuzzing import fuzz
from tests.support.push_service import Browser

GOOD = Browser().subscription("https://fcm.googleapis.com/fcm/send/abc:APA91bH")


def test_a_browsers_subscription_is_read_with_its_keys_normalised():
    padded = {**GOOD, "keys": {k: v + "=" * (-len(v) % 4) for k, v in GOOD["keys"].items()}}
    sub = read_subscription(json.dumps(padded).encode())
    assert sub.endpoint == GOOD["endpoint"]
    assert sub.p256dh == GOOD["keys"]["p256dh"] and sub.auth == GOOD["keys"]["auth"]


@pytest.mark.parametrize(
    "url",
    [
        "https://127.0.0.1/x",
        "https://127.1.2.3:8443/x",
        "https://10.0.0.1/x",
        "https://172.16.5.4/x",
        "https://192.168.1.1/x",
        "https://169.254.169.254/x",
        "https://[::1]/x",
        "https://[fe80::1]/x",
        "https://[::ffff:127.0.0.1]/x",
        "https://[fd00::1]/x",
        "https://224.0.0.1/x",
        "https://0.0.0.0/x",
        "https://localhost/x",
        "https://db.internal/x",
        "https://printer.local/x",
        "https://intranet/x",
    ],
)
def test_an_endpoint_on_this_machine_or_its_network_is_refused(url):
    assert "not on this machine" in endpoint_problem(url, resolve=False)


def test_a_name_that_resolves_to_this_machine_is_refused_when_sending(monkeypatch):
    import socket

    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: [(2, 1, 6, "", ("127.0.0.1", 443))])
    assert endpoint_problem("https://push.example.com/x", resolve=False) is None
    assert "not on this machine" in endpoint_problem("https://push.example.com/x", resolve=True)


def test_only_a_listed_host_may_be_local_and_plain_http():
    assert endpoint_problem("http://127.0.0.1:8001/push/x", ["127.0.0.1"]) is None
    assert "https" in endpoint_problem("http://127.0.0.1:8001/push/x")
    assert "https" in endpoint_problem("ftp://127.0.0.1/x", ["127.0.0.1"])
    assert "https" in endpoint_problem("http://push.example.com/x", ["127.0.0.1"])


def test_device_labels_name_the_browser_and_system():
    assert device_label("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36") == (
        "Chrome on Linux"
    )
    assert device_label("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Version/17.0 Safari/604.1") == (
        "Safari on iPhone"
    )
    assert device_label("Mozilla/5.0 (Windows NT 10.0) Chrome/131.0 Safari/537.36 Edg/131.0") == "Edge on Windows"
    assert device_label("") == "A browser"
    assert len(device_label("Firefox/" * 10_000)) <= 60


def hostile_subscription() -> st.SearchStrategy:
    text = h.hostile_text(120)
    key = st.one_of(text, st.sampled_from(list(GOOD["keys"].values())), st.binary(max_size=80).map(lambda b: b.hex()))
    endpoint = st.one_of(
        text,
        st.sampled_from(["https://127.0.0.1/x", "https://[::1]/", "javascript:alert(1)", "https://", "https://a..b/"]),
        text.map(lambda t: "https://push.example.com/" + t),
    )
    keys = st.one_of(st.fixed_dictionaries({"p256dh": key, "auth": key}), text, st.none(), st.integers())
    doc = st.one_of(st.fixed_dictionaries({"endpoint": endpoint, "keys": keys}), text, st.lists(text), st.integers())
    return st.one_of(
        doc.map(lambda d: json.dumps(d).encode("utf-8", "surrogatepass")),
        st.binary(max_size=5000),
        text.map(lambda t: t.encode("utf-8", "surrogatepass")),
    )


@fuzz(400)
@given(body=hostile_subscription())
def test_whatever_is_posted_the_reader_takes_a_true_subscription_or_says_why(body):
    try:
        sub = read_subscription(body)
    except Refused as e:
        assert h.in_words(str(e)), str(e)
        return
    assert sub.endpoint.startswith("https://") and len(sub.endpoint) <= 1000
    assert endpoint_problem(sub.endpoint, resolve=False) is None
