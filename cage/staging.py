"""A records file is checked in a scratch database, then copied into the real one in one short
transaction, so a long import never keeps the cage from writing its slips.

Checking an event's records means running every record through the services, which read the
balances each rule needs: a few thousand records take tens of seconds. Done inside the real
database's transaction, that holds its write lock (SQLite) or the event's rows (PostgreSQL) the
whole time, and every cashier's slip waits. Instead the importer runs, unchanged and through the
same services, against an in-memory SQLite database that has the product's tables (`scratch()`).
When every record has passed, the rows it made are copied into the real database with a few bulk
inserts (`copy_rows()`): the same rows, new primary keys, the foreign keys between them mapped.

The copy knows one row that may already exist in the real database: the licensee, matched by name
as `licensee_get_or_create` does (and a content type by its natural key). Everything else the
import makes is new. A model that points at rows through a plain id (a generic relation) cannot be
mapped and is refused.
"""

import datetime
import uuid
from collections import defaultdict
from contextlib import contextmanager

from django.apps import apps
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.backends.sqlite3.base import DatabaseWrapper
from django.utils import timezone

from events import services as event_services
from events.models import Licensee

# Each bulk insert writes this many rows: well inside every database's limit on parameters.
BATCH = 500


class Scratch:
    """The scratch database of a scratch() block, and the real one it stands in for."""

    def __init__(self, database: DatabaseWrapper, real, name: str):
        self.database, self.real, self.name = database, real, name

    @contextmanager
    def real_database(self):
        """Within the block, the real database is the default again; the scratch one stays open
        (for attach())."""
        connections[DEFAULT_DB_ALIAS] = self.real
        ContentType.objects.clear_cache()
        try:
            yield
        finally:
            connections[DEFAULT_DB_ALIAS] = self.database
            ContentType.objects.clear_cache()

    @contextmanager
    def attached(self):
        """Within real_database(): the scratch database attached to the real SQLite connection as
        `scratch`, so one INSERT … SELECT per table copies it (copy_attached). SQLite attaches only
        outside a transaction: the caller checks that none is open."""
        connection = connections[DEFAULT_DB_ALIAS]
        with connection.cursor() as cursor:
            cursor.execute("ATTACH DATABASE %s AS scratch", [self.name])
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("DETACH DATABASE scratch")


@contextmanager
def scratch(*, attachable: bool = False):
    """Within the block, this thread's default database is an empty in-memory SQLite database with
    every table of the product; the real connection is put back afterwards, untouched.
    `attachable`: a named in-memory database that the real SQLite connection can attach."""
    real = connections[DEFAULT_DB_ALIAS]
    name = f"file:cage-scratch-{uuid.uuid4().hex}?mode=memory&cache=shared" if attachable else ":memory:"
    settings = connections.configure_settings(
        {DEFAULT_DB_ALIAS: {"ENGINE": "django.db.backends.sqlite3", "NAME": name}}
    )[DEFAULT_DB_ALIAS]
    database = DatabaseWrapper(settings, alias=DEFAULT_DB_ALIAS)
    connections[DEFAULT_DB_ALIAS] = database
    # Content types are cached per database alias; the scratch one shares the alias "default".
    ContentType.objects.clear_cache()
    try:
        with database.schema_editor() as editor:
            for model in apps.get_models():
                if model._meta.managed and not model._meta.proxy:
                    editor.create_model(model)
        yield Scratch(database, real, name)
    finally:
        connections[DEFAULT_DB_ALIAS] = real
        database.close()
        ContentType.objects.clear_cache()


def models_in_order() -> list:
    """Every concrete model, each after the models its foreign keys point at."""
    models = [m for m in apps.get_models(include_auto_created=True) if m._meta.managed and not m._meta.proxy]
    done, ordered = set(), []

    def visit(model, path=()):
        if model in done:
            return
        for field in model._meta.concrete_fields:
            target = field.related_model if field.is_relation else None
            if target is not None and target is not model and target not in path:
                visit(target._meta.concrete_model, path + (model,))
        done.add(model)
        ordered.append(model)

    for model in models:
        visit(model)
    return ordered


