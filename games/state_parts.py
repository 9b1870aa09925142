"""Game states stored without their card catalogues: each catalogue is stored once, by its hash.

A title's state carries its card catalogue (Café Baras: 33 KB of a 36 KB state) so the pure
engine needs nothing else. Written with every answer and read with every page, that catalogue
was most of the cost of an answer. A title names those fixed parts (`shared_state_keys`); the
Game.state column keeps `{"$parts": {key: sha256}}` in their place, the SharedPart table holds
each catalogue once for every game that uses it, and loading puts them back. Code that reads
`game.state` sees the whole state, as before.

Content addressing keeps this correct whatever an engine does: a part that changed is simply a
new part. Parts are never deleted, so a process may remember which ones are stored.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from typing import Any

import orjson
from django.db import models, transaction

MARK = "$parts"
_MEMO_SIZE = 64

# id(value) -> (value, digest): the same catalogue object travels from state to state unchanged,
# so its hash is computed once (the value is kept so its id cannot be reused by another object)
_digests: OrderedDict[int, tuple[Any, str]] = OrderedDict()
_data: OrderedDict[str, Any] = OrderedDict()  # digest -> data, for loading
_stored: set[str] = set()  # digests known to be committed to SharedPart
_unconfirmed: set[str] = set()  # digests this process inserted in a transaction not known to have committed
_lock = threading.Lock()


def shared_keys() -> frozenset[str]:
    from games.titles import titles

    return frozenset(k for t in titles() for k in t.shared_state_keys)


def _remember(memo: OrderedDict, key, value) -> None:
    with _lock:  # web threads and sweep threads share these memos
        memo[key] = value
        memo.move_to_end(key)
        while len(memo) > _MEMO_SIZE:
            memo.popitem(last=False)


def _digest(value: Any) -> str:
    known = _digests.get(id(value))
    if known is not None and known[0] is value:
        return known[1]
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(text.encode()).hexdigest()
    _remember(_digests, id(value), (value, digest))
    _remember(_data, digest, value)
    return digest


def _store(digest: str, value: Any) -> None:
    """Make sure the part is in the table, in the caller's transaction.

    A part this transaction can see (stored before, or earlier in it) is not sent again; a process
    remembers a part only once a transaction that needed it has committed, so a rollback never
    leaves it believing in a part that is not there.
    """
    if digest in _stored:
        return
    if not SharedPart.objects.filter(digest=digest).exists():
        _unconfirmed.add(digest)
        SharedPart.objects.bulk_create([SharedPart(digest=digest, data=value)], ignore_conflicts=True)
    transaction.on_commit(lambda: _confirm(digest))


def _confirm(digest: str) -> None:
    _stored.add(digest)
    _unconfirmed.discard(digest)


def pack(state: Any) -> Any:
    """The state as stored: each shared part replaced by its hash (the part stored if new)."""
    if not isinstance(state, dict) or MARK in state:
        return state
    keys = [k for k in shared_keys() if isinstance(state.get(k), dict | list)]
    if not keys:
        return state
    refs = {}
    for key in keys:
        refs[key] = _digest(state[key])
        _store(refs[key], state[key])
    return {**{k: v for k, v in state.items() if k not in refs}, MARK: refs}


def unpack(stored: Any) -> Any:
    """The whole state from its stored form."""
    if not isinstance(stored, dict) or MARK not in stored:
        return stored
    refs = stored[MARK]
    found = {digest: _data.get(digest) for digest in refs.values()}
    missing = [digest for digest, data in found.items() if data is None]
    if missing:
        for part in SharedPart.objects.filter(digest__in=missing):
            found[part.digest] = part.data
            _remember(_data, part.digest, part.data)
            if part.digest not in _unconfirmed:
                # a row read that this process did not write uncommitted was committed, and parts are
                # never deleted: a sweep's batch then packs its 250 states without asking 250 times
                _stored.add(part.digest)
    state = {k: v for k, v in stored.items() if k != MARK}
    for key, digest in refs.items():
        if found.get(digest) is None:
            raise LookupError(f"game state part {key!r} ({digest}) is not in the shared parts table")
        state[key] = found[digest]
    return state


def forget() -> None:
    """Forget what this process knows is stored (tests that empty the database between tests)."""
    _digests.clear()
    _data.clear()
    _stored.clear()
    _unconfirmed.clear()


class SharedPart(models.Model):
    """A fixed part of game states (a card catalogue), stored once for every game that carries it."""

    digest = models.CharField(max_length=64, primary_key=True)
    data = models.JSONField()

    class Meta:
        app_label = "games"

    def __str__(self) -> str:
        return self.digest[:12]


class StateField(models.JSONField):
    """A JSONField for game states that stores shared parts once (see the module's docstring)."""

    def get_prep_value(self, value):
        return super().get_prep_value(pack(value))

    def from_db_value(self, value, expression, connection):
        if isinstance(value, str | bytes):
            # orjson: a long game's state (its log grows with every step) decodes several times faster
            return unpack(orjson.loads(value))
        return unpack(super().from_db_value(value, expression, connection))
