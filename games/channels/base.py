"""The seam every channel sits behind (as healthchecks' transports): one base, one error type.

A notification is a message to a person (or a game's shared chat) about a game, written to the
outbox (`games.models.Notification`) in the transaction of its cause, with what it shows frozen as
JSON. A channel turns such a row into what it delivers (an email, a push payload, a chat post) and
hands it over; the outbox around it (claiming, a lease, retries with backoff, giving up) is the
same for every channel, so a worker that dies mid-send loses nothing and a repeat carries the same
idempotency key (the row's Message-ID).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

from .ping import Ping, idempotency_key, ping_of

__all__ = ["Channel", "ChannelError", "Ping", "PingChannel"]


class ChannelError(Exception):
    """A delivery that failed. `permanent`: trying again cannot help (a gone push subscription, a
    deleted webhook, a mailbox that does not exist), so the row is given up and the target turned
    off; otherwise the row is retried with backoff. `unreachable`: the far end did not answer at
    all, so the rest of a batch to it would only wait as long."""

    def __init__(self, reason: str, *, permanent: bool = False, unreachable: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason[:300]
        self.permanent = permanent
        self.unreachable = unreachable


class Channel(ABC):
    """One kind of delivery. Subclasses set `kind` and `label`, say where a person's targets are
    (`targets_for`, `target`, `turn_off`), and implement `deliver` (a channel that renders a whole
    row itself, as email does) or, as a PingChannel, `send_ping`."""

    kind: ClassVar[str] = ""
    label: ClassVar[str] = ""

    def targets_for(self, user: Any) -> list[Any]:
        """This person's working targets of this kind (devices, webhooks), to fan a ping out to."""
        return []

    def target(self, target_id: int) -> Any | None:
        """One target by its id, or None if it is gone (the row is then given up, not retried)."""
        return None

    def turn_off(self, target: Any, reason: str) -> None:
        """A permanent error: stop using this target and keep the reason for the person's profile.
        A channel whose targets cannot be turned off (email: its address is marked by bounces) keeps
        this default."""
        return None

    def game_targets(self, game: Any) -> list[Any]:
        """A game's own working targets of this kind (a group's shared chat): none by default."""
        return []

    def targets_for_many(self, users: list[Any]) -> dict[Any, list[Any]]:
        """`targets_for` of many people at once, by user pk (a sweep batch pings many seats in one
        flush: override with one query)."""
        return {u.pk: self.targets_for(u) for u in users}

    def game_targets_many(self, games: list[Any]) -> dict[Any, list[Any]]:
        """`game_targets` of many games at once, by game pk (override with one query)."""
        return {g.pk: self.game_targets(g) for g in games}

    def targets_of(self, users: list[Any], games: list[Any]) -> tuple[dict[Any, list[Any]], dict[Any, list[Any]]]:
        """Both at once: (by user pk, by game pk); a channel whose targets share a table overrides it
        with one query, since it runs for every wait that starts."""
        return self.targets_for_many(users), self.game_targets_many(games)

    def prepare(self, note: Any) -> str | None:
        """Called as a row is claimed: a reason not to send it at all (the row is given up), or None."""
        return None

    def gave_up(self, note: Any, target: Any, error: ChannelError) -> None:
        """A permanent error on this row: by default the target is turned off with its reason."""
        if target is not None:
            self.turn_off(target, error.reason)

    def failed(self, target: Any, reason: str) -> None:
        """A temporary error (retried with backoff): a channel may keep it for the owner to see."""
        return None

    @abstractmethod
    def deliver(self, note: Any, target: Any) -> str:
        """Hand an outbox row to its target; returns an id the far end gave (or ""). Raises
        ChannelError on failure; never logs or shows a secret of the target (a webhook URL, keys)."""


class PingChannel(Channel):
    """A short channel (push, chat): says a row as a Ping, the same words for every such channel."""

    def deliver(self, note: Any, target: Any) -> str:
        return self.send_ping(ping_of(note), target, idempotency_key(note))

    @abstractmethod
    def send_ping(self, ping: Ping, target: Any, key: str) -> str:
        """Deliver a ping; `key` is the same on every try of one row (a repeat can be dropped by it)."""
