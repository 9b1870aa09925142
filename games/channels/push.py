"""Web push (RFC 8030, 8291, 8292): a ping to each browser a person turned push on in.

Sent with pywebpush: the payload encrypted (aes128gcm) to the browser's keys, signed with the
service's VAPID key, with a TTL (how long the push service keeps it for a device that is off), an
Urgency, and a Topic from the ping's tag, so a later ping of the same wait replaces the earlier one
still waiting at the push service. The push service's answer says what to do next: 404/410 = the
subscription is gone (the device is turned off; the profile says so); 400/413 = this message can
never go (given up, the device kept); 429, 5xx, timeouts = try again later. An endpoint is a
device's secret (whoever has it and the keys can push to it): no log line, message or page shows it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import socket
import threading
import time
from typing import Any, ClassVar
from urllib.parse import urlsplit, urlunsplit

import requests
import urllib3
from django.conf import settings
from django.templatetags.static import static
from django.utils.translation import gettext_lazy
from pywebpush import WebPushException, webpush
from requests.adapters import HTTPAdapter

from games.actions import push_devices
from games.models import PushDevice

from . import vapid
from .base import ChannelError, Ping, PingChannel
from .push_input import IP, UNRESOLVED, check_endpoint

log = logging.getLogger(__name__)

MAX_PAYLOAD = 3000  # bytes of JSON before encryption; push services take 4096 with the overhead
_TOPIC = re.compile(r"[A-Za-z0-9_-]{1,32}")
GONE = {404, 410}
MAX_ANSWER = 4096  # bytes of a push service's answer read at most (it is never shown)
NEVER = {400, 401, 403, 413}  # this message, as made, will never be taken (401/403: the VAPID key)


class _Pinned(HTTPAdapter):
    """Connects to the address that was checked, with the endpoint's name for TLS (SNI and the
    certificate's check), so the name cannot be resolved again to somewhere else."""

    def __init__(self, host: str) -> None:
        self._host = host
        super().__init__(max_retries=0)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["server_hostname"] = self._host
        kwargs["assert_hostname"] = self._host
        super().init_poolmanager(*args, **kwargs)


def _shut(sock: Any) -> None:
    """Ends a read still waiting on this socket (a push service dripping its answer)."""
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


class _Session(requests.Session):
    """A push service answers; it never sends us elsewhere (a redirect could aim at this network).
    The environment's proxies and .netrc are left out too: the endpoint alone says where."""

    def __init__(self, host: str | None = None) -> None:
        super().__init__()
        self.trust_env = False
        if host:
            self.mount("https://", _Pinned(host))
            self.mount("http://", _Pinned(host))

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        """Sent with no redirect followed; the answer's body read up to MAX_ANSWER bytes and no
        longer than the timeout once more (a push service answers with an empty body: one that
        sends megabytes, or drips them, must not hold the worker or its memory)."""
        kwargs["allow_redirects"] = False
        kwargs["stream"] = True
        timeout = kwargs.get("timeout")
        response = super().request(*args, **kwargs)
        deadline = time.monotonic() + (float(timeout) if isinstance(timeout, int | float) else 5.0)
        body = b""
        sock = getattr(getattr(response.raw, "connection", None), "sock", None)
        cut = threading.Timer(max(0.0, deadline - time.monotonic()), _shut, args=(sock,))
        cut.daemon = True
        cut.start()
        try:
            while len(body) < MAX_ANSWER and time.monotonic() < deadline:
                chunk = response.raw.read1(MAX_ANSWER - len(body))  # what has come, not a whole block
                if not chunk:
                    break
                body += chunk
        except (OSError, urllib3.exceptions.HTTPError):
            pass  # cut off at the deadline or dropped: the status already says what happened
        finally:
            cut.cancel()
            response.close()
        response._content = body[:MAX_ANSWER]  # what pywebpush may read of it (response.text)
        return response


def pinned(endpoint: str, address: IP | None) -> tuple[str, dict[str, str], str | None]:
    """(the URL to connect to, extra headers, the name TLS must see): the endpoint with its host
    replaced by the checked address, and a Host header naming the host as the endpoint did."""
    if address is None:
        return endpoint, {}, None
    parts = urlsplit(endpoint)
    literal = f"[{address}]" if address.version == 6 else str(address)
    netloc = literal + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc)), {"Host": parts.netloc}, parts.hostname


def topic_of(tag: str) -> str:
    """The Topic header (at most 32 base64url characters) for a ping's tag: one per wait."""
    if _TOPIC.fullmatch(tag):
        return tag
    return hashlib.sha256(tag.encode("utf-8", "replace")).hexdigest()[:32]


