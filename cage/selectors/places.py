"""The event's custody places (its accounts) and what each holds, read once per page
(core.reading): the inventory, the count states and the close's checklist all ask."""

from collections import defaultdict

from django.db.models import Sum

from cage.models import Account, Posting
from core.reading import read_once


@read_once
def places_of(event_id: int) -> list[Account]:
    """Every account of the event, with its person and table (shared within a reading: never
    changed by a caller)."""
    return list(Account.objects.filter(event_id=event_id).select_related("person", "table"))


@read_once(settled=True)
def own_places(event_id: int) -> dict[str, Account]:
    """{code: account} of the cage's own places that exist (bank cash, chip bank, patrons...), not a
    runner's or a table's, in one query (cage.services.ledger.account_get makes a missing one)."""
    return {a.code: a for a in Account.objects.filter(event_id=event_id, person=None, table=None)}


def places_of_kind(event_id: int, kinds) -> list[Account]:
    return [a for a in places_of(event_id) if a.kind in kinds]


@read_once
def held_by_places(event_id: int) -> dict[int, dict[int | None, int]]:
    """{account id: {denomination id or None for cash: cents}} for every place of the event, in one
    aggregate query."""
    return balances_read(places_of(event_id))


def balances_read(accounts: list[Account]) -> dict[int, dict[int | None, int]]:
    """{account id: {denomination id or None for cash: cents}} of `accounts`, from one aggregate
    query (cage.services.ledger.balances keeps them through an import)."""
    result: dict[int, dict[int | None, int]] = defaultdict(dict)
    rows = (
        Posting.objects.filter(account__in=accounts)
        .values("account_id", "denomination_id")
        .annotate(total=Sum("amount"))
    )
    for row in rows:
        if row["total"]:
            result[row["account_id"]][row["denomination_id"]] = row["total"]
    return result
