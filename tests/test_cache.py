"""Redis down (issue 22): the cache is a help, not a need, and queueing after commit stays quick.

config/cache.py answers what Redis cannot from this process's memory: a read is a miss, writes and
counts go on in memory (so django-ratelimit's limits hold in each process), Redis is left alone for
a few seconds after a failure, and keys written meanwhile are deleted from it when it is back.
games/dispatch.py leaves a task the broker would not take to beat's sweep without failing the
change that committed.
"""

from __future__ import annotations

import logging
import socket
import time
import uuid
from collections.abc import Iterator

import pytest
import redis
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from accounts import limits
from config import cache as fail_soft
from config.cache import FailSoftRedisCache
from games import dispatch, links, tasks
from games.models import Notification

REAL_REDIS = "redis://127.0.0.1:6379/14"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(autouse=True)
def _fresh_outages() -> Iterator[None]:
    """Each test its own view of Redis's health (it is kept per process and location)."""
    fail_soft._outages.clear()
    yield
    fail_soft._outages.clear()


@pytest.fixture
def refused() -> str:
    """A Redis URL on 127.0.0.1 that nobody listens on: every connection is refused."""
    return f"redis://127.0.0.1:{free_port()}/0"


def backend(location: str, breaker: float = 5.0) -> FailSoftRedisCache:
    return FailSoftRedisCache(
        location, {"KEY_PREFIX": f"test-{uuid.uuid4().hex[:8]}", "OPTIONS": {"BREAKER_SECONDS": breaker}}
    )


def count_redis_calls(cache: FailSoftRedisCache) -> list[str]:
    """The names of the calls that reach the Redis client from now on."""
    calls: list[str] = []
    client = cache._cache
    for name in ("get", "set", "add", "incr", "delete", "delete_many"):
        real = getattr(client, name)

        def counted(*args, _real=real, _name=name):
            calls.append(_name)
            return _real(*args)

        setattr(client, name, counted)
    return calls


def test_with_redis_refusing_a_read_is_a_miss_and_writes_and_counts_go_to_memory(refused, caplog):
    cache = backend(refused)
    with caplog.at_level(logging.WARNING, logger="config.cache"):
        assert cache.get("seen") is None
        assert cache.get("seen", "default") == "default"
        cache.set("seen", {"a": 1}, 60)
        assert cache.get("seen") == {"a": 1}
        assert cache.add("count", 1, 60) is True
        assert cache.add("count", 1, 60) is False
        assert cache.incr("count") == 2
        assert cache.decr("count") == 1
        assert cache.has_key("count") and cache.touch("count", 60)
        assert cache.set_many({"x": 1, "y": 2}) == []
        assert cache.get_many(["x", "y", "z"]) == {"x": 1, "y": 2}
        assert cache.get_or_set("z", 3) == 3
        cache.delete_many(["x", "y"])
        assert cache.delete("z") is True and cache.get_many(["x", "y", "z"]) == {}
    unreachable = [r for r in caplog.records if "unreachable" in r.getMessage()]
    assert len(unreachable) == 1, "one warning an outage, not one a request"


def test_memory_and_the_breaker_are_shared_by_the_threads_of_a_process(refused):
    """Django makes a cache instance per thread: a count made in one is seen by the others."""
    params = {"KEY_PREFIX": "shared", "OPTIONS": {"BREAKER_SECONDS": 5}}
    one, other = FailSoftRedisCache(refused, params), FailSoftRedisCache(refused, params)
    calls = count_redis_calls(other)
    assert one.add("n", 1)
    assert other.incr("n") == 2
    assert calls == [], "the other thread's instance knew Redis was down"


def test_the_sign_in_limit_still_limits_and_sign_in_works_with_redis_refusing(settings, refused, make_game):
    settings.CACHES = {"default": {"BACKEND": "config.cache.FailSoftRedisCache", "LOCATION": refused}}
    assert not getattr(settings, "RATELIMIT_FAIL_OPEN", False), "a count that cannot be made refuses"
    assert isinstance(caches["default"], FailSoftRedisCache)
    client = Client()
    assert client.get("/sign-in/").status_code == 200
    per_address = int(limits.MAIL_PER_ADDRESS.split("/")[0])
    for _ in range(per_address):
        assert client.post("/sign-in/", {"email": "ana@example.com"}).status_code == 200
    assert client.post("/sign-in/", {"email": "ana@example.com"}).status_code == 429
    per_client = int(limits.MAIL_PER_CLIENT.split("/")[0])
    one_machine = Client(REMOTE_ADDR="10.0.0.7")
    for i in range(per_client):
        assert one_machine.post("/sign-in/", {"email": f"p{i}@example.org"}).status_code == 200
    assert one_machine.post("/sign-in/", {"email": "another@example.org"}).status_code == 429
    # and a seat page, which keeps its undo verdict in the cache, shows
    game = make_game()
    seat_page = reverse("seat", args=[links.token_for(game.seats.get(index=0))])
    assert Client().get(seat_page).status_code == 200


