"""Whole-ledger checks: conservation and custody, for every event."""

from django.db.models import Sum

from cage.models import Account, Posting
from cage.services.ledger import account_label, instrument_name
from events.models import ChipDenomination, Event, GameTable


def ledger_breaks(events=None) -> list[str]:
    """Each break as a sentence; empty when the ledger holds.

    For every event and instrument the postings sum to zero over all accounts (nothing is made
    or lost, only moved), no custody account holds less than nothing, and once every table is
    closed patrons hold no fewer than zero chips of any denomination.
    """
    events = list(events if events is not None else Event.objects.all())
    denominations = {d.pk: d for d in ChipDenomination.objects.filter(event__in=events)}
    accounts = {a.pk: a for a in Account.objects.filter(event__in=events).select_related("person", "table")}
    breaks = []
    sums = (
        Posting.objects.filter(account__event__in=events)
        .values("account__event__slug", "denomination_id")
        .annotate(total=Sum("amount"))
        .order_by("account__event__slug", "denomination_id")
    )
    for row in sums:
        if row["total"]:
            denomination = denominations.get(row["denomination_id"])
            breaks.append(
                f"{row['account__event__slug']}: {instrument_name(denomination)} sums to "
                f"{row['total']} cents over all accounts, not 0"
            )
    per_account = (
        Posting.objects.filter(account__in=[a for a in accounts.values() if a.is_custody])
        .values("account_id", "denomination_id")
        .annotate(total=Sum("amount"))
        .order_by("account_id", "denomination_id")
    )
    for row in per_account:
        if row["total"] < 0:
            account = accounts[row["account_id"]]
            denomination = denominations.get(row["denomination_id"])
            breaks.append(
                f"{account.event.slug}: {account_label(account)} ({account.code}) holds "
                f"{row['total']} cents of {instrument_name(denomination)}; custody cannot go negative"
            )
    open_events = set(
        GameTable.objects.filter(event__in=events, state=GameTable.State.OPEN).values_list("event_id", flat=True)
    )
    patrons = (
        Posting.objects.filter(
            account__event__in=events, account__kind=Account.Kind.PATRONS, denomination__isnull=False
        )
        .values("account__event_id", "account__event__slug", "denomination_id")
        .annotate(total=Sum("amount"))
        .order_by("account__event__slug", "denomination_id")
    )
    for row in patrons:
        # T&C 3.4.3: once every table is closed, patrons hold no fewer than zero chips of any kind.
        if row["total"] < 0 and row["account__event_id"] not in open_events:
            denomination = denominations[row["denomination_id"]]
            breaks.append(
                f"{row['account__event__slug']}: every table is closed and patrons hold "
                f"{row['total'] // denomination.value_cents} {instrument_name(denomination)}: chips nobody "
                "bought from the licensee (T&C 3.4.3)"
            )
    return breaks
