"""A game's own rows (the game, its seats, its hands) read, and a save's hand and change
inserted, with their SQL written out.

Every save reads the game, locks it, reads its seats and hands, looks whether its request id
belonged to a deleted hand, and inserts the hand and its change; every first view of a version
reads the game, its seats and its hands. Through the ORM, building those statements and running
each field's converters row by row cost more than scoring the game, and the tournament night's
load test came out slower with them (docs/design/performance.md), so they are written out, as
the ETag check's query is (``games.selectors.games``). Every table and column is named from the
models' ``_meta`` (:func:`column`, :func:`equals`), never by hand.

The instances are the ORM's own: every concrete field read (nothing deferred), each value as
the ORM gives it on SQLite and PostgreSQL alike, made by ``from_db``, so they save, refresh and
compare as any other; an insert prepares each value with its own field, as ``save()`` does.
tests/games/test_rows.py compares them with the ORM's, field by field, on both databases."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import cache
from typing import Any

from django.db import connection, models
from django.utils import timezone

from games.models import Game, Hand, Seat

Convert = Callable[[object], object]


def _json(field: models.JSONField) -> Convert:
    def convert(value: object) -> object:
        # PostgreSQL's driver hands jsonb over as text to Django, as SQLite does.
        return json.loads(value, cls=field.decoder) if isinstance(value, str | bytes) else value

    return convert


def _uuid(value: object) -> object:
    return uuid.UUID(value) if isinstance(value, str) else value  # SQLite keeps 32 hex digits


def aware(value: object) -> object:
    """A time read by a written-out query, as the ORM gives it: SQLite's converter gives a
    naive time in UTC, PostgreSQL's driver an aware one."""
    if isinstance(value, datetime) and timezone.is_naive(value):
        return timezone.make_aware(value, UTC)
    return value


def _converter(field: models.Field[object, object]) -> Convert | None:
    if isinstance(field, models.JSONField):
        return _json(field)
    if isinstance(field, models.UUIDField):
        return _uuid
    if isinstance(field, models.DateTimeField):
        return aware
    return None  # integers, text and booleans come as the ORM gives them


@cache
def _fields(model: type[models.Model]) -> tuple[list[str], list[str], list[Convert | None]]:
    """``model``'s concrete fields: attribute names, quoted columns, converters."""
    fields = model._meta.concrete_fields
    quote = connection.ops.quote_name
    return (
        [f.attname for f in fields],
        [quote(str(f.column)) for f in fields],
        [_converter(f) for f in fields],
    )


def columns(model: type[models.Model], alias: str) -> str:
    """Every column of ``model``, in field order, as ``alias.column`` for a SELECT list."""
    return ", ".join(f"{alias}.{column}" for column in _fields(model)[1])


def column(model: type[models.Model], name: str, alias: str = "") -> str:
    """The column of ``model``'s field ``name`` (as its model names it), quoted, after
    ``alias.`` if given: statements written out name no column by hand."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    quoted = connection.ops.quote_name(str(field.column))
    return f"{alias}.{quoted}" if alias else quoted


def equals(model: type[models.Model], *names: str) -> str:
    """A WHERE clause for :func:`select` and :func:`exists`: each of these fields equals its
    parameter, in this order."""
    return " AND ".join(f"{column(model, name, 't')} = %s" for name in names)


def table(model: type[models.Model]) -> str:
    """``model``'s table, quoted."""
    return connection.ops.quote_name(model._meta.db_table)


def width(model: type[models.Model]) -> int:
    """How many values of a row :func:`columns` selects."""
    return len(_fields(model)[0])


def instance[M: models.Model](model: type[M], values: Sequence[object]) -> M:
    """The instance of a row read through :func:`columns`, as the ORM would make it."""
    names, _, converters = _fields(model)
    converted = [
        value if convert is None or value is None else convert(value)
        for convert, value in zip(converters, values, strict=True)
    ]
    return model.from_db(connection.alias, names, converted)


