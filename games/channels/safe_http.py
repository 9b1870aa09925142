"""Posting to a URL a person gave us, without letting it reach inside our own network (SSRF).

The host is resolved once, every address it resolves to is checked (loopback, private, link-local,
multicast, reserved, unspecified, shared and other non-global ranges are refused, IPv4 and IPv6,
IPv4-mapped IPv6 read as the IPv4 it maps), and the connection goes to the checked address itself
(TLS still checks the certificate against the name), so DNS that changes its answer between the
check and the connect cannot pass. Redirects are never followed: a 3xx is reported to the caller
as an answer like any other. Only the hosts listed in the CHANNEL_ALLOWED_HOSTS setting skip the
address check (empty by default; the tests list 127.0.0.1).

Timeouts are short, the whole exchange has a deadline (connect + read: a server that answers one
byte just inside each read timeout is cut off there, by shutting its socket), and the response is
read up to a bound, so a webhook server that hangs or drips holds a worker for seconds, not forever. Nothing here logs or repeats the URL: a
webhook URL is a secret, and an error says what went wrong in words, never the address.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from dataclasses import dataclass
from urllib.parse import urlsplit

import urllib3
from django.conf import settings

MAX_URL_LENGTH = 500
MAX_RESPONSE_BYTES = 64 * 1024


class UnsafeURL(ValueError):
    """A URL we will not post to, with the reason in words a person can act on."""


class PostFailed(Exception):
    """No answer came back (connection refused or reset, a timeout, a TLS failure): temporary."""

    def __init__(self, reason: str, *, timed_out: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.timed_out = timed_out


@dataclass(frozen=True)
class Destination:
    """A checked URL: where to connect (an address already checked) and what to ask for there."""

    scheme: str
    host: str  # as written, for the Host header and the TLS name
    port: int
    target: str  # path and query
    address: str  # the checked address the connection goes to


def masked(url: str) -> str:
    """A webhook URL as it may be shown: scheme://host/…last 4 characters (the rest is the secret)."""
    try:
        parts = urlsplit(str(url))
        host = parts.hostname or "?"
    except ValueError:
        return "(unreadable address)"
    rest = str(url)[len(f"{parts.scheme}://{parts.netloc}") :]
    tail = rest[-4:] if len(rest) > 8 else ""
    return f"{parts.scheme}://{host}/…{tail}"


