"""Django's PostgreSQL backend, tuned for the write path's bulk writes of large JSON values.

The sweep writes hundreds of game states (a few KB of JSON each) and outbox rows (their frozen
email context) per transaction. Measured in bench/sweep.py's batches, the stock backend spent
most of that time in Python, not in the database: json.dumps, quoting every value into the SQL
text, and escaping those values again into array literals for Django's UNNEST bulk insert. This
backend changes only how values travel:

- JSON is encoded by orjson (stdlib json where orjson refuses a value, e.g. a lone surrogate or an
  integer wider than 64 bits, so what is accepted and stored is unchanged);
- server-side parameter binding is switched on in settings (OPTIONS["server_side_binding"]): the
  write path's bulk writes (games/pending.py) send their columns as binary arrays, which needs it.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.db.backends.postgresql import base, operations
from psycopg.types.json import Jsonb


def dumps(value: Any) -> str:
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # what orjson refuses, json decides (and refuses with its own message)
        return json.dumps(value)


class DatabaseOperations(operations.DatabaseOperations):
    def adapt_json_value(self, value: Any, encoder: type[json.JSONEncoder] | None) -> Any:
        if encoder is not None:  # a field with its own encoder keeps it
            return super().adapt_json_value(value, encoder)
        return Jsonb(value, dumps=dumps)


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