def read_rows(*, as_stored: bool = False) -> list[tuple[type, list[str], list[tuple]]]:
    """Every row of the (scratch) default database, model by model in dependency order: the
    model, its fields' attnames and its rows as tuples in that order, in primary-key order.

    `as_stored`: each value as SQLite keeps it (a time as its text, JSON as its text), read with a
    plain cursor, for a copy into another SQLite database, which takes them back as they are. The
    ORM's way turns every value into Python and the copy turns it back: most of a season's copy."""
    result = []
    connection = connections[DEFAULT_DB_ALIAS]
    quote = connection.ops.quote_name
    for model in models_in_order():
        fields = [f.attname for f in model._meta.concrete_fields]
        if as_stored:
            # Django's SQLite connection turns a column declared as a time into Python as it reads
            # it; as an expression (CAST, text to text) it comes as the text it is stored as.
            columns = ", ".join(
                f"CAST({quote(f.column)} AS TEXT)" if f.db_type(connection) in STORED_AS_TEXT else quote(f.column)
                for f in model._meta.concrete_fields
            )
            with connection.cursor() as cursor:
                cursor.execute(
                    f"SELECT {columns} FROM {quote(model._meta.db_table)} ORDER BY {quote(model._meta.pk.column)}"
                )
                rows = cursor.fetchall()
        else:
            rows = list(model._base_manager.order_by("pk").values_list(*fields))
        if rows:
            if any(isinstance(f, GenericForeignKey) for f in model._meta.private_fields):
                raise NotImplementedError(f"{model._meta.label} points at rows by plain id; the copy cannot map it")
            result.append((model, fields, rows))
    return result


def held_rows(model, objs: list) -> tuple[type, list[str], list[list]]:
    """Model instances made in the scratch database but never written to it (the audit entries an
    import holds), as read_rows gives a table, with keys past the scratch table's own."""
    fields = [f.attname for f in model._meta.concrete_fields]
    first = (model._base_manager.aggregate(last=models.Max("pk"))["last"] or 0) + 1
    for key, obj in enumerate(objs, start=first):
        obj.pk = key
    return model, fields, [[getattr(obj, name) for name in fields] for obj in objs]


def copy_rows(
    tables: list[tuple[type, list[str], list[tuple]]], *, as_stored: bool = False, new_pk: dict | None = None
) -> dict:
    """Insert the rows read from the scratch database into the default one. Call inside the
    transaction that makes the import all or nothing. Returns {model: {scratch pk: new pk}}.
    `as_stored`: the rows were read as SQLite stores them (read_rows), and go as they are.
    `new_pk`: what an earlier copy of the same import returned, for rows that point at its rows.

    Each table's new keys are taken before any of its rows is written, so a row pointing at one
    of the same table (a void and the slip it voids) is mapped like any other."""
    new_pk = defaultdict(dict, new_pk or {})
    connection = connections[DEFAULT_DB_ALIAS]
    for model, columns, rows in tables:
        if not rows:
            continue
        pk = columns.index(model._meta.pk.attname)
        if model in MATCHED:
            for row in rows:
                new_pk[model][row[pk]] = _matched(model, dict(zip(columns, row, strict=True)))
            continue
        keys = _new_keys(connection, model, len(rows))
        if keys is None:  # a database the product does not run on: the ORM's way, row by row
            for row in rows:
                values = dict(zip(columns, row, strict=True))
                values.pop(columns[pk])
                for field in model._meta.concrete_fields:
                    if field.is_relation and values[field.attname] is not None:
                        values[field.attname] = new_pk[field.related_model._meta.concrete_model][values[field.attname]]
                new_pk[model][row[pk]] = model._base_manager.create(**values).pk
            continue
        mapping = new_pk[model]
        for row, key in zip(rows, keys, strict=True):
            mapping[row[pk]] = key
        relations = _relations(model, pk, new_pk)
        written = [_mapped(model, row, relations) for row in rows]
        for start in range(0, len(written), BATCH):
            insert_values(connection, model, written[start : start + BATCH], as_stored=as_stored)
    _refresh_statistics([model for model, _columns, _rows in tables])
    return new_pk


def _matched(model, row: dict) -> int:
    """The key of the real database's row that a scratch row of a MATCHED model stands for."""
    if model is Licensee:
        return event_services.licensee_get_or_create(
            name=row["name"], address=row["address"], charitable_number=row["charitable_registration_number"]
        ).pk
    return ContentType.objects.get_by_natural_key(row["app_label"], row["model"]).pk


# The rows an import may find already in the real database (the licensee, matched by name as
# licensee_get_or_create does; a content type, by its natural key). Everything else is new.
MATCHED = (Licensee, ContentType)


class Shifted(dict):
    """{scratch key: new key} for a table copied whole, every key moved by one offset."""

    def __init__(self, offset: int, lowest: int, highest: int):
        super().__init__()
        self.offset, self.lowest, self.highest = offset, lowest, highest

    def __missing__(self, key):
        if isinstance(key, int) and self.lowest <= key <= self.highest:
            return key + self.offset
        raise KeyError(key)


