"""The value a slip is about, as a list of slips shows it."""

from django.db import NotSupportedError
from django.db.models import BigIntegerField, F, Func, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from cage.models import Posting, Slip
from cage.slip_types import COUNTS, SLIP_KINDS, VOID_KIND
from core.money import face


def cash_moved_subquery(ref: str = "pk"):
    """Per slip: the cash its postings put into places (a float's or a deposit's amount)."""
    postings = Posting.objects.filter(slip=OuterRef(ref), amount__gt=0, denomination__isnull=True)
    return Subquery(postings.values("slip").annotate(total=Sum("amount")).values("total")[:1])


class ChipCount(Func):
    """A slip's count of one chip as its details keep it ({"chips": {"5": 4}}), an integer, or NULL
    where it names none. Written out here rather than as Django's key lookups, which read a key of
    digits ("5", "25") as the index of a list, not as the key of an object."""

    arity = 1
    output_field = BigIntegerField()

    def __init__(self, key: str, **extra):
        super().__init__(F("details"), **extra)
        self.key = key

    def _details(self, compiler):
        return compiler.compile(self.get_source_expressions()[0])

    def as_sqlite(self, compiler, connection, **extra):
        sql, params = self._details(compiler)
        return f"CAST(JSON_EXTRACT({sql}, %s) AS bigint)", (*params, f'$."chips"."{self.key}"')

    def as_postgresql(self, compiler, connection, **extra):
        sql, params = self._details(compiler)
        return f"(({sql} -> 'chips') ->> %s)::bigint", (*params, self.key)

    def as_sql(self, compiler, connection, **extra):
        raise NotSupportedError("ChipCount reads SQLite's and PostgreSQL's JSON only")


def chips_worth(values) -> Func:
    """In the database, what a slip's chips are worth at `values` ((key, cents) of the event's
    chips), as chips_value() reckons it: a chip the event does not have counts for nothing."""
    return sum((Coalesce(ChipCount(key), 0) * cents for key, cents in values), Value(0))


def chips_value(chips: dict, values: dict[str, int]) -> int:
    return sum(values.get(key, 0) * count for key, count in chips.items())


def amount_of(slip: Slip, values: dict[str, int], cash_moved: int | None) -> int | None:
    """The value a slip is about: its chips' value (plus the cash a runner hands back, or the cash
    a count finds), else the cash or total it states, else the cash it moved."""
    if slip.slip_type == VOID_KIND.type and slip.voids_id:
        # A void is worth what it reverses.
        target = slip.voids
        return amount_of(target, values, getattr(target, "cash_moved", None) or cash_moved)
    details = slip.details
    chips = details.get("chips")
    if chips:
        value = chips_value(chips, values)
        if SLIP_KINDS[slip.slip_type].runner_figure == "returned":
            value += cash_moved or 0
        elif slip.slip_type in COUNTS:
            value += details.get("cash") or 0
        return value
    if details.get("total") is not None:
        return details["total"]
    if details.get("cash") is not None:
        return details["cash"]
    return cash_moved


def chip_counts(chips: dict | None) -> list[str]:
    """["40 × $5", "2 × $25"]: the chips a slip names, as people write them on a sheet."""
    return [
        _("%(count)s × $%(value)s") % {"count": count, "value": face(key)}
        for key, count in (chips or {}).items()
        if count
    ]
