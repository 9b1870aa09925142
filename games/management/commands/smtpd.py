"""Receive replies by SMTP: the listener for REPLY_DOMAIN, whose MX points at this service (games.mailin.listener)."""

from __future__ import annotations

import logging
import signal
import threading

from django.core.management.base import BaseCommand, CommandError

from games.mailin.listener import Listener, ReplyHandler

SWEEP_SECONDS = 60


class Command(BaseCommand):
    help = "Listen for replies by SMTP (for REPLY_DOMAIN); handles what a crash left stored first, then each minute."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="0.0.0.0", help="the address to listen on (default 0.0.0.0)")
        parser.add_argument("--port", type=int, default=25, help="the port to listen on (default 25)")
        parser.add_argument("--hostname", default=None, help="the name given in the greeting (default: this host's)")

    def handle(self, host: str, port: int, hostname: str | None, **_):
        if not 1 <= port <= 65535:
            raise CommandError("--port must be a number from 1 to 65535.")
        # aiosmtpd logs every dialogue's addresses at INFO: players' addresses stay out of the log
        logging.getLogger("mail.log").setLevel(logging.WARNING)
        handler = ReplyHandler()
        left = handler.handle_leftovers()
        if left:
            self.stdout.write(f"Handled {left} stored replies a previous run left unhandled.")
        listener = Listener(host, port, handler, hostname=hostname)
        try:
            listener.start()
        except OSError as e:
            raise CommandError(f"Could not listen on {host}:{port}: {e.strerror or e}") from None
        self.stdout.write(f"Listening for replies by SMTP on {host}:{port}. Ctrl-C or SIGTERM stops it.")
        stop = threading.Event()
        previous = {sig: signal.signal(sig, lambda *_: stop.set()) for sig in (signal.SIGTERM, signal.SIGINT)}
        try:
            while not stop.wait(SWEEP_SECONDS):
                handler.handle_leftovers()
        finally:
            for sig, action in previous.items():
                signal.signal(sig, action)
            listener.stop()
            handler.close()
        self.stdout.write("Stopped.")
