"""Web push for real: a push service on 127.0.0.1 (plain http, allowed by PUSH_LOCAL_HOSTS for that
host alone) receives each ping, checks its VAPID signature and decrypts its payload with the keys
the test made as a browser does; its answer decides what happens to the device."""

from __future__ import annotations

import ipaddress
import json
import logging
import time

import pytest

from games.channels import vapid
from games.channels.base import ChannelError, Ping
from games.channels.push import PushChannel, topic_of
from games.models import PushDevice
from tests.support.push_service import Browser, PushService, vapid_claims

pytestmark = pytest.mark.django_db

PING = Ping(
    title="Your move in Test table",
    body="Ana played a card; it is your move. Answer by Sat 28 Nov, 18:00.",
    url="http://testserver/play/abc123/",
    game_name="Test table",
    whose_move="Ben",
    deadline="Sat 28 Nov, 18:00 (Europe/Paris)",
    tag="wait-7-1-2026-11-27T07:00",
)


@pytest.fixture
def ben(django_user_model):
    return django_user_model.objects.create_user("ben@example.com", name="Ben")


def device_of(user, service: PushService, browser: Browser | None = None) -> tuple[PushDevice, Browser]:
    browser = browser or Browser()
    sub = browser.subscription(service.endpoint())
    device = PushDevice.objects.create(
        user=user,
        endpoint=sub["endpoint"],
        p256dh=sub["keys"]["p256dh"],
        auth=sub["keys"]["auth"],
        label="Firefox on Android",
    )
    return device, browser


def test_a_ping_arrives_signed_by_the_service_and_readable_only_with_the_browsers_keys(service, ben, settings):
    device, browser = device_of(ben, service)
    PushChannel().send_ping(PING, device, "note-1")

    [got] = service.received
    claims = vapid_claims(got.headers["authorization"], vapid.public_key())
    assert claims["aud"] == service.origin
    assert claims["sub"] == settings.VAPID_SUBJECT
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    assert got.headers["content-encoding"] == "aes128gcm"
    assert got.headers["ttl"] == str(settings.PUSH_TTL_SECONDS)
    assert got.headers["urgency"] == "high"
    assert got.headers["topic"] == topic_of(PING.tag)
    assert PING.body.encode() not in got.body, "the payload travels encrypted"
    shown = json.loads(browser.decrypt(got.body))
    assert shown["title"] == PING.title
    assert shown["body"] == PING.body
    assert shown["url"] == PING.url
    assert shown["tag"] == PING.tag
    assert shown["icon"].endswith("/static/icons/icon-192.png")
    device.refresh_from_db()
    assert device.last_used_at is not None and device.disabled_at is None


def test_another_browsers_keys_cannot_read_the_ping(service, ben):
    device, _ = device_of(ben, service)
    PushChannel().send_ping(PING, device, "note-1")
    with pytest.raises(Exception):  # noqa: B017 - AES-GCM's InvalidTag: the tag does not match
        Browser().decrypt(service.received[0].body)


def test_a_later_ping_of_the_same_wait_has_the_same_topic_so_it_replaces_the_earlier(service, ben):
    device, _ = device_of(ben, service)
    PushChannel().send_ping(PING, device, "note-1")
    PushChannel().send_ping(
        Ping(title="Reminder", body="Still your move", url=PING.url, tag=PING.tag), device, "note-2"
    )
    PushChannel().send_ping(
        Ping(title="Next wait", body="Your move again", url=PING.url, tag="wait-7-1-later"), device, "n3"
    )
    topics = [r.headers["topic"] for r in service.received]
    assert topics[0] == topics[1] != topics[2]
    assert all(len(t) <= 32 and t.replace("-", "").replace("_", "").isalnum() for t in topics)


@pytest.mark.parametrize("status", [404, 410])
def test_a_gone_subscription_turns_the_device_off_and_the_profile_says_so(service, ben, client, status):
    device, _ = device_of(ben, service)
    service.status = status
    with pytest.raises(ChannelError) as refused:
        PushChannel().send_ping(PING, device, "note-1")
    assert refused.value.permanent
    device.refresh_from_db()
    assert device.disabled_at is not None and f"({status})" in device.disabled_reason
    assert PushChannel().targets_for(ben) == []
    client.force_login(ben)
    page = client.get("/me/").content.decode()
    assert "Turned off" in page and "the subscription is gone" in page
    assert device.endpoint not in page


