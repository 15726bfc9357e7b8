"""The window's lists of slips read as SQL of their own: the cage home's latest slips and its
pending panel, and the DRIC's queue, all asked on every refresh of every terminal.

Which slips a list shows stays the ORM's question, where its rules are declared (`unsigned`, the
search): it asks for their ids alone. This module then reads those slips in two queries, with
what their rows show: the table, the runner, the gaming day, the slip a void names, the custody
place and the cash it moved (`cash_moved`), and its signatures with who signed them. They come
back as the same model instances `select_related(...)` and `with_signers()` would give, so every
rule that reads a slip (its state, its amount, who may sign it) reads them unchanged.

Why: read through the ORM, the same rows cost the cage home about three times what the database
spent on them, compiling a query of six joins and a subquery, then a prefetch, on each request
(issue 25). The SQL here is written from the models' own fields, and each value goes through the
same converters the ORM applies (a JSON field's text, SQLite's datetimes). The cash a slip moved is
the ORM's own `cash_moved_subquery()`, compiled once: the rule is declared in one place.
"""

import functools
from collections.abc import Callable

from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import QuerySet
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init

from cage.models import Signature, Slip
from cage.selectors.amounts import cash_moved_subquery
from cage.selectors.places import places_of
from core.compiled import converted
from events.models import GameTable, GamingDay, Person


class _Reader:
    """One model's columns under a table alias, and how a row's values become its instance."""

    def __init__(self, model, alias: str):
        self.model = model
        fields = model._meta.concrete_fields
        self.names = [f.attname for f in fields]
        self.columns = ", ".join(f'{alias}."{f.column}"' for f in fields)
        self.width = len(fields)
        converters = []
        for i, field in enumerate(fields):
            expression = field.get_col(alias)
            found = connection.ops.get_db_converters(expression) + expression.get_db_converters(connection)
            if found:
                converters.append((i, (found, expression)))
        self.converters = converters
        # Every column is read, so an instance is its values by attname, as Model.__init__ sets them
        # (ModelState, then each field's attname); no model read here has a receiver of its init
        # signals, which __init__ would send. Built so, an instance costs about a third: the cage
        # home builds some two hundred a refresh. A model that had receivers is built by from_db.
        self.plain = not (pre_init.has_listeners(model) or post_init.has_listeners(model))

    def instance(self, values: list):
        if not self.plain:
            return self.model.from_db(connection.alias, self.names, values)
        instance = self.model.__new__(self.model)
        state = instance._state = ModelState()
        state.adding, state.db = False, connection.alias
        instance.__dict__.update(zip(self.names, values, strict=True))
        return instance

    def build(self, row, start: int, seen: dict | None = None):
        """The instance whose values begin at `start` in `row`, or None where a LEFT JOIN found none.
        `seen`: the instances already built by id, for a row many slips name (their day, a signer):
        built once, as the page only reads them."""
        values = list(row[start : start + self.width])
        if values[0] is None:
            return None
        if seen is not None and values[0] in seen:
            return seen[values[0]]
        converted(values, self.converters, connection)
        instance = self.instance(values)
        if seen is not None:
            seen[instance.pk] = instance
        return instance


@functools.cache
def _readers(vendor: str) -> dict:
    """The readers and the two queries, made once per process and database vendor (the same SQL
    each time, so the database's statement cache keeps it too)."""
    # The slips' table keeps its own name: the cash a slip moved is cash_moved_subquery() as the
    # ORM writes it, which names the slip's table so.
    s = f'"{Slip._meta.db_table}"'
    slip, table, runner, day, voids = (
        _Reader(Slip, s),
        _Reader(GameTable, "t"),
        _Reader(Person, "r"),
        _Reader(GamingDay, "d"),
        _Reader(Slip, "v"),
    )
    annotated = Slip.objects.annotate(cash_moved=cash_moved_subquery()).query
    cash_moved, cash_params = annotated.get_compiler(connection=connection).compile(annotated.annotations["cash_moved"])
    slips_sql = (
        f"SELECT {slip.columns}, {table.columns}, {runner.columns}, {day.columns}, {voids.columns}, {cash_moved} "
        f"FROM {s} "
        f'INNER JOIN "{GamingDay._meta.db_table}" d ON d."id" = {s}."day_id" '
        f'LEFT OUTER JOIN "{GameTable._meta.db_table}" t ON t."id" = {s}."table_id" '
        f'LEFT OUTER JOIN "{Person._meta.db_table}" r ON r."id" = {s}."runner_id" '
        f'LEFT OUTER JOIN "{Slip._meta.db_table}" v ON v."id" = {s}."voids_id" '
        f'WHERE {s}."id" IN ({{ids}})'
    )
    signature, signer = _Reader(Signature, "g"), _Reader(Person, "p")
    signatures_sql = (
        f"SELECT {signature.columns}, {signer.columns} "
        f'FROM "{Signature._meta.db_table}" g INNER JOIN "{Person._meta.db_table}" p ON p."id" = g."person_id" '
        f'WHERE g."slip_id" IN ({{ids}}) ORDER BY g."id"'
    )
    return {
        "slips": (slips_sql, [slip, table, runner, day, voids], list(cash_params)),
        "signatures": (signatures_sql, [signature, signer]),
    }


