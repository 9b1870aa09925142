"""Channels: how a notification reaches a person (email, web push, chat webhooks).

`CHANNELS` is the registry of channel kinds, one line each (as healthchecks' TRANSPORTS); adding a
channel is one module here and its line below. See base.py for the seam, outbox.py for the send
loop every channel shares.
"""

from __future__ import annotations

from .base import Channel
from .chat import ChatChannel
from .email import EmailChannel
from .push import PushChannel

CHANNELS: dict[str, Channel] = {
    EmailChannel.kind: EmailChannel(),
    ChatChannel.kind: ChatChannel(),
    PushChannel.kind: PushChannel(),
}


def pinging() -> list[Channel]:
    """The channels that ping (every one but email, which writes rows of its own)."""
    return [c for kind, c in CHANNELS.items() if kind != EmailChannel.kind]