@pytest.mark.parametrize("status", [400, 413])
def test_a_message_the_service_will_never_take_is_given_up_but_the_device_kept(service, ben, status):
    device, _ = device_of(ben, service)
    service.status = status
    with pytest.raises(ChannelError) as refused:
        PushChannel().send_ping(PING, device, "note-1")
    assert refused.value.permanent
    device.refresh_from_db()
    assert device.disabled_at is None


@pytest.mark.parametrize("status", [429, 500, 502, 503])
def test_a_busy_or_broken_push_service_is_tried_again_later(service, ben, status):
    device, _ = device_of(ben, service)
    service.status = status
    with pytest.raises(ChannelError) as failed:
        PushChannel().send_ping(PING, device, "note-1")
    assert not failed.value.permanent
    device.refresh_from_db()
    assert device.disabled_at is None


def test_a_push_service_that_does_not_answer_in_time_is_tried_again_later(service, ben, settings):
    settings.PUSH_TIMEOUT_SECONDS = 0.3
    service.delay = 1.0
    device, _ = device_of(ben, service)
    started = time.monotonic()
    with pytest.raises(ChannelError) as failed:
        PushChannel().send_ping(PING, device, "note-1")
    assert time.monotonic() - started < 0.9
    assert not failed.value.permanent and failed.value.unreachable


def test_a_redirect_is_never_followed(service, ben):
    device, _ = device_of(ben, service)
    service.status, service.location = 307, f"{service.origin}/elsewhere"
    with pytest.raises(ChannelError) as refused:
        PushChannel().send_ping(PING, device, "note-1")
    assert refused.value.permanent
    assert [r.path for r in service.received] == [device.endpoint.removeprefix(service.origin)]


def test_an_endpoint_on_this_machine_is_never_posted_to_unless_the_site_lists_its_host(service, ben, settings):
    device, _ = device_of(ben, service)
    settings.PUSH_LOCAL_HOSTS = []
    with pytest.raises(ChannelError) as refused:
        PushChannel().send_ping(PING, device, "note-1")
    assert refused.value.permanent
    assert service.received == []
    device.refresh_from_db()
    assert device.disabled_at is not None


def test_no_log_line_shows_the_endpoint_or_the_keys(service, ben, caplog):
    device, _ = device_of(ben, service)
    caplog.set_level(logging.DEBUG)
    PushChannel().send_ping(PING, device, "note-1")
    service.status = 410
    with pytest.raises(ChannelError) as refused:
        PushChannel().send_ping(PING, device, "note-2")
    secret = device.endpoint.rsplit("/", 1)[1]
    said = caplog.text + refused.value.reason
    assert "push note-1 handed to 127.0.0.1" in caplog.text
    for part in (secret, device.p256dh, device.auth):
        assert part not in said


def test_targets_are_the_persons_working_devices_only(service, ben, django_user_model):
    ana = django_user_model.objects.create_user("ana@example.com", name="Ana")
    working, _ = device_of(ben, service)
    off, _ = device_of(ben, service)
    device_of(ana, service)
    PushChannel().turn_off(off, "gone")
    channel = PushChannel()
    assert channel.targets_for(ben) == [working]
    assert channel.target(working.pk) == working
    assert channel.target(10**9) is None
    assert channel.kind == "push"


def test_the_push_goes_to_the_address_that_was_checked_not_to_a_fresh_lookup(service, ben, settings, monkeypatch):
    """DNS rebinding: a name checked as public, then resolved again to this network, must not be
    followed. The sender connects to the checked address itself and names the host in Host (and
    for TLS); here the name (under .test, which never resolves) is never looked up at all."""
    import socket

    from games.channels import push

    settings.PUSH_LOCAL_HOSTS = []
    port = service.server.server_address[1]
    device, browser = device_of(ben, service)
    device.endpoint = f"http://push.example.test:{port}/push/abc"
    device.save()
    ip = ipaddress.ip_address("127.0.0.1")
    monkeypatch.setattr(push, "check_endpoint", lambda url, hosts, resolve: (None, [ip]))

    real = socket.getaddrinfo

    def no_lookup(host, *args, **kwargs):
        assert host == "127.0.0.1", f"looked up {host} again"
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", no_lookup)
    PushChannel().send_ping(PING, device, "note-1")
    [got] = service.received
    assert got.path == "/push/abc" and got.headers["host"] == f"push.example.test:{port}"
    assert vapid_claims(got.headers["authorization"], vapid.public_key())["aud"] == f"http://push.example.test:{port}"
    assert json.loads(browser.decrypt(got.body))["title"] == PING.title


