"""An ORM query compiled to SQL once per process, then run with each request's own id.

A question the window asks on every refresh of every terminal (which slips wait, say) may be
declared with the ORM, where its rules read best, and still cost the ORM's compiling once: on a
small day the compiling of such a query (a CASE per slip type, a count of signatures, two EXISTS)
took several times what the database spent answering it (issue 25).

The query is built once with a stand-in id; its SQL and parameters are kept, and each run puts the
caller's id where the stand-in stood. So the rule stays declared in one place, the ORM's, and what
runs is exactly what the ORM wrote for it.
"""

import weakref
from collections.abc import Callable

from django.core.exceptions import ImproperlyConfigured
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet

# An id no row has (ids are positive), and no other parameter of a query is.
STAND_IN = -720_251_917


class _Prepared:
    """The query's SQL and parameters as the ORM wrote them, where the stand-in stood, and the
    converters the ORM applies to its columns (a JSON field's text, SQLite's datetimes)."""

    def __init__(self, queryset: QuerySet, connection):
        compiler = queryset.query.get_compiler(connection=connection)
        self.sql, params = compiler.as_sql()
        self.params = tuple(params)
        self.where = [i for i, value in enumerate(self.params) if value == STAND_IN]
        if not self.where:
            raise ImproperlyConfigured("a compiled query must use the id it is built with")
        columns = [selected[0] for selected in compiler.select[: compiler.col_count]]
        self.converters = compiler.get_converters(columns)


class Compiled:
    """`build(id)` returns the query for one id (a day's, an event's); `rows(id)` runs it."""

    def __init__(self, build: Callable[[int], QuerySet]):
        self._build = build
        # Per database connection: the tests run on SQLite and PostgreSQL in turn, and a threaded
        # server gives each thread its own connection.
        self._prepared: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def _sql(self, key: int) -> tuple[str, list, _Prepared, object]:
        connection = connections[DEFAULT_DB_ALIAS]
        prepared = self._prepared.get(connection)
        if prepared is None:
            prepared = self._prepared[connection] = _Prepared(self._build(STAND_IN), connection)
        params = list(prepared.params)
        for i in prepared.where:
            params[i] = key
        return prepared.sql, params, prepared, connection

    def sql(self, key: int, *, limit: int | None = None, offset: int = 0) -> tuple[str, list]:
        """The query's SQL and parameters for `key`, for a query of its own or inside another's;
        `limit` and `offset` bound its rows as a slice of the queryset would."""
        sql, params, _prepared, _connection = self._sql(key)
        if limit is not None:
            sql, params = f"{sql} LIMIT %s OFFSET %s", [*params, limit, offset]
        return sql, params

    def rows(self, key: int, *, limit: int | None = None, offset: int = 0) -> list[tuple]:
        """The query's rows for `key`, each value as the ORM gives it; `limit` and `offset` as sql()."""
        _sql, _params, prepared, connection = self._sql(key)
        sql, params = self.sql(key, limit=limit, offset=offset)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        if not prepared.converters:
            return rows
        converted = []
        for row in rows:
            row = list(row)
            for i, (found, expression) in prepared.converters.items():
                for convert in found:
                    row[i] = convert(row[i], expression, connection)
            converted.append(tuple(row))
        return converted

    def count(self, key: int) -> int:
        """How many rows the query has for `key`, counted in the database."""
        sql, params, _prepared, connection = self._sql(key)
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT COUNT(*) FROM ({sql}) counted", params)
            return cursor.fetchone()[0]
