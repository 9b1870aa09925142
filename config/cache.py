"""Django's Redis cache, failing soft: with Redis down or hung, the cache is this process's memory.

The cache is a help, not a need (issue 22: with Redis stopped, half the page loads were server
errors). Every operation that Redis cannot answer (any redis error: refused, timed out, loading,
out of memory...) is answered by a per-process in-memory cache instead: a read of a key Redis held
is a miss, and counts (django-ratelimit's add and incr) go on in this process's memory, so every
rate limit still holds in each web process (at most N times the limit with N processes) and
sign-in keeps working. After a failure Redis is left alone for `BREAKER_SECONDS`, so requests do
not each pay a connection attempt; then one request tries it again. A warning is logged once per
outage, and once when Redis is back.

Keys written while Redis was away (set, add, incr, delete...) are deleted from Redis when it is
back, before anything else is read from it: it never answers with a value older than one written
meanwhile (a card set renamed during the outage, a count restarted). Timeouts on connecting and
reading (OPTIONS socket_connect_timeout, socket_timeout) bound each try; the defaults below apply
when settings name none.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

BREAKER_SECONDS = 5.0  # after a failure, Redis is left alone this long
SOCKET_TIMEOUTS = {"socket_connect_timeout": 0.3, "socket_timeout": 0.3}  # each try waits at most this
FALLBACK_ENTRIES = 10_000  # the per-process cache's size: rate-limit counts must not be culled early
DIRTY_KEYS = 10_000  # keys written during an outage remembered for deletion from Redis when it is back


class _Outage:
    """Whether Redis is being left alone, and the keys to delete from it when it is back.

    One per Redis location and process, shared by the threads' cache instances (Django makes one
    per thread).
    """

    def __init__(self, pause: float) -> None:
        self.pause = pause
        self.lock = threading.Lock()
        self.since: float | None = None  # monotonic time of the first failure, None while Redis answers
        self.retry_at = 0.0  # Redis is not tried before this (monotonic)
        self.dirty: set[str] = set()
        self.overflowed = False

    def should_try(self) -> bool:
        """True when Redis is up, or the pause is over and this caller is the one to try it again."""
        if self.since is None:
            return True
        with self.lock:
            now = time.monotonic()
            if self.since is None:
                return True
            if now < self.retry_at:
                return False
            self.retry_at = now + self.pause  # the others keep to memory while this one tries
            return True

    def failed(self, error: Exception) -> None:
        with self.lock:
            now = time.monotonic()
            self.retry_at = now + self.pause
            if self.since is None:
                self.since = now
                log.warning(
                    "Redis cache unreachable (%s: %s): answering from this process's memory, "
                    "trying Redis again every %g s",
                    type(error).__name__,
                    error,
                    self.pause,
                )

    def back(self, cleaned: int) -> None:
        with self.lock:
            if self.dirty:  # another thread wrote to memory meanwhile: the next call cleans those too
                self.retry_at = 0.0
                return
            if self.since is not None:
                log.warning(
                    "Redis cache back after %.1f s; %d keys written meanwhile deleted from it%s",
                    time.monotonic() - self.since,
                    cleaned,
                    " (more were written than remembered: some may read stale until they expire)"
                    if self.overflowed
                    else "",
                )
            self.since, self.overflowed = None, False

    def wrote(self, keys: Iterable[str]) -> None:
        with self.lock:
            for key in keys:
                if len(self.dirty) >= DIRTY_KEYS:
                    self.overflowed = True
                    return
                self.dirty.add(key)

    def take_dirty(self) -> list[str]:
        with self.lock:
            keys, self.dirty = list(self.dirty), set()
            return keys


_outages: dict[str, _Outage] = {}
_outages_lock = threading.Lock()


def _outage_for(location: str, pause: float) -> _Outage:
    with _outages_lock:
        return _outages.setdefault(location, _Outage(pause))


class _Memory(LocMemCache):
    """The per-process stand-in. incr of a key it does not hold counts from zero: during an outage,
    a count Redis holds cannot be read, and it restarts here (django-ratelimit adds a key before it
    increments it, so this only happens when Redis fails between the two)."""

    def incr(self, key: str, delta: int = 1, version: int | None = None) -> int:
        self.add(key, 0, version=version)
        return super().incr(key, delta, version)


class FailSoftRedisCache(RedisCache):
    """RedisCache whose every operation falls back to this process's memory when Redis fails.

    OPTIONS as RedisCache's (passed to redis-py's connection pool), plus BREAKER_SECONDS.
    """

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS") or {})
        pause = float(options.pop("BREAKER_SECONDS", BREAKER_SECONDS))
        options = {**SOCKET_TIMEOUTS, **options}
        super().__init__(server, {**params, "OPTIONS": options})
        location = server if isinstance(server, str) else ",".join(server)
        self._outage = _outage_for(location, pause)
        shared = {k: params[k] for k in ("TIMEOUT", "KEY_PREFIX", "VERSION", "KEY_FUNCTION") if k in params}
        self._memory = _Memory(f"fail-soft:{location}", {**shared, "OPTIONS": {"MAX_ENTRIES": FALLBACK_ENTRIES}})

    def _either(
        self,
        name: str,
        *args: Any,
        writes: Iterable[str] = (),
        version: int | None = None,
        fallback: Callable[..., Any] | None = None,
    ) -> Any:
        """Redis's answer to `name(*args)`, or, when Redis fails or is being left alone, memory's
        (the keys in `writes` are then remembered for deletion from Redis once it is back)."""
        if self._outage.should_try():
            try:
                # after an outage, Redis may hold older values of what was written meanwhile
                cleaned = self._clean() if self._outage.since is not None else None
                result = getattr(super(), name)(*args)
            except RedisError as e:
                self._outage.failed(e)
            else:
                if cleaned is not None:
                    self._outage.back(cleaned)
                return result
        if writes:
            self._outage.wrote(self.make_key(key, version=version) for key in writes)
        return (fallback or getattr(self._memory, name))(*args)

    def _clean(self) -> int:
        """Delete from Redis the keys written while it was away; how many."""
        keys = self._outage.take_dirty()
        try:
            if keys:
                self._cache.delete_many(keys)
        except RedisError:
            self._outage.wrote(keys)
            raise
        return len(keys)

    def add(self, key: str, value: Any, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._either("add", key, value, timeout, version, writes=[key], version=version)

    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        return self._either("get", key, default, version)

    def set(self, key: str, value: Any, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        return self._either("set", key, value, timeout, version, writes=[key], version=version)

    def touch(self, key: str, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._either("touch", key, timeout, version, writes=[key], version=version)

    def delete(self, key: str, version: int | None = None) -> bool:
        return self._either("delete", key, version, writes=[key], version=version)

    def get_many(self, keys: Iterable[str], version: int | None = None) -> dict[str, Any]:
        keys = list(keys)
        return self._either("get_many", keys, version)

    def has_key(self, key: str, version: int | None = None) -> bool:
        return self._either("has_key", key, version)

    def incr(self, key: str, delta: int = 1, version: int | None = None) -> int:
        return self._either("incr", key, delta, version, writes=[key], version=version)

    def set_many(
        self, data: dict[str, Any], timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None
    ) -> list[str]:
        return self._either("set_many", data, timeout, version, writes=list(data), version=version)

    def delete_many(self, keys: Iterable[str], version: int | None = None) -> None:
        keys = list(keys)
        return self._either("delete_many", keys, version, writes=keys, version=version)

    def clear(self) -> bool:
        """Clears Redis, or (while it is away) this process's memory only."""
        return self._either("clear", fallback=lambda: self._memory.clear() or True)
