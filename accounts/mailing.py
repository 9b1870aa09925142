"""What accounts asks of the layer above it: mail a person their sign-in link.

accounts is the lowest layer and imports nothing of games, yet a sign-in link goes out as an
outbox row like every other email (games.notify.sign_in, sent by games.mail). So accounts asks
here, and games says how when its app is ready (games/apps.py calls `implement`), the way
games.dispatch is implemented by games.tasks. Asking before anything implemented it raises:
a sign-in link is never dropped in silence.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_handlers: dict[str, Callable[..., Any]] = {}


def implement(*, sign_in: Callable[[Any], Any]) -> None:
    """Called once by games/apps.py: sign_in(user) writes the outbox row of a sign-in link."""
    _handlers["sign_in"] = sign_in


def mail_sign_in(user) -> None:
    """Mail this person a one-time sign-in link (in the caller's transaction, sent after commit)."""
    try:
        handler = _handlers["sign_in"]
    except KeyError:
        raise RuntimeError("no sign-in mailer: games/apps.py did not implement accounts.mailing") from None
    handler(user)
