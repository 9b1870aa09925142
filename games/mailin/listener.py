"""The SMTP listener `manage.py smtpd` runs: replies for REPLY_DOMAIN, received by the service itself.

aiosmtpd speaks SMTP; this module decides, in SMTP's own words, what it takes:

- RCPT: only a genuine reply address (either form links.reply_address makes); anything else, a
  forged or revoked one included, is refused with 550, so the sender's own mail server tells them
  (the service itself never mails a stranger: no backscatter). At most REPLY_SMTP_MAX_RECIPIENTS
  a message (452 beyond).
- DATA: at most REPLY_MAIL_MAX_BYTES (552 beyond, aiosmtpd's own count) with lines of at most 1000
  octets (500); the message is stored (InboundMail) before the 250, so a crash after the 250 loses
  nothing; a database that is away answers 451 and the sender tries again later.
- Rates, per peer address, in bounded counters (cachetools.TTLCache: a flood of addresses evicts the
  oldest, it never grows): connections a minute (421 and the connection closed), messages an hour
  (450 at MAIL, so the sender retries later), and connections open at once from everyone (421).

Each stored message is then handed to the reply reader (games.mailin.store.handle) in a worker
thread of this process; what a crash leaves stored and unhandled is handled when the listener
starts, each minute while it runs, and by the mailbox's beat task when one is set.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP
from cachetools import TTLCache
from django.conf import settings
from django.db import close_old_connections, connection

from .. import links
from ..models import InboundMail
from . import store

log = logging.getLogger(__name__)

REFUSED_RECIPIENT = "550 5.1.1 Not a valid reply address here: reply to your latest game email, or use the link in it"
TOO_MANY_RECIPIENTS = "452 4.5.3 Too many recipients"
TOO_MANY_MESSAGES = "450 4.7.1 Too many messages from your address: try again later"
TOO_MANY_CONNECTIONS = "421 4.7.0 Too many connections from your address: try again later"
BUSY = "421 4.3.2 Too many connections at once: try again later"
NOT_STORED = "451 4.3.0 Your message could not be stored just now: try again later"
TROUBLE = "451 4.3.0 A problem on our side: try again later"
IDLE_SECONDS = 60  # a client that says nothing this long is disconnected
COMMANDS_PER_CONNECTION = 50  # of each command (421 beyond): a connection cannot loop for ever
PEERS_KEPT = 10_000


class PeerLimits:
    """Fixed-window counters per peer address, in bounded caches, and the connections open now."""

    def __init__(
        self,
        connections_per_minute: int,
        messages_per_hour: int,
        open_at_most: int,
        peers: int = PEERS_KEPT,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.connections_per_minute = connections_per_minute
        self.messages_per_hour = messages_per_hour
        self.open_at_most = open_at_most
        self.open = 0
        self._clock = clock
        self._connections: TTLCache = TTLCache(maxsize=peers, ttl=60, timer=clock)
        self._messages: TTLCache = TTLCache(maxsize=peers, ttl=3600, timer=clock)
        self._lock = threading.Lock()

    @classmethod
    def from_settings(cls) -> PeerLimits:
        return cls(
            settings.REPLY_SMTP_CONNECTIONS_PER_MINUTE,
            settings.REPLY_SMTP_MESSAGES_PER_HOUR,
            settings.REPLY_SMTP_CONNECTIONS,
        )

    def _take(self, cache: TTLCache, peer: str, window: float, limit: int) -> bool:
        now = self._clock()
        start, used = cache.get(peer, (now, 0))
        if now - start >= window:
            start, used = now, 0
        cache[peer] = (start, min(used + 1, limit))
        return used < limit

    def connect(self, peer: str) -> str | None:
        """A refusal in SMTP's words, or None (and the connection counts as open until `disconnect`)."""
        with self._lock:
            if self.open >= self.open_at_most:
                return BUSY
            if not self._take(self._connections, peer, 60, self.connections_per_minute):
                return TOO_MANY_CONNECTIONS
            self.open += 1
            return None

    def disconnect(self) -> None:
        with self._lock:
            self.open = max(0, self.open - 1)

    def message(self, peer: str) -> str | None:
        with self._lock:
            return None if self._take(self._messages, peer, 3600, self.messages_per_hour) else TOO_MANY_MESSAGES


def peer_address(session: Any) -> str:
    peer = getattr(session, "peer", None)
    return str(peer[0]) if isinstance(peer, tuple) and peer else str(peer or "")


def _fresh(fn: Callable, *args: Any) -> Any:
    """Run a database job in a worker thread with a usable connection (a dropped one is replaced)."""
    close_old_connections()
    try:
        return fn(*args)
    finally:
        close_old_connections()


