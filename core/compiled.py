"""An ORM query compiled to SQL once per process, then run with each call's own ids.

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


class _Prepared:
    """The query's SQL and parameters as the ORM wrote them, where each stand-in stood, the
    converters the ORM applies to its columns (a JSON field's text, SQLite's datetimes), and how a
    row becomes a model instance."""

    def __init__(self, queryset: QuerySet, connection, stand_ins: list):
        compiler = queryset.query.get_compiler(connection=connection)
        self.sql, params = compiler.as_sql()
        self.params = tuple(params)
        where = {(type(value), value): n for n, value in enumerate(stand_ins)}
        self.where = [
            (i, where[type(value), value]) for i, value in enumerate(self.params) if (type(value), value) in where
        ]
        if {n for _i, n in self.where} != set(range(len(stand_ins))):
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
        for i, n in prepared.where:
            params[i] = keys[n]
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