@cache
def _select(model: type[models.Model], where: str, order: str, lock: bool) -> str:
    sql = f"SELECT {columns(model, 't')} FROM {table(model)} t WHERE {where}"
    if order:
        sql += f" ORDER BY {column(model, order, 't')}"
    if lock and connection.features.has_select_for_no_key_update:  # SQLite: the transaction locks
        # Not FOR UPDATE: the worker's derived rows and the marks refer to the locked row, and
        # their foreign key checks must not wait for a write that then waits for the worker.
        sql += " FOR NO KEY UPDATE"
    elif lock and connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    return sql


def select[M: models.Model](
    model: type[M], where: str, params: Sequence[int | str], *, order: str = "", lock: bool = False
) -> list[M]:
    """``model``'s rows ``WHERE where`` (columns named ``t.column``: :func:`equals`), in
    ``order`` (a field)."""
    with connection.cursor() as cursor:
        cursor.execute(_select(model, where, order, lock), params)
        return [instance(model, row) for row in cursor.fetchall()]


def seats(game: Game) -> list[Seat]:
    """The game's seats in seat order."""
    return select(Seat, equals(Seat, "game"), [game.pk], order="position")


def hands(game: Game) -> list[Hand]:
    """The game's hands in number order (the sheet's order)."""
    return select(Hand, equals(Hand, "game"), [game.pk], order="number")


def exists(model: type[models.Model], where: str, params: Sequence[Any]) -> bool:
    """Whether ``model`` has a row ``WHERE where`` (columns named ``t.column``)."""
    with connection.cursor() as cursor:
        cursor.execute(_exists(model, where), params)
        return cursor.fetchone() is not None


@cache
def _exists(model: type[models.Model], where: str) -> str:
    return f"SELECT 1 FROM {table(model)} t WHERE {where} LIMIT 1"


def param(model: type[models.Model], name: str, value: object) -> object:
    """``value`` as a query's parameter for ``model``'s field ``name`` (a UUID is text on
    SQLite), prepared by the field as the ORM prepares it."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    return field.get_db_prep_value(value, connection)


def insert[M: models.Model](instance: M) -> M:
    """Insert ``instance`` as its ``save()`` inserts a new one (times it sets itself set, each
    value prepared by its field, its id read back), with the statement written out. Sends no
    ``pre_save``/``post_save`` signal: nothing listens for them on the models this inserts."""
    fields = _inserted(type(instance))
    values = [field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(_insert(type(instance)), values)
        (instance.pk,) = cursor.fetchone()
    instance._state.adding = False
    instance._state.db = connection.alias
    return instance


def _inserted(model: type[models.Model]) -> list[models.Field[object, object]]:
    return [field for field in model._meta.concrete_fields if not field.primary_key]


@cache
def _insert(model: type[models.Model]) -> str:
    quote = connection.ops.quote_name
    names = ", ".join(quote(str(field.column)) for field in _inserted(model))
    marks = ", ".join(["%s"] * len(_inserted(model)))
    returning = quote(str(model._meta.pk.column))
    return f"INSERT INTO {quote(model._meta.db_table)} ({names}) VALUES ({marks}) RETURNING {returning}"


@cache
def evening_sql() -> str:
    """The ids of the games linked to one, both ways, by rematches and by a scorekeeper's
    putting a game in another's evening: every game reachable from it by either link."""
    game, gid = table(Game), column(Game, "id")
    parent, evening = column(Game, "rematch_of"), column(Game, "evening")
    linked = f"x.{gid} = p.{parent} OR x.{parent} = p.{gid} OR x.{gid} = p.{evening} OR x.{evening} = p.{gid}"
    return (
        # The first term reads the id from the table, so both terms have the column's type.
        f"WITH RECURSIVE linked(gid) AS (SELECT {gid} FROM {game} WHERE {gid} = %s "
        f"UNION SELECT x.{gid} FROM linked JOIN {game} p ON p.{gid} = linked.gid JOIN {game} x ON {linked}) "
        f"SELECT gid FROM linked"
    )