def is_reply_address(address: str) -> bool:
    return links.read_reply_address(address) is not None


def store_smtp(raw: bytes, mail_from: str, rcpt_tos: list[str], peer: str) -> InboundMail:
    # an empty MAIL FROM is the null sender of bounces: kept as "<>" so the reader never answers it
    return store.store(raw, InboundMail.Source.SMTP, mail_from or "<>", rcpt_tos, peer)


class ReplyHandler:
    """aiosmtpd's handler: the checks of each command, storing, and handing over to the reader."""

    def __init__(self, limits: PeerLimits | None = None, workers: int | None = None):
        self.limits = limits or PeerLimits.from_settings()
        if workers is None:  # SQLite takes one writer at a time: its jobs queue in one thread here
            workers = 1 if connection.vendor == "sqlite" else 2
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="smtpd-db")
        self._handling: set[Future] = set()

    async def _db(self, fn: Callable, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.executor, _fresh, fn, *args)

    async def handle_MAIL(self, server, session, envelope, address: str, mail_options: list[str]) -> str:
        refusal = self.limits.message(peer_address(session))
        if refusal:
            log.info("smtpd: %s refused at MAIL: too many messages", peer_address(session))
            return refusal
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address: str, rcpt_options: list[str]) -> str:
        if len(envelope.rcpt_tos) >= settings.REPLY_SMTP_MAX_RECIPIENTS:
            return TOO_MANY_RECIPIENTS
        if not await self._db(is_reply_address, address):
            log.info("smtpd: %s refused at RCPT: not a reply address", peer_address(session))
            return REFUSED_RECIPIENT
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(rcpt_options)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope) -> str:
        peer = peer_address(session)
        try:
            mail = await self._db(store_smtp, envelope.original_content, envelope.mail_from, envelope.rcpt_tos, peer)
        except Exception as e:  # noqa: BLE001 - the database is away: the sender keeps the message and retries
            log.warning("smtpd: a message from %s could not be stored (%s); answered 451", peer, type(e).__name__)
            return NOT_STORED
        if mail.status == InboundMail.Status.RECEIVED:
            self.hand_over(mail.pk)
        return "250 OK: stored"

    async def handle_exception(self, error: Exception) -> str:
        log.error("smtpd: unexpected %s while talking to a client", type(error).__name__, exc_info=error)
        return TROUBLE

    def hand_over(self, pk: int) -> None:
        """Handle a stored message in a worker thread, after the 250 has gone."""
        future = self.executor.submit(_fresh, store.handle, pk)
        self._handling.add(future)
        future.add_done_callback(self._handled)

    def _handled(self, future: Future) -> None:
        self._handling.discard(future)
        if future.exception() is not None:  # the database went away: the row waits for the next sweep
            log.warning("smtpd: a stored message waits for the next sweep (%s)", type(future.exception()).__name__)

    def handle_leftovers(self) -> int:
        """What a crash left stored and unhandled (and retries now due), handled in a worker thread."""
        return self.executor.submit(_fresh, _leftovers).result()

    def wait_idle(self, timeout: float = 30) -> None:
        """Wait until every message handed over so far has been handled (for tests and a clean stop)."""
        wait(list(self._handling), timeout=timeout)

    def close(self) -> None:
        self.wait_idle()
        self.executor.shutdown(wait=True)


def _leftovers() -> int:
    handled = store.handle_leftovers()
    store.purge()
    return handled


class ReplySMTP(SMTP):
    """aiosmtpd's SMTP, refusing a connection over the limits before its greeting."""

    async def _handle_client(self) -> None:
        limits: PeerLimits = self.event_handler.limits
        peer = peer_address(self.session)
        refusal = limits.connect(peer)
        if refusal:
            log.info("smtpd: %s refused: %s", peer, refusal)
            await self.push(refusal)
            self.transport.close()
            return
        try:
            await super()._handle_client()
        finally:
            limits.disconnect()


class Listener(Controller):
    """The listener in a thread of its own (aiosmtpd's Controller): `start()`, `stop()`."""

    def __init__(self, host: str, port: int, handler: ReplyHandler | None = None, hostname: str | None = None):
        super().__init__(handler or ReplyHandler(), hostname=host, port=port, server_hostname=hostname)

    def factory(self) -> ReplySMTP:
        return ReplySMTP(
            self.handler,
            data_size_limit=settings.REPLY_MAIL_MAX_BYTES,
            enable_SMTPUTF8=True,
            decode_data=False,
            hostname=self.SMTP_kwargs.get("hostname"),
            timeout=IDLE_SECONDS,
            command_call_limit=COMMANDS_PER_CONNECTION,
        )

    def stop(self, no_assert: bool = False) -> None:
        super().stop(no_assert)
        self.handler.wait_idle()