def test_pinned_urls_keep_the_port_and_bracket_ipv6():
    from games.channels.push import pinned

    assert pinned("https://fcm.googleapis.com/fcm/send/x", ipaddress.ip_address("142.250.1.1")) == (
        "https://142.250.1.1/fcm/send/x",
        {"Host": "fcm.googleapis.com"},
        "fcm.googleapis.com",
    )
    assert pinned("https://push.example.com:8443/a?b", ipaddress.ip_address("2001:db8::1"))[0] == (
        "https://[2001:db8::1]:8443/a?b"
    )
    assert pinned("http://127.0.0.1:9/x", None) == ("http://127.0.0.1:9/x", {}, None)


def test_a_pinned_https_connection_still_checks_the_certificate_by_the_endpoints_name(tmp_path):
    """The pinned address is connected to with the endpoint's name for SNI and the certificate's
    check: a certificate for that name is taken, one for another name refused."""
    import datetime
    import ssl
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    import requests
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    from games.channels.push import _Session, pinned

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "push.example.test")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(1)
        .not_valid_before(now - datetime.timedelta(minutes=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("push.example.test")]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    (tmp_path / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (tmp_path / "key.pem").write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    names: list[str | None] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tmp_path / "cert.pem", tmp_path / "key.pem")
    context.sni_callback = lambda sock, server_name, ctx: names.append(server_name)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    try:
        for host, taken in (("push.example.test", True), ("other.example.test", False)):
            url, headers, tls_name = pinned(f"https://{host}:{port}/push/x", ipaddress.ip_address("127.0.0.1"))
            session = _Session(tls_name)
            session.verify = str(tmp_path / "cert.pem")
            if taken:
                assert session.post(url, data=b"x", headers=headers, timeout=3).status_code == 201
            else:
                with pytest.raises(requests.exceptions.SSLError):
                    session.post(url, data=b"x", headers=headers, timeout=3)
        assert names[:2] == ["push.example.test", "other.example.test"]
    finally:
        server.shutdown()
        server.server_close()


def test_keys_that_cannot_encrypt_turn_the_device_off_without_sending(service, ben):
    device, _ = device_of(ben, service)
    device.p256dh = "BAAA"  # not a point on the curve (stored before the reader was strict, say)
    with pytest.raises(ChannelError) as refused:
        PushChannel().send_ping(PING, device, "note-1")
    assert refused.value.permanent and service.received == []
    device.refresh_from_db()
    assert device.disabled_at is not None and "keys cannot be used" in device.disabled_reason


@pytest.mark.parametrize("answer", ["huge", "drip"])
def test_a_push_service_that_answers_with_megabytes_or_drips_holds_nothing(answer, ben, settings):
    """The answer's body is read up to a few KB and no longer than the timeout: a service sending
    50 MB, or one byte every 0.1 s for ever, still leaves the ping delivered (201) in about a second."""
    import socket
    import threading

    settings.PUSH_LOCAL_HOSTS = ["127.0.0.1"]
    settings.PUSH_TIMEOUT_SECONDS = 0.6
    stop = threading.Event()
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    sent = {"bytes": 0}

    def serve() -> None:
        conn, _ = server.accept()
        with conn:
            conn.settimeout(5)
            conn.recv(65536)
            conn.sendall(b"HTTP/1.1 201 Created\r\nContent-Length: 50000000\r\n\r\n")
            block = b"x" * (65536 if answer == "huge" else 1)
            while not stop.is_set() and sent["bytes"] < 50_000_000:
                try:
                    conn.sendall(block)
                except OSError:
                    return
                sent["bytes"] += len(block)
                if answer == "drip":
                    stop.wait(0.1)

    threading.Thread(target=serve, daemon=True).start()
    browser = Browser()
    sub = browser.subscription(f"http://127.0.0.1:{server.getsockname()[1]}/push/abc")
    device = PushDevice.objects.create(
        user=ben, endpoint=sub["endpoint"], p256dh=sub["keys"]["p256dh"], auth=sub["keys"]["auth"], label="x"
    )
    began = time.monotonic()
    try:
        PushChannel().send_ping(PING, device, "note-1")
    finally:
        stop.set()
        server.close()
    assert time.monotonic() - began < 2.5
    assert sent["bytes"] < 50_000_000, "the body was not read to its end"
