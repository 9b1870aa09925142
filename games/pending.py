"""The rows a step of the write path writes, held back and written in bulk at the end.

A timeout, an answer or a planned answer appends an event, moves the game's projection, changes
a few seats and writes outbox rows. One at a time that is a dozen round trips; the sweep times out
thousands of seats a minute. Inside `held()` the write path records its writes here instead, and
`flush()` sends them as one INSERT per table and one version-guarded UPDATE for all the games:
the same rows, in the same transaction, in a handful of round trips. Outside `held()` every helper
writes at once, as before.

The write path (games/actions/) stays the only writer: it calls these helpers, nothing else does.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, connection

from . import dispatch
from .models import Event, Game, Notification, Seat

_local = threading.local()


@dataclass
class Writes:
    events: list[Event] = field(default_factory=list)
    # game pk -> (the game, the version the step read under its lock, the names of the fields changed)
    games: dict[int, tuple[Game, int, set[str]]] = field(default_factory=dict)
    # seat pk -> (the seat, the names of the fields changed on it)
    seats: dict[int, tuple[Seat, set[str]]] = field(default_factory=dict)
    notes: list[Notification] = field(default_factory=list)
    # other new rows the step adds (e.g. vacation hours the sweep draws), inserted per model
    rows: list = field(default_factory=list)
    # other rows the step changes (e.g. a drawn vacation extended by the next hours): (model, pk) ->
    # (an object holding the new values, the names of the fields changed)
    changed: dict[tuple[type, int], tuple[Any, set[str]]] = field(default_factory=dict)
    # work a module defers to the flush, done once for the whole step or batch (games.notify's pings:
    # one query for every seat's targets); each may add rows above
    before_flush: list[Callable[[Writes], None]] = field(default_factory=list)

    def flush(self) -> None:
        for prepare in self.before_flush:
            prepare(self)
        self.before_flush = []
        if self.events:
            _insert_rows(Event, self.events)
        for model in {type(row) for row in self.rows}:
            _insert_rows(model, [row for row in self.rows if type(row) is model])
        for model in {model for model, _ in self.changed}:
            held = [(obj, names) for (m, _), (obj, names) in self.changed.items() if m is model]
            _update_rows(model, [(obj, None) for obj, _ in held], sorted(set().union(*(n for _, n in held))))
        if self.games:
            names = set().union(*(n for _, _, n in self.games.values()))
            rows = [(game, read) for game, read, _ in self.games.values()]
            if _update_rows(Game, rows, sorted(names), guarded=True) != len(rows):
                raise IntegrityError("version moved")
        if self.seats:
            names = set().union(*(n for _, n in self.seats.values()))
            _update_rows(Seat, [(seat, None) for seat, _ in self.seats.values()], sorted(names))
        if self.notes:
            _insert_rows(Notification, self.notes)
            dispatch.send_after_commit([n.pk for n in self.notes])
        self.events, self.games, self.seats, self.notes, self.rows, self.changed = [], {}, {}, [], [], {}


def _insert_rows(model, objs: list) -> None:
    """Insert the objects in one statement and set their primary keys (as bulk_create does).

    PostgreSQL gets INSERT ... SELECT FROM unnest(...) with each column one array in binary form:
    the SQL stays the same length whatever the number of rows (psycopg parses it once), and JSON
    values travel without being escaped into array or SQL literals (issue 13's note has the figures).
    SQLite, in process, gets Django's bulk_create.
    """
    if connection.vendor != "postgresql":
        model.objects.bulk_create(objs)
        return
    meta = model._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    columns = [[f.get_db_prep_save(f.pre_save(obj, True), connection) for obj in objs] for f in fields]
    qn = connection.ops.quote_name
    sql = (
        f"INSERT INTO {qn(meta.db_table)} ({', '.join(qn(f.column) for f in fields)}) "
        f"SELECT * FROM unnest({_arrays(fields)}) RETURNING {qn(meta.pk.column)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, columns)
        pks = [row[0] for row in cursor.fetchall()]
    for obj, pk in zip(objs, pks, strict=True):
        obj.pk = pk
        obj._state.adding, obj._state.db = False, connection.alias


def _update_rows(model, rows: list[tuple[Any, int | None]], names: list[str], guarded: bool = False) -> int:
    """The named fields of every row, from each object, in one statement; returns the rows changed.

    `guarded` rows change only where `version` is still the one given. PostgreSQL gets one
    UPDATE ... FROM unnest(...) for all the rows, its columns as binary arrays (see _insert_rows);
    SQLite, in process, one statement per row. (Django's bulk_update builds a CASE per field and
    row, which costs more than the steps themselves.)
    """
    qn = connection.ops.quote_name
    fields = [model._meta.get_field(name) for name in names]
    table = qn(model._meta.db_table)
    if connection.vendor == "postgresql":
        columns = [[f.get_db_prep_save(getattr(obj, f.attname), connection) for obj, _ in rows] for f in fields]
        columns.append([obj.pk for obj, _ in rows])
        names_in = [f"c{i}" for i in range(len(fields))] + ["id"]
        types = _arrays(fields) + ", %b::bigint[]"
        if guarded:
            columns.append([read for _, read in rows])
            names_in.append("read")
            types += ", %b::integer[]"
        sets = ", ".join(f"{qn(f.column)} = v.c{i}" for i, f in enumerate(fields))
        where = f"{table}.id = v.id" + (f" AND {table}.version = v.read" if guarded else "")
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} SET {sets} FROM unnest({types}) AS v({', '.join(names_in)}) WHERE {where}", columns
            )
            return cursor.rowcount
    params: list[Any] = []
    for obj, read in rows:
        params += [f.get_db_prep_save(getattr(obj, f.attname), connection) for f in fields]
        params += [obj.pk, read] if guarded else [obj.pk]
    width = len(fields) + (2 if guarded else 1)
    sql = f"UPDATE {table} SET {', '.join(f'{qn(f.column)} = %s' for f in fields)} WHERE id = %s"
    if guarded:
        sql += " AND version = %s"
    with connection.cursor() as cursor:
        cursor.executemany(sql, [params[i : i + width] for i in range(0, len(params), width)])
        return cursor.rowcount


def _arrays(fields) -> str:
    """One binary array placeholder per field, cast to its column's type (without a length: no silent cuts)."""
    return ", ".join(f"%b::{f.db_type(connection).split('(')[0]}[]" for f in fields)


def current() -> Writes | None:
    return getattr(_local, "writes", None)


@contextmanager
def held() -> Iterator[Writes]:
    """Hold the write path's writes until the block ends, then flush them (inside the caller's transaction).

    Nested use joins the outer block. If the block raises, nothing held is written.
    """
    outer = current()
    if outer is not None:
        yield outer
        return
    writes = _local.writes = Writes()
    try:
        yield writes
        writes.flush()
    finally:
        _local.writes = None


# --- the helpers the write path calls -----------------------------------------------------------


def add_event(event: Event) -> Event:
    writes = current()
    if writes is None:
        event.save(force_insert=True)
    else:
        writes.events.append(event)
    return event


def add_row(row) -> None:
    """A new row of another table (saved now, or at the flush with the others of its model)."""
    writes = current()
    if writes is None:
        row.save(force_insert=True)
    else:
        writes.rows.append(row)


def update_row(row, **fields: Any) -> None:
    """Set fields on a row of another table (now, or at the flush with the others of its model).
    Every field a flush names for a model is written from each held object, so hold the whole row
    or change the same fields on every row of one model."""
    for name, value in fields.items():
        setattr(row, name, value)
    writes = current()
    if writes is None:
        type(row).objects.filter(pk=row.pk).update(**fields)
        return
    key = (type(row), row.pk)
    held_row, names = writes.changed.get(key, (row, set()))
    if held_row is not row:
        for name, value in fields.items():
            setattr(held_row, name, value)
    writes.changed[key] = (held_row, names | set(fields))


def update_game(game: Game, **fields: Any) -> None:
    """Set fields on the game object and its row, if the row's version is still the object's (else IntegrityError)."""
    read_version = game.version
    for name, value in fields.items():
        setattr(game, name, value)
    writes = current()
    if writes is None:
        if Game.objects.filter(pk=game.pk, version=read_version).update(**fields) != 1:
            raise IntegrityError("version moved")
        return
    held_game, read, names = writes.games.get(game.pk, (game, read_version, set()))
    if held_game is not game:
        raise RuntimeError("one game row held through two objects")
    writes.games[game.pk] = (game, read, names | set(fields))


def update_seat(seat: Seat, **fields: Any) -> None:
    """Set fields on the seat object and its row (now, or at the flush)."""
    for name, value in fields.items():
        setattr(seat, name, value)
    writes = current()
    if writes is None:
        Seat.objects.filter(pk=seat.pk).update(**fields)
        return
    held_seat, names = writes.seats.get(seat.pk, (seat, set()))
    if held_seat is not seat:  # the same row held through another object: keep one, with both changes
        for name, value in fields.items():
            setattr(held_seat, name, value)
    writes.seats[seat.pk] = (held_seat, names | set(fields))
