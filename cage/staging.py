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

from collections import defaultdict
from contextlib import contextmanager

from django.apps import apps
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.sqlite3.base import DatabaseWrapper

from events import services as event_services
from events.models import Licensee

# Each bulk insert writes this many rows: well inside every database's limit on parameters.
BATCH = 500


@contextmanager
def scratch():
    """Within the block, this thread's default database is an empty in-memory SQLite database with
    every table of the product; the real connection is put back afterwards, untouched."""
    real = connections[DEFAULT_DB_ALIAS]
    settings = connections.configure_settings(
        {DEFAULT_DB_ALIAS: {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}}
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
        yield database
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


def read_rows() -> list[tuple[type, list[dict]]]:
    """Every row of the (scratch) default database, model by model in dependency order, as
    {attname: value}, in primary-key order."""
    result = []
    for model in models_in_order():
        fields = [f.attname for f in model._meta.concrete_fields]
        rows = list(model._base_manager.order_by("pk").values(*fields))
        if rows:
            if any(isinstance(f, GenericForeignKey) for f in model._meta.private_fields):
                raise NotImplementedError(f"{model._meta.label} points at rows by plain id; the copy cannot map it")
            result.append((model, rows))
    return result


def copy_rows(tables: list[tuple[type, list[dict]]]) -> dict:
    """Insert the rows read from the scratch database into the default one. Call inside the
    transaction that makes the import all or nothing. Returns {model: {scratch pk: new pk}}."""
    new_pk: dict[type, dict] = defaultdict(dict)
    for model, rows in tables:
        pk = model._meta.pk.attname
        if model is Licensee:
            for row in rows:
                licensee = event_services.licensee_get_or_create(
                    name=row["name"],
                    address=row["address"],
                    charitable_number=row["charitable_registration_number"],
                )
                new_pk[model][row[pk]] = licensee.pk
            continue
        if model is ContentType:
            for row in rows:
                new_pk[model][row[pk]] = ContentType.objects.get_by_natural_key(row["app_label"], row["model"]).pk
            continue
        relations = [f for f in model._meta.concrete_fields if f.is_relation]
        batch: list[tuple[object, object]] = []
        in_batch: set = set()
        for row in rows:
            values = {k: v for k, v in row.items() if k != pk}
            for field in relations:
                old = values[field.attname]
                if old is None:
                    continue
                target = field.related_model._meta.concrete_model
                if target is model and old in in_batch:
                    # A row pointing at one of the same batch (a void and the slip it voids): write
                    # what comes before first, so its new key is known.
                    _insert(model, batch, new_pk)
                    batch, in_batch = [], set()
                try:
                    values[field.attname] = new_pk[target][old]
                except KeyError:
                    raise NotImplementedError(
                        f"{model._meta.label}.{field.name} points at a {target._meta.label} the import did not make"
                    ) from None
            batch.append((row[pk], model(**values)))
            in_batch.add(row[pk])
            if len(batch) >= BATCH:
                _insert(model, batch, new_pk)
                batch, in_batch = [], set()
        _insert(model, batch, new_pk)
    _refresh_statistics([model for model, _rows in tables])
    return new_pk


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


def _insert(model, batch: list[tuple[object, object]], new_pk: dict) -> None:
    """Write a batch of rows with their new keys taken first, in one executemany.

    The ORM's bulk_create builds a model instance's worth of Python for every row; a season's
    import copies about a million, so the copy takes the keys the database would have given
    (`_new_keys`) and writes plain rows, each field prepared for the database as the ORM would.
    """
    if not batch:
        return
    connection = connections[DEFAULT_DB_ALIAS]
    keys = _new_keys(connection, model, len(batch))
    if keys is None:  # a database the product does not run on: the ORM's way
        created = model._base_manager.bulk_create([obj for _old, obj in batch])
        for (old, _obj), obj in zip(batch, created, strict=True):
            new_pk[model][old] = obj.pk
        return
    fields = model._meta.concrete_fields
    quote = connection.ops.quote_name
    statement = "INSERT INTO {} ({}) VALUES ({})".format(
        quote(model._meta.db_table), ", ".join(quote(f.column) for f in fields), ", ".join(["%s"] * len(fields))
    )
    rows = []
    for key, (old, obj) in zip(keys, batch, strict=True):
        obj.pk = key
        rows.append([f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields])
        new_pk[model][old] = key
    with connection.cursor() as cursor:
        cursor.executemany(statement, rows)


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
