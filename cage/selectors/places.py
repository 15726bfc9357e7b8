"""The event's custody places (its accounts) and what each holds, read once per page
(core.reading): the inventory, the count states and the close's checklist all ask."""

from collections import defaultdict

from django.db import connection

from cage.models import Account, DaySeal, DayTotal, RunningTotal
from core.compiled import Compiled
from core.reading import read_once
from events.models import GamingDay

# Compiled once (core.compiled): every page of the window and every close of an import's days asks.
_PLACES = Compiled(lambda event_id: Account.objects.filter(event_id=event_id).select_related("person", "table"))


@read_once
def places_of(event_id: int) -> list[Account]:
    """Every account of the event, with its person and table (shared within a reading: never
    changed by a caller)."""
    return _PLACES.objects(event_id)


_OWN_PLACES = Compiled(lambda event_id: Account.objects.filter(event_id=event_id, person=None, table=None))


@read_once(settled=True)
def own_places(event_id: int) -> dict[str, Account]:
    """{code: account} of the cage's own places that exist (bank cash, chip bank, patrons...), not a
    runner's or a table's, in one query (cage.services.ledger.account_get makes a missing one)."""
    return {a.code: a for a in _OWN_PLACES.objects(event_id)}


def places_of_kind(event_id: int, kinds) -> list[Account]:
    return [a for a in places_of(event_id) if a.kind in kinds]


@read_once
def held_by_places(event_id: int) -> dict[int, dict[int | None, int]]:
    """{account id: {denomination id or None for cash: cents}} for every place of the event, in one
    aggregate query."""
    return balances_read(places_of(event_id))


def _balances_sql() -> str:
    """The balances' query as SQL of its own: a window's slip asks it for every custody check, and
    the ORM's compiling of a union with a subquery cost more than the query itself."""
    tables = {m.__name__: m._meta.db_table for m in (DayTotal, RunningTotal, GamingDay, DaySeal)}
    return f"""
SELECT account_id, denomination_id, SUM(amount) FROM (
    SELECT account_id, denomination_id, amount FROM {tables["DayTotal"]} WHERE account_id IN ({{accounts}})
    UNION ALL
    SELECT account_id, denomination_id, amount FROM {tables["RunningTotal"]}
    WHERE account_id IN ({{accounts}}) AND day_id IN (
        SELECT d.id FROM {tables["GamingDay"]} d WHERE d.event_id IN ({{events}})
        AND NOT EXISTS (SELECT 1 FROM {tables["DaySeal"]} s WHERE s.day_id = d.id)
    )
) held GROUP BY account_id, denomination_id"""


BALANCES = _balances_sql()


def balances_read(accounts: list[Account]) -> dict[int, dict[int | None, int]]:
    """{account id: {denomination id or None for cash: cents}} of `accounts`, from one query
    (cage.services.ledger.balances keeps them through an import).

    A balance is the sum of a place's postings: those of its sealed days as their totals, summed
    once as each day closed (DayTotal), and those of the days not sealed (the open day, and any day
    closed without its totals) as their running totals, added to as each slip's postings are
    written (RunningTotal). So a slip at the window, or the cage home, reads a row per place,
    instrument and day not sealed, however many slips the day holds."""
    accounts = list(accounts)
    result: dict[int, dict[int | None, int]] = defaultdict(dict)
    if not accounts:
        return result
    ids = [a.pk for a in accounts]
    events = sorted({a.event_id for a in accounts})
    sql = BALANCES.format(accounts=", ".join(["%s"] * len(ids)), events=", ".join(["%s"] * len(events)))
    with connection.cursor() as cursor:
        cursor.execute(sql, [*ids, *ids, *events])
        for account, denomination, total in cursor.fetchall():
            if total:
                # PostgreSQL sums bigints as numeric: a Decimal to the driver.
                result[account][denomination] = int(total)
    return result


def held_together(accounts) -> dict[int | None, int]:
    """{denomination id or None for cash: cents} that `accounts` hold between them (the patrons with
    the open tables' trays, say), from balances_read."""
    return together(balances_read(accounts))


def together(balances: dict[int, dict[int | None, int]]) -> dict[int | None, int]:
    """Places' balances ({account id: {denomination id: cents}}) added up, instrument by instrument."""
    total: dict[int | None, int] = defaultdict(int)
    for held in balances.values():
        for denomination, cents in held.items():
            total[denomination] += cents
    return total