def payload_of(ping: Ping) -> bytes:
    """What the service worker shows: title, body, the url a tap opens, the tag, the icon."""
    data = {
        "title": ping.title[:120],
        "body": ping.body[:1000],
        "url": ping.url,
        "tag": ping.tag[:100],
        "icon": settings.SITE_URL + static("icons/icon-192.png"),
    }
    raw = json.dumps(data, ensure_ascii=False).encode()
    while len(raw) > MAX_PAYLOAD and data["body"]:
        data["body"] = data["body"][: len(data["body"]) // 2]
        raw = json.dumps(data, ensure_ascii=False).encode()
    return raw


def origin_of(endpoint: str) -> str:
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc}"


class PushChannel(PingChannel):
    kind: ClassVar[str] = "push"
    label: ClassVar[Any] = gettext_lazy("Push on my devices")

    def targets_for(self, user: Any) -> list[PushDevice]:
        if user is None or getattr(user, "pk", None) is None:
            return []
        return list(PushDevice.objects.filter(user=user, disabled_at__isnull=True))

    def target(self, target_id: int) -> PushDevice | None:
        return PushDevice.objects.filter(pk=target_id).first()

    def targets_for_many(self, users: list[Any]) -> dict[Any, list[PushDevice]]:
        """Every person's working devices in one query (a sweep batch pings many seats in one flush)."""
        found: dict[Any, list[PushDevice]] = {u.pk: [] for u in users}
        for device in PushDevice.objects.filter(user__in=list(found), disabled_at__isnull=True):
            found[device.user_id].append(device)
        return found

    def turn_off(self, target: PushDevice, reason: str) -> None:
        push_devices.turn_off(target, reason)

    def gave_up(self, note: Any, target: Any, error: ChannelError) -> None:
        """Nothing more: send_ping turns a device off itself when the push service says it is gone,
        and a message the service refused (400, 413) must not cost the device."""

    def send_ping(self, ping: Ping, target: PushDevice, key: str) -> str:
        device = target
        if device.disabled_at is not None:
            raise ChannelError("push is turned off on this device", permanent=True)
        problem, addresses = check_endpoint(device.endpoint, settings.PUSH_LOCAL_HOSTS, resolve=True)
        if problem == UNRESOLVED:
            raise ChannelError("the push service's name does not resolve", unreachable=True)
        if problem:
            self.turn_off(device, "its push service is at an address the site does not send to")
            raise ChannelError("the push endpoint is at a forbidden address", permanent=True)
        url, host_header, tls_name = pinned(device.endpoint, addresses[0] if addresses else None)
        try:
            webpush(
                subscription_info={"endpoint": url, "keys": {"p256dh": device.p256dh, "auth": device.auth}},
                data=payload_of(ping),
                vapid_private_key=vapid.signer(),
                vapid_claims={"sub": settings.VAPID_SUBJECT, "aud": origin_of(device.endpoint)},
                content_encoding="aes128gcm",
                timeout=settings.PUSH_TIMEOUT_SECONDS,
                ttl=settings.PUSH_TTL_SECONDS,
                headers={
                    "Topic": topic_of(ping.tag or key),
                    "Urgency": "high" if ping.whose_move else "normal",
                    **host_header,
                },
                requests_session=_Session(tls_name),
            )
        except WebPushException as e:
            if e.response is None:  # refused before sending: pywebpush could not use the device's keys
                self.turn_off(device, "its keys cannot be used; turn push on again there")
                raise ChannelError("the device's keys cannot be used", permanent=True) from None
            raise self._refused(device, e.response.status_code) from None
        except requests.Timeout:
            raise ChannelError("the push service did not answer in time", unreachable=True) from None
        except requests.ConnectionError:
            raise ChannelError("the push service could not be reached", unreachable=True) from None
        except requests.RequestException as e:
            raise ChannelError(f"the push failed ({type(e).__name__})") from None
        except ValueError as e:  # the device's keys could not encrypt (they were checked when stored)
            self.turn_off(device, "its keys cannot be used; turn push on again there")
            raise ChannelError(f"the device's keys cannot encrypt ({type(e).__name__})", permanent=True) from None
        push_devices.used(device)
        log.info("push %s handed to %s for device %s", key, urlsplit(device.endpoint).hostname, device.pk)
        return ""  # the push service's Location names the message at it: nothing we need to keep

    def _refused(self, device: PushDevice, status: int) -> ChannelError:
        if status in GONE:
            self.turn_off(device, f"the browser's push service said the subscription is gone ({status})")
            return ChannelError(f"the push service says the subscription is gone ({status})", permanent=True)
        if status in NEVER:
            return ChannelError(f"the push service refused this message ({status})", permanent=True)
        if 300 <= status < 400:
            return ChannelError(f"the push service sent us elsewhere ({status}); not followed", permanent=True)
        if status == 429:
            return ChannelError("the push service asks us to slow down (429)")
        return ChannelError(f"the push service failed ({status})")
