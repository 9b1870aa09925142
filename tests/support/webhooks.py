"""A webhook server on 127.0.0.1 (a thread with http.server) that records exactly what it receives,
and the settings that let the SSRF guard reach it (only 127.0.0.1 listed; chat posted for real)."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self):
        return json.loads(self.body)


@dataclass
class HookServer:
    """Answers each request with the next planned (status, headers) — 200 once the plan runs out —
    and keeps what came. `hang` makes it accept and never answer."""

    port: int = 0
    received: list[Received] = field(default_factory=list)
    plan: list[tuple[int, dict[str, str]]] = field(default_factory=list)
    hang: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    body: bytes = b"ok"

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"


def serve(server_state: HookServer) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 - http.server's name
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            server_state.received.append(Received("POST", self.path, dict(self.headers.items()), body))
            if server_state.hang.is_set():
                server_state.release.wait(30)
                return
            status, headers = server_state.plan.pop(0) if server_state.plan else (200, {})
            self.send_response(status)
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(server_state.body)))
            self.end_headers()
            self.wfile.write(server_state.body)

        do_GET = do_POST  # noqa: N815

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    server_state.port = httpd.server_address[1]
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


@pytest.fixture
def hook_server(settings):
    settings.CHANNEL_ALLOWED_HOSTS = ["127.0.0.1"]
    settings.CHAT_LOCAL = False
    state = HookServer()
    httpd = serve(state)
    yield state
    state.release.set()
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def other_server():
    """A second server, for what must never be reached (a redirect's target)."""
    state = HookServer()
    httpd = serve(state)
    yield state
    httpd.shutdown()
    httpd.server_close()