def forbidden(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """An address no user-given URL may reach: anything but a global unicast address."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return (
        ip.is_loopback
        or ip.is_private
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
        or not ip.is_global
    )


def _allowed_hosts() -> set[str]:
    return {str(h).strip().lower().strip("[]") for h in getattr(settings, "CHANNEL_ALLOWED_HOSTS", []) if h}


def resolve(host: str, port: int) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    """Every address a host name resolves to, each once (none when it does not resolve); a literal
    address is itself. Push endpoints are checked with this too."""
    try:
        return [ipaddress.ip_address(host.strip("[]"))]
    except ValueError:
        pass
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return []
    return list(dict.fromkeys(ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in found))


def _addresses(host: str, port: int) -> list[str]:
    found = resolve(host, port)
    if not found:
        raise UnsafeURL(f"The host {host} could not be found.")
    return [str(a) for a in found]


def check(url: object) -> Destination:
    """The URL as a Destination, or UnsafeURL saying why not. Resolves the host (DNS)."""
    text = str(url or "").strip()
    if not text:
        raise UnsafeURL("Give the webhook's address.")
    if len(text) > MAX_URL_LENGTH:
        raise UnsafeURL(f"That address is longer than {MAX_URL_LENGTH} characters.")
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in text):
        raise UnsafeURL("A web address has no spaces or control characters.")
    try:
        parts = urlsplit(text)
        host = (parts.hostname or "").lower()
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise UnsafeURL("That is not a web address we can read.") from None
    if parts.scheme not in ("http", "https"):
        raise UnsafeURL("Only http:// and https:// addresses are accepted.")
    if not host:
        raise UnsafeURL("That address names no host.")
    if parts.username is not None or parts.password is not None:
        raise UnsafeURL("Give the address without a user name or password before the host.")
    if not host.isascii():
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError:
            raise UnsafeURL("That host name cannot be written in DNS.") from None
    addresses = _addresses(host, port)
    if not addresses:
        raise UnsafeURL(f"The host {host} could not be found.")
    if host not in _allowed_hosts():
        for a in addresses:
            if forbidden(ipaddress.ip_address(a)):
                raise UnsafeURL(
                    f"The host {host} is a private, local or reserved address; webhooks must be on the public internet."
                )
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Destination(parts.scheme, host, port, target, addresses[0])


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes  # at most MAX_RESPONSE_BYTES; never shown to anyone


def post(url: str, body: bytes, headers: dict[str, str], *, connect: float = 3.0, read: float = 5.0) -> Answer:
    """POST `body` to a checked URL; raises UnsafeURL (refused before any connection) or PostFailed."""
    dest = check(url)
    timeout = urllib3.Timeout(connect=connect, read=read)
    watch = _Deadline(connect + read)
    if dest.scheme == "https":
        pool: urllib3.HTTPConnectionPool = urllib3.HTTPSConnectionPool(
            dest.address,
            dest.port,
            timeout=timeout,
            retries=False,
            maxsize=1,
            server_hostname=dest.host,
            assert_hostname=dest.host,
            cert_reqs="CERT_REQUIRED",
        )
    else:
        pool = urllib3.HTTPConnectionPool(dest.address, dest.port, timeout=timeout, retries=False, maxsize=1)
    pool.ConnectionCls = watch.watching(pool.ConnectionCls)
    default_port = 443 if dest.scheme == "https" else 80
    shown_host = f"[{dest.host}]" if ":" in dest.host else dest.host
    host_header = shown_host if dest.port == default_port else f"{shown_host}:{dest.port}"
    watch.start()
    try:
        response = pool.urlopen(
            "POST",
            dest.target,
            body=body,
            headers={**headers, "Host": host_header, "User-Agent": "cafe-turns"},
            redirect=False,
            retries=False,
            preload_content=False,
            assert_same_host=False,
        )
        try:
            data = b""
            while len(data) < MAX_RESPONSE_BYTES and not watch.fired.is_set():
                chunk = response.read(min(8192, MAX_RESPONSE_BYTES - len(data)))
                if not chunk:
                    break
                data += chunk
        finally:
            response.release_conn()
            response.close()
        if watch.fired.is_set():
            raise TimeoutError
        return Answer(response.status, data)
    except (urllib3.exceptions.TimeoutError, TimeoutError):
        raise PostFailed(f"the webhook's server did not answer in {connect + read:g} s", timed_out=True) from None
    except urllib3.exceptions.SSLError:
        if watch.fired.is_set():
            raise PostFailed(f"the webhook's server did not answer in {connect + read:g} s", timed_out=True) from None
        raise PostFailed("the webhook's server failed the TLS check (its certificate)") from None
    except (urllib3.exceptions.HTTPError, OSError):
        if watch.fired.is_set():
            raise PostFailed(f"the webhook's server did not answer in {connect + read:g} s", timed_out=True) from None
        raise PostFailed("could not reach the webhook's server") from None
    finally:
        watch.cancel()
        pool.close()


class _Deadline:
    """The whole exchange's deadline: when it passes, the connection's socket is shut, which ends a
    read that is still waiting (per-read timeouts alone let a server drip one byte per timeout)."""

    def __init__(self, seconds: float) -> None:
        self.fired = threading.Event()
        self._sock: socket.socket | None = None
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True

    def watching(self, connection_class: type) -> type:
        """The pool's connection class, telling this deadline its socket once connected."""
        deadline = self

        class Watched(connection_class):  # type: ignore[misc, valid-type]
            def connect(self) -> None:
                super().connect()
                deadline._sock = self.sock

        return Watched

    def start(self) -> None:
        self._timer.start()

    def cancel(self) -> None:
        self._timer.cancel()

    def _fire(self) -> None:
        self.fired.set()
        sock = self._sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
