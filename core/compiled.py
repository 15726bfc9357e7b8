"""An ORM query compiled to SQL once per process, then run with each call's own ids; and an
ORM INSERT compiled once per shape, then run with each call's own rows (Insert).

A question the window asks on every refresh of every terminal (which slips wait, say), or that an
import asks for every gaming day (who is on the roster, which openers wait for a sign-off), may be
declared with the ORM, where its rules read best, and still cost the ORM's compiling once: on a
small day the compiling of such a query (a CASE per slip type, a count of signatures, two EXISTS)
took several times what the database spent answering it (issues 25 and 27).

The query is built once with a stand-in for each id it takes; its SQL and parameters are kept, and
each run puts the caller's ids where the stand-ins stood. So the rule stays declared in one place,
the ORM's, and what runs is exactly what the ORM wrote for it, its rows converted as the ORM
converts them and, asked for, built into the same model instances (`select_related` included).
"""

import datetime
import inspect
import weakref
from collections.abc import Callable, Iterable

from django.core.exceptions import ImproperlyConfigured
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet
from django.db.models.query import ModelIterable, get_related_populators
from django.db.models.sql import InsertQuery

# The first id's stand-in, the second's one less, and so on: ids no row has (ids are positive),
# and no other parameter of a query is. A text the query takes (an event's slug) stands in as a
# text no row holds, and a moment (a time bound) as a moment of 1901 no slip is written at.
STAND_IN = -720_251_917
MOMENT = datetime.datetime(1901, 7, 20, 5, 1, 9, 720_251, tzinfo=datetime.UTC)


def stand_in(n: int, kind: str = "id") -> int | str | datetime.datetime:
    if kind == "text":
        return f"\x1fstand-in {n}\x1f"
    if kind == "moment":
        return MOMENT + datetime.timedelta(seconds=n)
    return STAND_IN - n


def converted(values: list, converters: Iterable, connection) -> list:
    """`values` (a row's, as a list) with each column's converters applied as the ORM applies
    them: `converters` are (index, (converter functions, expression)), as a compiler gives them."""
    for i, (found, expression) in converters:
        for convert in found:
            values[i] = convert(values[i], expression, connection)
    return values