class SignaturesRead(QuerySet):
    """A slip's signatures as read with it, where Django's prefetch would leave them: iterating,
    `all()`, `len()` give the list read. Anything asked beyond it (a filter, values_list) is asked
    of the database for that slip's signatures alone, as its related manager asks. Built only
    then: the related manager's own queryset costs several times the rest of a slip's reading."""

    def __init__(self, slip: Slip, signatures: list):
        super().__init__(model=Signature, query=_NO_QUERY)
        self._slip = slip
        self._result_cache = signatures
        self._prefetch_done = True

    @property
    def query(self):
        return self._asked().query

    @query.setter
    def query(self, value):  # QuerySet's own property has one
        raise AttributeError("the signatures read are not a query to change")

    def _asked(self) -> QuerySet:
        return self._slip.signatures._apply_rel_filters(Signature._default_manager.all())

    def _clone(self):
        return self._asked()._clone()


# Never run: each SignaturesRead asks its own slip's query (SignaturesRead._asked) before anything
# reads one.
_NO_QUERY = Signature.objects.none().query


def among(ids) -> tuple[str, list]:
    """The SQL and parameters that choose exactly these ids, as slips_read takes them (`chosen`)."""
    ids = list(ids)
    return ", ".join(["%s"] * len(ids)), ids


def _rows(sql: str, chosen: str, params: list):
    with connection.cursor() as cursor:
        cursor.execute(sql.format(ids=chosen), params)
        return cursor.fetchall()


def slips_read(
    chosen: QuerySet | tuple[str, list],
    *,
    order: Callable[[Slip], object],
    reverse: bool = False,
    known: dict[int, Slip] | None = None,
) -> list[Slip]:
    """The slips a query of ids chooses (`chosen`: a queryset of their ids, or its SQL and
    parameters), sorted by `order`, as `select_related("table", "runner", "day", "voids",
    "account__person", "account__table").with_signers()` annotated with `cash_moved` reads them. Two
    queries: the slips, with the query that chooses them inside theirs, then their signatures; and
    the event's places once per page (places_of).

    `known`: slips this page has read already, by id (the cage home's slips waiting, most of them
    among its latest slips of the day): the ids chosen are asked first, one query more, and only
    the others are read; the known ones are given as they are."""
    if isinstance(chosen, QuerySet):
        try:
            chosen = chosen.query.sql_with_params()
        except EmptyResultSet:  # the ORM knows without asking: chosen among no ids
            return []
    if known:
        ids = [pk for (pk, *_rest) in _rows("{ids}", chosen[0], list(chosen[1]))]
        again = {pk: known[pk] for pk in ids if pk in known}
        unknown = [pk for pk in ids if pk not in again]
        read = slips_read(among(unknown), order=order) if unknown else []
        return sorted([*again.values(), *read], key=order, reverse=reverse)
    readers = _readers(connection.vendor)
    sql, (slip_r, table_r, runner_r, day_r, voids_r), cash_params = readers["slips"]
    fields = Slip._meta
    cache = {name: fields.get_field(name) for name in ("table", "runner", "day", "voids", "account")}
    found: dict[int, Slip] = {}
    seen: dict[str, dict] = {"table": {}, "runner": {}, "day": {}}
    places: dict[int, object] | None = None
    chosen_sql, chosen_params = chosen
    for row in _rows(sql, chosen_sql, [*cash_params, *chosen_params]):
        slip = slip_r.build(row, 0)
        at = slip_r.width
        for name, reader in (("table", table_r), ("runner", runner_r), ("day", day_r), ("voids", voids_r)):
            cache[name].set_cached_value(slip, reader.build(row, at, None if name == "voids" else seen[name]))
            at += reader.width
        # PostgreSQL sums integers as numeric: a Decimal to the driver, an int here as the ORM's.
        slip.cash_moved = None if row[at] is None else int(row[at])
        if slip.account_id is not None:
            if places is None:
                places = {a.pk: a for a in places_of(slip.event_id)}
            cache["account"].set_cached_value(slip, places[slip.account_id])
        found[slip.pk] = slip
    if not found:
        return []
    sql, (signature_r, signer_r) = readers["signatures"]
    signed: dict[int, list[Signature]] = {pk: [] for pk in found}
    signers: dict = {}
    person, of_slip = Signature._meta.get_field("person"), Signature._meta.get_field("slip")
    for row in _rows(sql, *among(found)):
        signature = signature_r.build(row, 0)
        person.set_cached_value(signature, signer_r.build(row, signature_r.width, signers))
        of_slip.set_cached_value(signature, found[signature.slip_id])
        signed[signature.slip_id].append(signature)
    cache_name = Slip._meta.get_field("signatures").cache_name
    for pk, slip in found.items():
        # As Django's prefetch leaves them: slip.signatures.all() is this list, and a filter on it
        # still asks the database for that slip's signatures alone.
        slip._prefetched_objects_cache = {cache_name: SignaturesRead(slip, signed[pk])}
    return sorted(found.values(), key=order, reverse=reverse)