def test_after_a_failure_redis_is_left_alone_for_the_breakers_window(refused):
    cache = backend(refused, breaker=0.3)
    calls = count_redis_calls(cache)
    assert cache.get("k") is None
    assert calls == ["get"]
    cache.set("k", 1)
    cache.add("n", 1)
    cache.incr("n")
    assert cache.get("k") == 1
    assert calls == ["get"], "within the window, no request pays a connection attempt"
    time.sleep(0.35)
    assert cache.get("k") == 1  # memory answers: the one try after the window was refused again
    assert calls[1:] == ["delete_many"], "the try deletes what was written meanwhile, before any read"


def test_a_hung_redis_holds_a_request_up_well_under_a_second():
    """A server that accepts connections and never answers (the socket timeouts bound each try)."""
    with socket.socket() as hung:
        hung.bind(("127.0.0.1", 0))
        hung.listen(16)
        cache = backend(f"redis://127.0.0.1:{hung.getsockname()[1]}/0")
        start = time.monotonic()
        assert cache.get("k", "miss") == "miss"
        assert time.monotonic() - start < 1.0
        start = time.monotonic()
        assert cache.add("n", 1) is True
        assert time.monotonic() - start < 0.05, "within the window memory answers at once"


def test_with_redis_back_the_cache_is_redis_again_and_nothing_reads_stale(caplog):
    try:
        with redis.Redis.from_url(REAL_REDIS, socket_timeout=1) as probe:
            probe.ping()
    except redis.RedisError as e:
        pytest.skip(f"needs Redis at 127.0.0.1:6379 for the 'it is back' part ({e})")
    cache = backend(REAL_REDIS, breaker=0.2)
    client = cache._cache
    try:
        cache.set("name", "old", 60)
        # Redis goes away: the same backend now meets a refused connection
        client._servers, client._pools = [f"redis://127.0.0.1:{free_port()}/0"], {}
        with caplog.at_level(logging.WARNING, logger="config.cache"):
            assert cache.get("name") is None
            cache.set("name", "renamed", 60)  # written while Redis was away
            assert cache.get("name") == "renamed"
            assert cache.add("count", 1) and cache.incr("count") == 2

            # ... and comes back
            client._servers, client._pools = [REAL_REDIS], {}
            time.sleep(0.25)
            assert cache.get("name") is None, "Redis's older value was deleted, not served"
            cache.set("fresh", "from redis", 60)
        with redis.Redis.from_url(REAL_REDIS) as direct:
            assert direct.get(cache.make_key("fresh")) is not None, "writes go to Redis again"
            assert direct.get(cache.make_key("name")) is None
        messages = [r.getMessage() for r in caplog.records]
        assert sum("unreachable" in m for m in messages) == 1
        assert sum("back after" in m for m in messages) == 1
    finally:
        client._servers, client._pools = [REAL_REDIS], {}
        cache.delete_many(["name", "fresh", "count"])


# --- queueing after commit (games/dispatch.py) ------------------------------------------------


class Broker:
    """What reached the broker, and whether it fails (after `fail` seconds) or takes tasks (None)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.fail: float | None = None

    def task(self, name: str):
        def delay(*args) -> None:
            self.sent.append(f"{name} {args[0]}")
            if self.fail is not None:
                time.sleep(self.fail)
                raise ConnectionError("broker down")

        return delay


@pytest.fixture
def broker(settings, monkeypatch) -> Broker:
    """Tasks go to a broker (not eager): this one."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr(dispatch, "_broker", {"skip_until": 0.0, "down_since": None})
    fake = Broker()
    for name in ("advance_bots", "send_notification"):
        monkeypatch.setitem(dispatch._handlers, name, fake.task(name))
    return fake


def test_a_broker_refusing_fails_no_request_and_pauses_nothing(broker, caplog):
    broker.fail = 0.0
    with caplog.at_level(logging.WARNING, logger="games.dispatch"):
        dispatch._queue("advance_bots", 1)
        dispatch._queue("advance_bots", 2)
        broker.fail = None
        dispatch._queue("advance_bots", 3)
    assert broker.sent == ["advance_bots 1", "advance_bots 2", "advance_bots 3"], (
        "each tried: queueing resumes as soon as it is back"
    )
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 2 and "sweep does it later" in messages[0] and "again" in messages[1]


def test_a_hung_broker_is_left_alone_for_a_few_seconds(broker, monkeypatch):
    monkeypatch.setattr(dispatch, "SLOW_FAILURE_SECONDS", 0.05)
    broker.fail = 0.1
    start = time.monotonic()
    for game_id in (1, 2, 3):
        dispatch._queue("advance_bots", game_id)
    assert broker.sent == ["advance_bots 1"] and time.monotonic() - start < 0.5, "one slow try, then the sweep's turn"


@pytest.mark.django_db(transaction=True)
def test_a_game_starts_with_the_broker_down_and_its_mail_waits_for_the_sweep(broker, make_game, settings, caplog):
    broker.fail = 0.0
    with caplog.at_level(logging.WARNING, logger="games.dispatch"):
        game = make_game()
    assert game.status == "active", "the change committed"
    assert len(broker.sent) == 4, "each row's task was tried (two invites, two first moves)"
    assert len([r for r in caplog.records if "sweep does it later" in r.getMessage()]) == 1
    assert Notification.objects.filter(status="pending").count() == 4
    settings.CELERY_TASK_ALWAYS_EAGER = True
    Notification.objects.update(created_at="2000-01-01T00:00:00Z")
    assert tasks.sweep()["mail"] == 4
