"""The SSRF guard: no user-given URL reaches a loopback, private, link-local, multicast, reserved or
unspecified address (IPv4, IPv6, IPv4-mapped), by name or by number, nor through a redirect; only
a host the site lists is let through. Short timeouts, bounded reads, secrets never repeated."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from games.channels import safe_http
from games.channels.safe_http import PostFailed, UnsafeURL

FORBIDDEN = [
    "http://10.0.0.1/hook",
    "http://10.255.255.254:8080/hook",
    "http://172.16.0.1/hook",
    "http://172.31.255.1/hook",
    "http://192.168.1.1/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::1]/hook",
    "http://[fe80::1]/hook",
    "http://[ff02::1]/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://[::ffff:10.0.0.1]/hook",
    "http://0.0.0.0/hook",
    "http://[::]/hook",
    "http://224.0.0.1/hook",
    "http://100.64.0.1/hook",
    "http://240.0.0.1/hook",
    "http://localhost/hook",
    "http://2130706433/hook",  # 127.0.0.1 as one number, resolved by the system
    "http://0x7f.1/hook",
]


@pytest.mark.parametrize("url", FORBIDDEN)
def test_a_forbidden_address_is_refused_before_any_connection(url, settings, monkeypatch):
    settings.CHANNEL_ALLOWED_HOSTS = []
    connects = []
    monkeypatch.setattr(socket.socket, "connect", lambda self, addr: connects.append(addr))
    with pytest.raises(UnsafeURL) as refused:
        safe_http.post(url, b"{}", {})
    assert connects == []
    assert "/hook" not in str(refused.value) and "meta-data" not in str(refused.value), "the path is a secret"


def test_loopback_is_refused_unless_listed_and_the_test_server_counts_nothing(hook_server, settings):
    settings.CHANNEL_ALLOWED_HOSTS = []
    with pytest.raises(UnsafeURL):
        safe_http.post(hook_server.url(), b"{}", {})
    port = hook_server.port
    for url in (f"http://localhost:{port}/hook", f"http://[::ffff:127.0.0.1]:{port}/hook", f"http://127.1:{port}/x"):
        settings.CHANNEL_ALLOWED_HOSTS = ["127.0.0.1"]
        with pytest.raises(UnsafeURL):
            safe_http.post(url, b"{}", {})
    assert hook_server.received == []
    settings.CHANNEL_ALLOWED_HOSTS = ["127.0.0.1"]
    assert safe_http.post(hook_server.url(), b"{}", {}).status == 200
    assert len(hook_server.received) == 1


def test_a_name_that_resolves_to_a_private_address_is_refused(settings, monkeypatch):
    """The check is on what the name resolves to, not on how it looks."""
    settings.CHANNEL_ALLOWED_HOSTS = []
    monkeypatch.setattr(
        socket, "getaddrinfo", lambda *a, **k: [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.1.2.3", 80))]
    )
    with pytest.raises(UnsafeURL, match="private, local or reserved"):
        safe_http.check("https://hooks.example.com/services/T/B/secret")


def test_one_private_answer_among_public_ones_is_enough_to_refuse(settings, monkeypatch):
    settings.CHANNEL_ALLOWED_HOSTS = []
    answers = [("93.184.216.34", 443), ("127.0.0.1", 443)]
    monkeypatch.setattr(
        socket, "getaddrinfo", lambda *a, **k: [(socket.AF_INET, socket.SOCK_STREAM, 6, "", x) for x in answers]
    )
    with pytest.raises(UnsafeURL):
        safe_http.check("https://rebinding.example.com/hook")


def test_the_connection_goes_to_the_address_checked_not_a_second_lookup(hook_server, settings, monkeypatch):
    """DNS rebinding: the name is resolved once; a second answer (now private) is never asked for."""
    settings.CHANNEL_ALLOWED_HOSTS = ["hooks.example.test"]
    lookups = []
    real = socket.getaddrinfo

    def resolve(host, port, *a, **k):
        if host != "hooks.example.test":
            return real(host, port, *a, **k)  # an address, as the connection is made to
        lookups.append(host)
        # a second answer would point elsewhere (still on this machine: nothing listens there)
        address = "127.0.0.1" if len(lookups) == 1 else "127.0.0.2"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    answer = safe_http.post(f"http://hooks.example.test:{hook_server.port}/hook", b"{}", {})
    assert answer.status == 200 and lookups == ["hooks.example.test"]
    assert hook_server.received[0].headers["Host"] == f"hooks.example.test:{hook_server.port}"


def test_a_redirect_is_not_followed(hook_server, other_server):
    hook_server.plan = [(302, {"Location": other_server.url("/inside")})]
    answer = safe_http.post(hook_server.url(), b"{}", {})
    assert answer.status == 302
    assert other_server.received == [], "the redirect's target is never asked"


@pytest.mark.parametrize(
    "url, words",
    [
        ("ftp://example.com/x", "Only http:// and https://"),
        ("file:///etc/passwd", "Only http:// and https://"),
        ("gopher://127.0.0.1:25/", "Only http:// and https://"),
        ("https://" + "a" * 600 + ".com/", "longer than"),
        ("https://user:pw@example.com/", "user name or password"),
        ("https:///nohost", "names no host"),
        ("https://exa mple.com/", "no spaces"),
        ("https://example.com:99999/", "not a web address we can read"),
        ("", "Give the webhook's address"),
    ],
)
def test_unreadable_or_odd_urls_are_refused_in_words(url, words):
    with pytest.raises(UnsafeURL, match=words):
        safe_http.check(url)


def test_a_server_that_accepts_and_never_answers_holds_the_worker_for_seconds(hook_server):
    hook_server.hang.set()
    began = time.monotonic()
    with pytest.raises(PostFailed) as failed:
        safe_http.post(hook_server.url("/hook/s3cret"), b"{}", {}, connect=0.5, read=0.5)
    assert time.monotonic() - began < 3
    assert failed.value.timed_out and "s3cret" not in failed.value.reason
    assert failed.value.__cause__ is None and failed.value.__suppress_context__, "no chained error carries the URL"


def test_a_refused_connection_is_a_failure_in_words_without_the_url(settings):
    settings.CHANNEL_ALLOWED_HOSTS = ["127.0.0.1"]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    with pytest.raises(PostFailed) as failed:
        safe_http.post(f"http://127.0.0.1:{port}/hook/s3cret", b"{}", {})
    assert "s3cret" not in failed.value.reason and "127.0.0.1" not in failed.value.reason


def test_the_response_is_read_up_to_a_bound(hook_server):
    hook_server.body = b"x" * (safe_http.MAX_RESPONSE_BYTES * 4)
    answer = safe_http.post(hook_server.url(), b"{}", {})
    assert answer.status == 200 and len(answer.body) == safe_http.MAX_RESPONSE_BYTES


@pytest.mark.parametrize(
    "url, shown",
    [
        ("https://discord.com/api/webhooks/123/abcdefSECRETwxyz", "https://discord.com/…wxyz"),
        ("https://hooks.slack.com/services/T0/B0/zzzz9876", "https://hooks.slack.com/…9876"),
        ("https://ntfy.sh/x", "https://ntfy.sh/…"),
        ("http://[::1", "(unreadable address)"),
    ],
)
def test_a_url_is_shown_masked(url, shown):
    assert safe_http.masked(url) == shown


@pytest.mark.parametrize("where", ["headers", "body"])
def test_a_server_that_drips_its_answer_is_cut_off_at_the_whole_exchanges_deadline(settings, where):
    """One byte every 0.2 s keeps each read inside its 0.5 s timeout for ever; the deadline of the
    whole exchange (connect + read) still ends it, as a temporary failure."""
    settings.CHANNEL_ALLOWED_HOSTS = ["127.0.0.1"]
    stop = threading.Event()
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)

    def drip() -> None:
        conn, _ = server.accept()
        with conn:
            conn.recv(65536)
            head = b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n" if where == "body" else b"HTTP/1.1 200 OK\r\n"
            conn.sendall(head)
            while not stop.is_set():
                try:
                    conn.sendall(b"x" if where == "body" else b"X-A: b\r\n")
                except OSError:
                    return
                stop.wait(0.2)

    threading.Thread(target=drip, daemon=True).start()
    began = time.monotonic()
    try:
        with pytest.raises(PostFailed) as failed:
            safe_http.post(f"http://127.0.0.1:{server.getsockname()[1]}/hook", b"{}", {}, connect=0.5, read=0.5)
    finally:
        stop.set()
        server.close()
    assert 0.9 < time.monotonic() - began < 2.5
    assert failed.value.timed_out