def _kind(value) -> tuple:
    """A parameter as a stand-in is recognised: by its type and value, a number of any int type
    (not a truth value) as a number."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (int, int(value))
    return (type(value), value)


class _Prepared:
    """The query's SQL and parameters as the ORM wrote them, where each stand-in stood, the
    converters the ORM applies to its columns (a JSON field's text, SQLite's datetimes), and how a
    row becomes a model instance."""

    def __init__(self, queryset: QuerySet, connection, stand_ins: list):
        compiler = queryset.query.get_compiler(connection=connection)
        self.sql, params = compiler.as_sql()
        self.params = tuple(params)
        where = {_kind(value): n for n, value in enumerate(stand_ins)}
        # (position, which id, how the ORM wrapped it): PostgreSQL's driver is handed a number
        # compared with an expression's value as a type of its own (psycopg's Int4, an int).
        self.where = [
            (i, where[_kind(value)], type(value) if isinstance(value, int) and type(value) is not int else None)
            for i, value in enumerate(self.params)
            if _kind(value) in where
        ]
        if {n for _i, n, _wrap in self.where} != set(range(len(stand_ins))):
            raise ImproperlyConfigured("a compiled query must use every id it is built with")
        columns = [selected[0] for selected in compiler.select[: compiler.col_count]]
        self.converters = list(compiler.get_converters(columns).items())
        self.klass_info = compiler.klass_info if queryset._iterable_class is ModelIterable else None
        if self.klass_info is not None:  # a query of model rows, not of values
            select, fields = compiler.select, self.klass_info["select_fields"]
            self.model = self.klass_info["model"]
            self.span = (fields[0], fields[-1] + 1)
            self.names = [column[0].target.attname for column in select[self.span[0] : self.span[1]]]
            self.related = get_related_populators(self.klass_info, select, connection.alias)
            self.annotations = dict(compiler.annotation_col_map or {})


class Compiled:
    """`build(*ids)` returns the query for some ids (a day's, an event's, a person's); `rows(*ids)`
    runs it, `objects(*ids)` gives its model instances. `texts`: the names of the parameters that
    are texts, not ids (a slug); `moments`: those that are aware datetimes compared with a
    DateTimeField (a time bound), passed as the database takes them, as the ORM passes them. A query
    of another shape (another role, an ordering, a NULL where an id was) is a Compiled of its own."""

    def __init__(self, build: Callable[..., QuerySet], *, texts: tuple[str, ...] = (), moments: tuple[str, ...] = ()):
        self._build = build
        names = [
            parameter.name
            for parameter in inspect.signature(build).parameters.values()
            if parameter.default is inspect.Parameter.empty
            and parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD)
        ]
        kinds = ["text" if name in texts else "moment" if name in moments else "id" for name in names]
        self._stand_ins = [stand_in(n, kind) for n, kind in enumerate(kinds)]
        self._moments = [n for n, kind in enumerate(kinds) if kind == "moment"]
        # Per database connection: the tests run on SQLite and PostgreSQL in turn, and a threaded
        # server gives each thread its own connection.
        self._prepared: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def _run(self, keys: tuple) -> tuple[str, list, _Prepared, object]:
        if len(keys) != len(self._stand_ins):
            raise TypeError(f"this compiled query takes {len(self._stand_ins)} id(s), not {len(keys)}")
        connection = connections[DEFAULT_DB_ALIAS]
        prepared = self._prepared.get(connection)
        if prepared is None:
            built = self._build(*self._stand_ins)
            prepared = self._prepared[connection] = _Prepared(
                built, connection, self._adapted(self._stand_ins, connection)
            )
        if self._moments:
            keys = self._adapted(keys, connection)
        params = list(prepared.params)
        for i, n, wrap in prepared.where:
            params[i] = keys[n] if wrap is None else wrap(keys[n])
        return prepared.sql, params, prepared, connection

    def _adapted(self, keys, connection) -> list:
        """`keys` with each moment as the database takes it (SQLite: a text in UTC), as a
        DateTimeField's lookup writes its value."""
        keys = list(keys)
        for n in self._moments:
            keys[n] = connection.ops.adapt_datetimefield_value(keys[n])
        return keys

    def _bounded(self, keys: tuple, limit: int | None, offset: int) -> tuple[str, list, _Prepared, object]:
        sql, params, prepared, connection = self._run(keys)
        if limit is not None:
            sql, params = f"{sql} LIMIT %s OFFSET %s", [*params, limit, offset]
        return sql, params, prepared, connection

    def sql(self, *keys: int, limit: int | None = None, offset: int = 0) -> tuple[str, list]:
        """The query's SQL and parameters for `keys`, for a query of its own or inside another's;
        `limit` and `offset` bound its rows as a slice of the queryset would (of a query built
        without a slice of its own)."""
        sql, params, _prepared, _connection = self._bounded(keys, limit, offset)
        return sql, params

    def _fetched(self, keys: tuple, limit: int | None, offset: int) -> tuple[list, _Prepared, object]:
        sql, params, prepared, connection = self._bounded(keys, limit, offset)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        if prepared.converters:
            rows = [converted(list(row), prepared.converters, connection) for row in rows]
        return rows, prepared, connection

    def rows(self, *keys: int, limit: int | None = None, offset: int = 0) -> list[tuple]:
        """The query's rows for `keys`, each value as the ORM gives it; `limit` and `offset` as sql()."""
        rows, _prepared, _connection = self._fetched(keys, limit, offset)
        return [tuple(row) for row in rows]

    def objects(self, *keys: int, limit: int | None = None, offset: int = 0) -> list:
        """The query's model instances for `keys`, with the relations it selects and its
        annotations, as iterating the queryset gives them (what it prefetches is the caller's)."""
        return self._instances(keys, limit, offset)[0]

    def _instances(self, keys: tuple, limit: int | None, offset: int) -> tuple[list, _Prepared]:
        rows, prepared, connection = self._fetched(keys, limit, offset)
        if prepared.klass_info is None:
            raise ImproperlyConfigured("objects() reads a query of model rows, not of values")
        start, end = prepared.span
        built = []
        for row in rows:
            instance = prepared.model.from_db(connection.alias, prepared.names, row[start:end])
            for populator in prepared.related:
                populator.populate(row, instance)
            for name, column in prepared.annotations.items():
                setattr(instance, name, row[column])
            built.append(instance)
        return built, prepared

    def first(self, *keys: int):
        """The query's first instance for `keys` (in the order it is built with), or None."""
        found = self.objects(*keys, limit=1)
        return found[0] if found else None

    def get(self, *keys: int):
        """The query's one instance for `keys`, as QuerySet.get() (its model's DoesNotExist if none)."""
        found, prepared = self._instances(keys, 2, 0)
        if not found:
            raise prepared.model.DoesNotExist
        if len(found) > 1:
            raise prepared.model.MultipleObjectsReturned
        return found[0]

    def exists(self, *keys: int) -> bool:
        """Whether the query has a row for `keys`, asked of the database: none of its columns is
        read or converted."""
        return self._about("SELECT 1 FROM ({}) found LIMIT 1", keys) is not None

    def count(self, *keys: int) -> int:
        """How many rows the query has for `keys`, counted in the database."""
        return self._about("SELECT COUNT(*) FROM ({}) counted", keys)[0]

    def _about(self, question: str, keys: tuple) -> tuple | None:
        """The one row of `question` asked of the query's rows for `keys` (its SQL in place of {})."""
        sql, params, _prepared, connection = self._run(keys)
        with connection.cursor() as cursor:
            cursor.execute(question.format(sql), params)
            return cursor.fetchone()


class Insert:
    """New rows of a model written as the ORM writes them (`Model.save()` of a new row,
    `bulk_create`), by the INSERT it compiled once for the shape: with or without the key given,
    and how many rows. Each row's values are prepared as the ORM prepares them (a field's own
    pre_save, as an `auto_now_add` sets its time, and its adaptation for the database: a JSON
    text, SQLite's datetimes), and each row gets its key back and is saved (`_state`), as
    `bulk_create` leaves it.

    For the rows a slip writes at the window (itself, its postings, its signatures, its audit
    entry): the ORM compiled each INSERT anew, about a twentieth of a co-signed fill's time (issue
    25). A model with save() logic of its own writes through it (AuditEntry: its link of the
    chain); no model written here has pre_save or post_save receivers."""

    def __init__(self, model):
        self.model = model
        self._prepared: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def _statement(self, connection, keyed: bool, count: int):
        shapes = self._prepared.setdefault(connection, {})
        shape = shapes.get((keyed, count))
        if shape is None:
            meta = self.model._meta
            fields = [f for f in meta.local_concrete_fields if keyed or f is not meta.auto_field]
            query = InsertQuery(self.model)
            query.insert_values(fields, [self.model() for _ in range(count)])
            compiler = query.get_compiler(connection=connection)
            returning = [] if keyed else list(meta.db_returning_fields)
            if returning and not (
                connection.features.can_return_columns_from_insert
                and (count == 1 or connection.features.can_return_rows_from_bulk_insert)
            ):
                raise ImproperlyConfigured("Insert needs a database that returns the keys it writes")
            compiler.returning_fields = returning
            statements = compiler.as_sql()
            if len(statements) != 1:
                raise ImproperlyConfigured(f"{meta.label}: not one INSERT")
            sql, params = statements[0]
            # A value a placeholder (a row after another), or a column an array of its rows
            # (PostgreSQL's UNNEST of several rows).
            by_column = count > 1 and len(params) == len(fields) and all(isinstance(p, list) for p in params)
            if not by_column and len(params) != len(fields) * count:
                raise ImproperlyConfigured(f"{meta.label}: not an INSERT of plain values")
            shape = shapes[(keyed, count)] = (sql, fields, compiler, returning, by_column)
        return shape

    def save(self, obj) -> None:
        """Write one new row, as `obj.save(force_insert=True)` does."""
        self.save_all([obj])

    def save_all(self, objs: list) -> None:
        """Write new rows in one statement, as `bulk_create(objs)` does: either every row's key is
        given or none is."""
        if not objs:
            return
        keyed = objs[0].pk is not None
        if any((obj.pk is not None) != keyed for obj in objs):
            raise ValueError("Insert.save_all: every row's key given, or none")
        for obj in objs:  # a relation set before its row was saved takes its key now, as save() does
            obj._prepare_related_fields_for_save(operation_name="save")
        connection = connections[DEFAULT_DB_ALIAS]
        sql, fields, compiler, returning, by_column = self._statement(connection, keyed, len(objs))
        rows = [[compiler.prepare_value(f, compiler.pre_save_val(f, obj)) for f in fields] for obj in objs]
        params = (
            [list(column) for column in zip(*rows, strict=True)]
            if by_column
            else [value for row in rows for value in row]
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall() if returning else []
        for obj, row in zip(objs, rows or [()] * len(objs), strict=True):
            for field, value in zip(returning, row, strict=True):
                setattr(obj, field.attname, value)
            obj._state.adding = False
            obj._state.db = connection.alias