def copy_attached() -> dict:
    """SQLite: copy the scratch database, attached as `scratch` (Scratch.attached), into the real
    one with one INSERT … SELECT per table, each row's key and the keys it points at moved in SQL:
    no row passes through Python. Call inside the import's transaction, which holds SQLite's
    write lock. Returns {model: {scratch pk: new pk}} as copy_rows does.

    Each table's keys are moved by one offset, past the highest key the real table ever gave
    (_new_keys, under the write lock); a matched row (MATCHED) is looked up as copy_rows does."""
    connection = connections[DEFAULT_DB_ALIAS]
    quote = connection.ops.quote_name
    new_pk: dict = {}
    now = timezone.now()
    with connection.cursor() as cursor:
        for model in models_in_order():
            table, pk = quote(model._meta.db_table), quote(model._meta.pk.column)
            cursor.execute(f"SELECT MIN({pk}), MAX({pk}) FROM scratch.{table}")
            lowest, highest = cursor.fetchone()
            if lowest is None:
                continue
            fields = model._meta.concrete_fields
            if model in MATCHED:
                names = [f.attname for f in fields]
                cursor.execute(f"SELECT {', '.join(quote(f.column) for f in fields)} FROM scratch.{table}")
                new_pk[model] = {
                    row[names.index(model._meta.pk.attname)]: _matched(model, dict(zip(names, row, strict=True)))
                    for row in cursor.fetchall()
                }
                continue
            if any(isinstance(f, GenericForeignKey) for f in model._meta.private_fields):
                raise NotImplementedError(f"{model._meta.label} points at rows by plain id; the copy cannot map it")
            offset = _new_keys(connection, model, 1)[0] - lowest
            new_pk[model] = Shifted(offset, lowest, highest)
            selected, params = [], []
            for field in fields:
                column = quote(field.column)
                if field.primary_key:
                    selected.append(f"{column} + {offset}")
                elif getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
                    selected.append("%s")
                    params.append(
                        field.get_db_prep_save(now.date() if type(field) is models.DateField else now, connection)
                    )
                elif field.is_relation:
                    selected.append(_moved(cursor, model, field, column, new_pk))
                else:
                    selected.append(column)
            cursor.execute(
                f"INSERT INTO {table} ({', '.join(quote(f.column) for f in fields)}) "
                f"SELECT {', '.join(selected)} FROM scratch.{table} ORDER BY {pk}",
                params,
            )
    return new_pk


def _moved(cursor, model, field, column: str, new_pk: dict) -> str:
    """The SQL for a key a scratch row points at, as the real database knows that row."""
    keys = new_pk.get(field.related_model._meta.concrete_model)
    if isinstance(keys, Shifted):
        return f"{column} + {keys.offset}"  # NULL stays NULL
    if keys:  # a matched table: a few rows, each named (keys are integers the database gave)
        cases = " ".join(f"WHEN {int(old)} THEN {int(new)}" for old, new in keys.items())
        return f"CASE {column} {cases} END"
    quote = connections[DEFAULT_DB_ALIAS].ops.quote_name
    cursor.execute(f"SELECT 1 FROM scratch.{quote(model._meta.db_table)} WHERE {column} IS NOT NULL LIMIT 1")
    if cursor.fetchone():
        target = field.related_model._meta.concrete_model
        raise NotImplementedError(
            f"{model._meta.label}.{field.name} points at a {target._meta.label} the import did not make"
        )
    return column


def _relations(model, pk: int, new_pk: dict) -> list[tuple[int, dict, object]]:
    """(column index, {scratch key: new key}, field) for the row's own key and each key it points
    at: worked out once per table, not once per row."""
    relations = [(pk, new_pk[model], model._meta.pk)]
    for index, field in enumerate(model._meta.concrete_fields):
        if field.is_relation:
            relations.append((index, new_pk[field.related_model._meta.concrete_model], field))
    return relations


def _mapped(model, row: tuple, relations: list) -> list:
    """A scratch row with its own key and every key it points at replaced by the new ones."""
    values = list(row)
    for index, keys, field in relations:
        old = values[index]
        if old is not None:
            try:
                values[index] = keys[old]
            except KeyError:
                target = field.related_model._meta.concrete_model
                raise NotImplementedError(
                    f"{model._meta.label}.{field.name} points at a {target._meta.label} the import did not make"
                ) from None
    return values


def copied_rows(table: tuple[type, list[str], list], new_pk: dict) -> list[dict]:
    """The rows of `table` (as held_rows gives it) as copy_rows wrote them: {attname: value}, with
    their new keys and the new keys of the rows they point at."""
    model, fields, rows = table
    relations = _relations(model, fields.index(model._meta.pk.attname), new_pk)
    return [dict(zip(fields, _mapped(model, row, relations), strict=True)) for row in rows]


