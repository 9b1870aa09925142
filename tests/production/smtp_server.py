"""A mail server on 127.0.0.1 for the fault tests: it answers (aiosmtpd), refuses chosen
recipients with 5xx or 4xx at RCPT, or hangs (a listening socket that never accepts, so the
kernel completes the connection and the client waits for a greeting that never comes).

It keeps every message it took, by Message-ID, so a test can say each mail arrived once.
"""

from __future__ import annotations

import logging
import socket
import threading
from collections import Counter
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import Message

from aiosmtpd.controller import Controller

from tests.production.service import free_port

logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every line of every dialogue


@dataclass
class Handler:
    """aiosmtpd's handler: refuses the addresses in `refuse` with their reply, records the rest."""

    refuse: dict[str, str] = field(default_factory=dict)
    messages: list[Message] = field(default_factory=list)
    rcpt: Counter = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_RCPT(self, server, session, envelope, address: str, rcpt_options) -> str:
        with self.lock:
            self.rcpt[address.lower()] += 1
        if address.lower() in self.refuse:
            return self.refuse[address.lower()]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope) -> str:
        with self.lock:
            self.messages.append(message_from_bytes(envelope.original_content or envelope.content))
        return "250 Message accepted for delivery"


class MailServer:
    """One port, three moods: `hang()`, `answer()` (the default once started), `stop()`."""

    def __init__(self) -> None:
        self.port = free_port()
        self.handler = Handler()
        self._controller: Controller | None = None
        self._hanging: socket.socket | None = None

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def answer(self) -> MailServer:
        self._stop_hanging()
        if self._controller is None:
            self._controller = Controller(self.handler, hostname="127.0.0.1", port=self.port)
            self._controller.start()
        return self

    def hang(self) -> MailServer:
        """Accept connections (the kernel's backlog does) and never say a word."""
        self._stop_answering()
        if self._hanging is None:
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", self.port))
            s.listen(128)
            self._hanging = s
        return self

    def stop(self) -> None:
        self._stop_hanging()
        self._stop_answering()

    def _stop_hanging(self) -> None:
        if self._hanging is not None:
            self._hanging.close()  # the held connections are reset: their senders see an error
            self._hanging = None

    def _stop_answering(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    # --- what arrived ---
    def message_ids(self) -> Counter:
        with self.handler.lock:
            return Counter(m["Message-ID"] for m in self.handler.messages)

    def notification_ids(self) -> Counter:
        with self.handler.lock:
            return Counter(int(m["X-Cafe-Notification"]) for m in self.handler.messages)
