"""Chat webhooks: a person's own, or a game's shared channel, in one of a few well-known formats.

A small table of formats over our own guarded POST (games.channels.safe_http), not a library that
makes its own requests: every request, to any of the services, goes through the one SSRF guard,
follows no redirect, and is exactly what the tests see. Each format is one function from a Ping to
(URL, headers, body).

On the embedded default (CHAT_LOCAL, on when mail goes to the local outbox) nothing is posted: the
post is recorded beside the mail in the local outbox (/outbox/), its JSON body as it would go.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit, urlunsplit

from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models import ChatHook, DeliveredMail

from . import safe_http
from .base import ChannelError, Ping, PingChannel

Request = tuple[str, dict[str, str], bytes]
JSON = {"Content-Type": "application/json"}


def _text(ping: Ping) -> str:
    return f"{ping.body}\n{ping.url}" if ping.url else ping.body


def _json(data: dict[str, Any]) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode()


def discord(ping: Ping, url: str, key: str) -> Request:
    # no mentions of anyone, whatever a game's or player's name says
    return url, JSON, _json({"content": _text(ping), "allowed_mentions": {"parse": []}})


def slack(ping: Ping, url: str, key: str) -> Request:
    return url, JSON, _json({"text": _text(ping)})


def matrix(ping: Ping, url: str, key: str) -> Request:
    """A Matrix hookshot generic webhook: {"text": ..., "html": ...}."""
    html = f"<strong>{_escape(ping.title)}</strong><br>{_escape(ping.body)}"
    if ping.url:
        html += f'<br><a href="{_escape(ping.url)}">{_escape(ping.url)}</a>'
    return url, JSON, _json({"text": _text(ping), "html": html})


def telegram(ping: Ping, url: str, key: str) -> Request:
    """The bot API's sendMessage URL with ?chat_id=…; the chat id goes in the body too."""
    parts = urlsplit(url)
    chat_id = (parse_qs(parts.query).get("chat_id") or [""])[0]
    return url, JSON, _json({"chat_id": chat_id, "text": _text(ping), "disable_web_page_preview": True})


def ntfy(ping: Ping, url: str, key: str) -> Request:
    """ntfy's JSON publishing: posted to the server's root with the topic (the URL's last part) inside."""
    parts = urlsplit(url)
    topic = parts.path.strip("/").rsplit("/", 1)[-1]
    root = urlunsplit((parts.scheme, parts.netloc, "/", parts.query, ""))
    data: dict[str, Any] = {"topic": topic, "title": ping.title, "message": ping.body}
    if ping.url:
        data["click"] = ping.url
    return root, JSON, _json(data)


def gotify(ping: Ping, url: str, key: str) -> Request:
    """Gotify's /message?token=… with the app token in the URL."""
    data: dict[str, Any] = {"title": ping.title, "message": _text(ping), "priority": 5}
    if ping.url:
        data["extras"] = {"client::notification": {"click": {"url": ping.url}}}
    return url, JSON, _json(data)


def plain_json(ping: Ping, url: str, key: str) -> Request:
    data = {
        "title": ping.title,
        "body": ping.body,
        "url": ping.url,
        "game": ping.game_name,
        "whose_move": ping.whose_move,
        "deadline": ping.deadline,
        "key": key,
    }
    return url, {**JSON, "Idempotency-Key": key}, _json(data)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


FORMATS: dict[str, Callable[[Ping, str, str], Request]] = {
    ChatHook.Format.DISCORD: discord,
    ChatHook.Format.SLACK: slack,
    ChatHook.Format.MATRIX: matrix,
    ChatHook.Format.TELEGRAM: telegram,
    ChatHook.Format.NTFY: ntfy,
    ChatHook.Format.GOTIFY: gotify,
    ChatHook.Format.JSON: plain_json,
}

GONE = {401: "refuses us", 403: "refuses us", 404: "is gone", 410: "is gone"}