def _refresh_statistics(models) -> None:
    """On PostgreSQL, let the planner know what was just written before the transaction commits.

    The ledger's deferred check (cage/migrations/0002) sums each new slip's postings at COMMIT. In
    a fresh or young database the planner still believes the postings table is nearly empty and
    scans all of it for each of the thousands of postings: about 50 s for 4,000 records, against
    under a second once the table's statistics are current. ANALYZE locks nothing a cashier needs.
    """
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model in models:
            cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")


def insert_rows(connection, model, objs: list) -> None:
    """Write model instances whose keys are already taken, in one executemany."""
    fields = model._meta.concrete_fields
    insert_values(connection, model, [[getattr(obj, f.attname) for f in fields] for obj in objs])


def insert_values(connection, model, rows: list[list], *, as_stored: bool = False) -> None:
    """Write rows of the model's concrete fields' values, keys included, in one executemany, each
    value prepared for the database as the ORM's insert would (an auto_now_add field is now).

    The ORM's bulk_create builds a model instance's worth of Python for every row; a season's
    import writes about a million, so plain values go as they are and only the fields that need it
    (times, JSON, decimals) are prepared, unless they are `as_stored` by SQLite already."""
    if not rows:
        return
    fields = model._meta.concrete_fields
    quote = connection.ops.quote_name
    statement = "INSERT INTO {} ({}) VALUES ({})".format(
        quote(model._meta.db_table), ", ".join(quote(f.column) for f in fields), ", ".join(["%s"] * len(fields))
    )
    now = timezone.now()
    prepare, plain = [], []
    for index, field in enumerate(fields):
        if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
            value = field.get_db_prep_save(now.date() if type(field) is models.DateField else now, connection)
            prepare.append((index, lambda _v, value=value: value))
        elif as_stored:
            continue
        elif _plain(field):
            plain.append(index)
        elif type(field) is models.DateTimeField:
            prepare.append((index, _moment_preparer(field, connection)))
        else:
            prepare.append((index, lambda v, field=field: field.get_db_prep_save(v, connection)))
    rows = [list(row) for row in rows]  # the caller's rows stay as they were given
    for row in rows:
        for index, prepared in prepare:
            row[index] = prepared(row[index])
        for index in plain:
            value = row[index]
            if value is not None and type(value) not in PLAIN_VALUES:  # a lazy text, a Decimal
                row[index] = fields[index].get_db_prep_save(value, connection)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # COPY: PostgreSQL's own bulk load, with every trigger and constraint as an INSERT's.
            copy = "COPY {} ({}) FROM STDIN".format(
                quote(model._meta.db_table), ", ".join(quote(f.column) for f in fields)
            )
            with cursor.cursor.copy(copy) as loading:
                for row in rows:
                    loading.write_row(row)
        else:
            cursor.executemany(statement, rows)


# Column types SQLite keeps as text that Django's connection would parse on reading.
STORED_AS_TEXT = {"date", "datetime", "time"}

# Fields whose plain values (below) every database the product runs on takes as they are.
PLAIN_FIELDS = (
    models.AutoField,
    models.BigAutoField,
    models.IntegerField,
    models.BigIntegerField,
    models.PositiveIntegerField,
    models.PositiveSmallIntegerField,
    models.SmallIntegerField,
    models.CharField,
    models.TextField,
    models.BooleanField,
    models.ForeignKey,
    models.OneToOneField,
)
PLAIN_VALUES = {int, str, bool}


def _moment_preparer(field, connection):
    """An aware datetime goes to the database's own adapter; anything else the ORM's whole way."""
    adapt = connection.ops.adapt_datetimefield_value

    def prepared(value):
        if type(value) is datetime.datetime and value.utcoffset() is not None:
            return adapt(value)
        return field.get_db_prep_save(value, connection)

    return prepared


def _plain(field) -> bool:
    if type(field) in (models.ForeignKey, models.OneToOneField):
        return _plain(field.target_field)
    return type(field) in PLAIN_FIELDS


def _new_keys(connection, model, count: int) -> list[int] | None:
    """`count` primary keys nobody else can take: from the table's sequence on PostgreSQL; on
    SQLite, past the highest key ever given, under the write lock the import's IMMEDIATE
    transaction holds (config.settings), so no other writer can come between."""
    table, column = model._meta.db_table, model._meta.pk.column
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                [connection.ops.quote_name(table), column, count],
            )
            return sorted(row[0] for row in cursor.fetchall())
        if connection.vendor == "sqlite":
            quote = connection.ops.quote_name
            cursor.execute(f"SELECT MAX({quote(column)}) FROM {quote(table)}")
            highest = cursor.fetchone()[0] or 0
            cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [table])
            row = cursor.fetchone()
            start = max(highest, row[0] if row else 0) + 1
            return list(range(start, start + count))
    return None
