"""The service's VAPID key pair (RFC 8292): push services accept only pushes it signs, and browsers
subscribe with its public half, so every subscription is bound to it. Settings read the private key
(the environment's, or one made on the first run in var/); the public key is derived from it."""

from __future__ import annotations

import base64
from functools import lru_cache

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from py_vapid import Vapid


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@lru_cache(maxsize=4)
def _pair(private: str, public_given: str) -> tuple[Vapid, str]:
    try:
        vapid = Vapid.from_string(private)
    except Exception as e:  # noqa: BLE001 - py_vapid raises what cryptography and base64 raise
        raise ImproperlyConfigured("VAPID_PRIVATE_KEY is not a P-256 private key (base64url, raw or DER).") from e
    point = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    public = b64url(point)
    if public_given and public_given.rstrip("=") != public:
        raise ImproperlyConfigured("VAPID_PUBLIC_KEY is not the public half of VAPID_PRIVATE_KEY.")
    return vapid, public


def signer() -> Vapid:
    """What signs each push's Authorization header."""
    return _pair(settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY)[0]


def public_key() -> str:
    """The applicationServerKey a browser subscribes with (base64url, 65 bytes uncompressed)."""
    return _pair(settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY)[1]