def classify(status: int) -> ChannelError | None:
    """None for a 2xx; otherwise the error in words (never the response body), permanent or not."""
    if 200 <= status < 300:
        return None
    if status in GONE:
        return ChannelError(f"The webhook {GONE[status]} (HTTP {status}).", permanent=True)
    if 300 <= status < 400:
        return ChannelError(
            f"The webhook answered with a redirect (HTTP {status}); redirects are not followed, give its final address.",
            permanent=True,
        )
    if status == 429 or status >= 500 or status == 408:
        return ChannelError(f"The chat service is busy or failing (HTTP {status}); trying again later.")
    if 400 <= status < 500:
        return ChannelError(f"The chat service refused the message (HTTP {status}).", permanent=True)
    return ChannelError(f"The chat service answered HTTP {status}; trying again later.")


def local() -> bool:
    return bool(getattr(settings, "CHAT_LOCAL", False))


def post(hook: ChatHook, ping: Ping, key: str) -> str:
    """Send a ping to one hook (or, locally, record it in the outbox); raises ChannelError."""
    url, headers, body = FORMATS[hook.format](ping, hook.url, key)
    if local():
        # beside the mail of the hook's owner (a game's: its host), so they read it in their own outbox
        owner = hook.owner if hook.owner_id else hook.game.organiser
        DeliveredMail.objects.create(
            to=owner.email,
            subject=f"[chat: {hook.get_format_display()}, {hook.masked_url}] {ping.title}"[:200],
            body_text=json.dumps(json.loads(body), ensure_ascii=False, indent=2),
            headers={"X-Channel": "chat", "X-Chat-Format": hook.format, "Idempotency-Key": key},
        )
        return ""
    try:
        answer = safe_http.post(url, body, headers)
    except safe_http.UnsafeURL as e:
        raise ChannelError(f"The webhook's address is refused: {e}", permanent=True) from None
    except safe_http.PostFailed as e:
        raise ChannelError(f"Not sent: {e.reason}.", unreachable=True) from None
    error = classify(answer.status)
    if error is not None:
        raise error
    return ""


class ChatChannel(PingChannel):
    kind = "chat"
    label = gettext_lazy("Chat webhook")

    def _working(self):
        return ChatHook.objects.filter(enabled=True)

    def targets_for(self, user: Any) -> list[ChatHook]:
        return list(self._working().filter(owner=user)) if user is not None else []

    def game_targets(self, game: Any) -> list[ChatHook]:
        return list(self._working().filter(game=game))

    def targets_of(self, users: list[Any], games: list[Any]) -> tuple[dict[Any, list], dict[Any, list]]:
        mine: dict[Any, list[ChatHook]] = {}
        shared: dict[Any, list[ChatHook]] = {}
        if users or games:
            either = Q(owner__in=[u.pk for u in users]) | Q(game__in=[g.pk for g in games])
            for hook in self._working().filter(either):
                if hook.owner_id:
                    mine.setdefault(hook.owner_id, []).append(hook)
                else:
                    shared.setdefault(hook.game_id, []).append(hook)
        return mine, shared

    def target(self, target_id: int) -> ChatHook | None:
        return self._working().filter(pk=target_id).first()

    def turn_off(self, target: ChatHook, reason: str) -> None:
        ChatHook.objects.filter(pk=target.pk).update(
            enabled=False, disabled_reason=reason[:300], last_error=reason[:300]
        )

    def failed(self, target: ChatHook, reason: str) -> None:
        ChatHook.objects.filter(pk=target.pk).update(last_error=reason[:300])

    def send_ping(self, ping: Ping, target: ChatHook, key: str) -> str:
        sent = post(target, ping, key)
        if target.last_error:
            ChatHook.objects.filter(pk=target.pk).update(last_error="")
        return sent


def trial_ping(hook: ChatHook) -> Ping:
    """What the test button sends, in the language of the person who pressed it (the request's)."""
    sent = f"{timezone.now():%Y-%m-%d %H:%M}"
    if hook.game_id:
        body = _("This webhook will be told when it is a move in %(game)s. Sent %(when)s UTC.") % {
            "game": hook.game.name,
            "when": sent,
        }
    else:
        body = _("This webhook will be told when it is a move in your games. Sent %(when)s UTC.") % {"when": sent}
    return Ping(title=_("Café turns: a test message"), body=body, url=settings.SITE_URL + "/")
