"""The mailbox a reply may come through, read from REPLY_IMAP_URL, and the two forms of a reply address.

A reply address has one signed token (accounts.tokens) and two forms: `<prefix><token>@REPLY_DOMAIN`,
for a domain whose mail comes to the service (an ESP's inbound route or `manage.py smtpd`), and
`<mailbox>+<token>@<mailbox's domain>`, a plus-address of an ordinary mailbox the service reads by
IMAP. Both carry the same token, so the reader turns a plus-address into the first form and checks
it the one way. Pure: no Django, so settings can check the URL when they load.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from urllib.parse import parse_qsl, unquote, urlsplit

MAX_URL = 2000
MAX_FOLDER = 200
SCHEMES = {"imaps": 993, "imap+starttls": 143, "imap": 143}
OPTIONS = {"processed", "address", "batch"}
_HOST = re.compile(r"[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\]")
_ADDRESS = re.compile(r"[A-Za-z0-9._%-]{1,40}@[A-Za-z0-9.-]{1,200}\.?[A-Za-z0-9-]*")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class MailboxURLError(ValueError):
    """REPLY_IMAP_URL cannot be read; the message says what is wrong (never the password)."""


@dataclass(frozen=True)
class Mailbox:
    """Where replies are read: the IMAP server, the login, the folder read and the folder handled
    messages are moved to, the mailbox's own address (plus-addresses are made from it), and how many
    messages one poll reads at most."""

    scheme: str
    host: str
    port: int
    user: str
    password: str = ""
    folder: str = "INBOX"
    processed: str = "Processed"
    address: str = ""
    batch: int = 50

    @property
    def local(self) -> str:
        return self.address.rpartition("@")[0]

    @property
    def domain(self) -> str:
        return self.address.rpartition("@")[2]

    @property
    def key(self) -> str:
        """A short stable name of this account's folder, part of each stored message's key."""
        return hashlib.sha256(f"{self.user}@{self.host}:{self.port}/{self.folder}".encode()).hexdigest()[:12]

    def __repr__(self) -> str:  # never the password, in a log or a traceback
        return f"Mailbox({self.scheme}://{self.user}@{self.host}:{self.port}/{self.folder} → {self.processed})"


def parse_mailbox_url(url: str) -> Mailbox:
    """The mailbox REPLY_IMAP_URL names, e.g. imaps://turns%40example.org:secret@imap.example.org/INBOX
    ?processed=Processed; MailboxURLError in words when it cannot be read."""
    if not isinstance(url, str) or not url.strip():
        raise MailboxURLError("REPLY_IMAP_URL is empty.")
    url = url.strip()
    if len(url) > MAX_URL or _CONTROL.search(url):
        raise MailboxURLError(f"REPLY_IMAP_URL must be one line of at most {MAX_URL} characters.")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise MailboxURLError("REPLY_IMAP_URL is not a URL, or its port is not a number from 1 to 65535.") from None
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        raise MailboxURLError("REPLY_IMAP_URL must start with imaps://, imap+starttls:// or imap://.")
    host = parts.hostname or ""
    if not host or not _HOST.fullmatch(host if ":" not in host else f"[{host}]"):
        raise MailboxURLError("REPLY_IMAP_URL names no IMAP server (imaps://user:password@host/INBOX).")
    user, password = unquote(parts.username or ""), unquote(parts.password or "")
    if not user or len(user) > 320 or len(password) > 500 or _CONTROL.search(user + password):
        raise MailboxURLError("REPLY_IMAP_URL needs a login: imaps://user:password@host/INBOX (%40 for an @).")
    folder = unquote(parts.path.lstrip("/")) or "INBOX"
    options = {}
    try:
        pairs = parse_qsl(parts.query, keep_blank_values=True, max_num_fields=len(OPTIONS))
    except ValueError:
        raise MailboxURLError("REPLY_IMAP_URL has too many options (known: processed, address, batch).") from None
    for name, value in pairs:
        if name not in OPTIONS:
            raise MailboxURLError(
                f"REPLY_IMAP_URL has an option it does not know: “{name[:40]}” (known: processed, address, batch)."
            )
        options[name] = value.strip()
    processed = options.get("processed") or "Processed"
    for what, name in (("folder", folder), ("processed folder", processed)):
        if len(name) > MAX_FOLDER or _CONTROL.search(name) or '"' in name or "\\" in name:
            raise MailboxURLError(f"REPLY_IMAP_URL's {what} must be a plain name of at most {MAX_FOLDER} characters.")
    if processed == folder:
        raise MailboxURLError("REPLY_IMAP_URL's processed folder must not be the folder it reads.")
    address = (options.get("address") or (user if "@" in user else "")).lower()
    if not address:
        raise MailboxURLError(
            "REPLY_IMAP_URL must say the mailbox's own address: log in with it, or add ?address=turns@example.org."
        )
    if not _ADDRESS.fullmatch(address) or "+" in address:
        raise MailboxURLError("REPLY_IMAP_URL's address must be a plain address like turns@example.org (no + in it).")
    batch = options.get("batch") or "50"
    if not (batch.isascii() and batch.isdigit() and len(batch) <= 3 and 1 <= int(batch) <= 500):
        raise MailboxURLError("REPLY_IMAP_URL's batch must be a number from 1 to 500.")
    return Mailbox(scheme, host, port or SCHEMES[scheme], user, password, folder, processed, address, int(batch))


def plus_form(address: str, mailbox_address: str, prefix: str) -> str:
    """`<prefix><token>@REPLY_DOMAIN` as the plus-address `<mailbox>+<token>@<its domain>`."""
    local = address.rpartition("@")[0]
    token = local[len(prefix) :] if local.lower().startswith(prefix.lower()) else local
    mailbox_local, _, domain = mailbox_address.rpartition("@")
    return f"{mailbox_local}+{token}@{domain}"


def canonical_form(address: str, mailbox_address: str, prefix: str, reply_domain: str) -> str:
    """A plus-address of the mailbox as `<prefix><token>@REPLY_DOMAIN`; any other address as it is."""
    if not mailbox_address or len(address) > 320:
        return address
    local, _, domain = address.rpartition("@")
    mailbox_local, _, mailbox_domain = mailbox_address.lower().rpartition("@")
    base, plus, token = local.lower().partition("+")
    if not plus or not token or base != mailbox_local or domain.lower() != mailbox_domain:
        return address
    return f"{prefix}{token}@{reply_domain}"
