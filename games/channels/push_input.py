"""What a browser posts to turn push on, read by one bounded parser; and where a push may go.

A push subscription is JSON from `PushSubscription.toJSON()`: an endpoint URL (the push service's,
which the server will POST to) and the browser's keys (p256dh: a P-256 point, 65 bytes; auth: a
secret of 16 bytes). Anything else is refused in words, and nothing is stored. Since the server
only ever POSTs to an endpoint a browser named, an endpoint must be https and must not reach
loopback, private, link-local or multicast addresses, unless the site lists its host.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from . import safe_http

MAX_BODY = 4096  # bytes of posted JSON; a real subscription is well under 1 KB
MAX_ENDPOINT = 1000  # characters; the push services' own are a few hundred
MAX_LABEL = 60
KEY_BYTES = {"p256dh": 65, "auth": 16}
_B64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")
_HOST = re.compile(r"[a-z0-9.-]{1,253}|[0-9a-f:.]{2,45}")  # a name, or an address (IPv6 unbracketed)


class Refused(ValueError):
    """A subscription that cannot be taken; the message says why, in words a person understands."""


@dataclass(frozen=True)
class Subscription:
    endpoint: str
    p256dh: str  # base64url, unpadded, as read
    auth: str


def read_subscription(body: bytes | str, local_hosts: Iterable[str] = ()) -> Subscription:
    """The posted subscription, or Refused."""
    if isinstance(body, str):
        body = body.encode("utf-8", "surrogatepass")
    if not body:
        raise Refused("No subscription was sent.")
    if len(body) > MAX_BODY:
        raise Refused("That subscription is too long to be one.")
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refused("That is not a push subscription (it is not JSON).") from None
    if not isinstance(data, dict):
        raise Refused("That is not a push subscription.")
    endpoint, keys = data.get("endpoint"), data.get("keys")
    if not isinstance(endpoint, str) or not isinstance(keys, dict):
        raise Refused("A push subscription needs an endpoint and keys.")
    problem = endpoint_problem(endpoint, local_hosts, resolve=False)
    if problem:
        raise Refused(problem)
    read = {name: _key(keys.get(name), name, size) for name, size in KEY_BYTES.items()}
    if read["p256dh"][0] != "B":  # 0x04: an uncompressed point
        raise Refused("The browser's key (p256dh) is not a P-256 public key.")
    return Subscription(endpoint=endpoint, **read)


def _key(value: object, name: str, size: int) -> str:
    if not isinstance(value, str) or not value or len(value) > 100 or not _B64URL.fullmatch(value):
        raise Refused(f"The browser's key ({name}) is missing or not base64url.")
    text = value.rstrip("=")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise Refused(f"The browser's key ({name}) is not base64url.") from None
    if len(raw) != size:
        raise Refused(f"The browser's key ({name}) should be {size} bytes, not {len(raw)}.")
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


IP = ipaddress.IPv4Address | ipaddress.IPv6Address
FORBIDDEN = "A push endpoint must be on the internet, not on this machine or its network."
UNRESOLVED = "The push service's name does not resolve."


def endpoint_problem(url: str, local_hosts: Iterable[str] = (), resolve: bool = True) -> str | None:
    """Why the server must not POST to this URL (None: it may). With `resolve`, every address the
    host's name resolves to is checked too (a name may point anywhere); without, only a literal
    address or a local name is refused (for a form, which must not wait on DNS)."""
    return check_endpoint(url, local_hosts, resolve)[0]


def check_endpoint(url: str, local_hosts: Iterable[str] = (), resolve: bool = True) -> tuple[str | None, list[IP]]:
    """(why not, or None; the addresses checked). The sender connects to one of these addresses
    itself, so a name that resolves elsewhere a moment later (DNS rebinding) changes nothing.
    A host the site lists comes back with no addresses: it is connected to by name."""
    if len(url) > MAX_ENDPOINT:
        return f"A push endpoint is at most {MAX_ENDPOINT} characters.", []
    if not url.isascii() or any(c.isspace() or ord(c) < 32 or c == "\x7f" for c in url):
        return "A push endpoint is a plain web address.", []
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        parts.port  # noqa: B018 - raises on a port that is not a number in range
    except ValueError:
        return "A push endpoint is a plain web address.", []
    if not host or parts.username is not None or parts.password is not None or not _HOST.fullmatch(host):
        return "A push endpoint names a host (and nothing else before it).", []
    local = host in {h.lower() for h in local_hosts}
    if parts.scheme != "https" and not (local and parts.scheme == "http"):
        return "A push endpoint must be an https address.", []
    if local:
        return None, []
    try:
        addresses = [ipaddress.ip_address(host.strip("[]"))]
    except ValueError:
        if "." not in host or host == "localhost" or host.endswith((".localhost", ".local", ".internal")):
            return FORBIDDEN, []
        addresses = safe_http.resolve(host, parts.port or 443) if resolve else []
        if resolve and not addresses:
            return UNRESOLVED, []
    if any(safe_http.forbidden(a) for a in addresses):
        return FORBIDDEN, []
    return None, addresses


def device_label(user_agent: str) -> str:
    """A name a person recognises their device by ("Firefox on Android"), from the User-Agent."""
    ua = (user_agent or "")[:512]
    browser = next(
        (name for key, name in _BROWSERS if key in ua),
        "A browser",
    )
    system = next((name for key, name in _SYSTEMS if key in ua), "")
    return (f"{browser} on {system}" if system else browser)[:MAX_LABEL]


# the first that appears wins: Edge and Opera also say "Chrome", Chrome also says "Safari"
_BROWSERS = (
    ("Firefox/", "Firefox"),
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("Chrome/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Safari/", "Safari"),
)
_SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("Linux", "Linux"),
)
