"""A push service on 127.0.0.1 for the tests, and a browser's side of a subscription.

The service (http.server in a thread) keeps every request it receives and answers each with the
status the test sets. `Browser` makes a subscription's key pair and auth secret as a browser does,
checks a request's VAPID signature (RFC 8292: an ES256 JWT and the key it was signed with) and
decrypts its payload (RFC 8291, aes128gcm), by hand with cryptography, so the test does not trust
the sending library's own reading of the standards.
"""

from __future__ import annotations

import base64
import json
import secrets
import struct
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    """Answers `status` (and `location` for a redirect) after `delay` seconds; keeps what it got."""

    status: int = 201
    delay: float = 0.0
    location: str = ""
    received: list[Received] = field(default_factory=list)

    def __post_init__(self) -> None:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                service.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                if service.delay:
                    time.sleep(service.delay)
                self.send_response(service.status)
                if service.location:
                    self.send_header("Location", service.location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def endpoint(self, name: str = "") -> str:
        return f"{self.origin}/push/{name or secrets.token_urlsafe(24)}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Browser:
    """A subscription's keys as a browser makes them (a P-256 pair and 16 random bytes)."""

    def __init__(self) -> None:
        self.private = ec.generate_private_key(ec.SECP256R1())
        self.public_raw = self.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.auth = secrets.token_bytes(16)

    def subscription(self, endpoint: str) -> dict[str, Any]:
        return {
            "endpoint": endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(self.public_raw), "auth": b64url(self.auth)},
        }

    def decrypt(self, body: bytes) -> bytes:
        """RFC 8291 (with RFC 8188's aes128gcm framing): one record, the sender's key in its header."""
        salt, rs, idlen = body[:16], struct.unpack(">I", body[16:20])[0], body[20]
        sender_raw, ciphertext = body[21 : 21 + idlen], body[21 + idlen :]
        assert idlen == 65 and rs >= 18 and len(ciphertext) <= rs, "one record, keyed by the sender's public key"
        sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender_raw)
        shared = self.private.exchange(ec.ECDH(), sender)
        key_info = b"WebPush: info\x00" + self.public_raw + sender_raw
        ikm = HKDF(hashes.SHA256(), 32, salt=self.auth, info=key_info).derive(shared)
        cek = HKDF(hashes.SHA256(), 16, salt=salt, info=b"Content-Encoding: aes128gcm\x00").derive(ikm)
        nonce = HKDF(hashes.SHA256(), 12, salt=salt, info=b"Content-Encoding: nonce\x00").derive(ikm)
        padded = AESGCM(cek).decrypt(nonce, ciphertext, None)
        text = padded.rstrip(b"\x00")
        assert text.endswith(b"\x02"), "the last record ends with the delimiter 2"
        return text[:-1]


def vapid_claims(authorization: str, public_key: str) -> dict[str, Any]:
    """The claims of a `vapid t=<JWT>,k=<key>` header, after checking its ES256 signature with `k`,
    which must be the service's public key. AssertionError on anything wrong."""
    scheme, _, rest = authorization.partition(" ")
    assert scheme == "vapid", authorization[:20]
    parts = dict(p.strip().split("=", 1) for p in rest.split(","))
    assert parts["k"] == public_key, "signed with the service's key"
    head, claims, signature = parts["t"].split(".")
    assert json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    assert len(raw) == 64, "ES256: r and s, 32 bytes each"
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(parts["k"]))
    try:
        key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("the VAPID signature does not verify") from None
    return json.loads(unb64url(claims))
