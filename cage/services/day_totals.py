"""A sealed day's totals: what each place gained or gave of each instrument over the day, summed from
the day's postings once, as the day closes (cage.models.DayTotal).

Balances stay sums of postings; these are the closed days' share of them, summed once instead of at
every slip: a place's balance is its sealed days' totals and its postings of the days not sealed
(cage.selectors.places.balances_read). The day is sealed in the same transaction (links.seal), and
nothing of a closed day is written after its close (check_ledger's closed-day breaks), so the
totals never go stale; check_ledger proves they equal the postings.
"""

from django.db.models import Sum

from cage.models import DayTotal, Posting
from core.compiled import Compiled
from events.models import GamingDay

# Compiled once (core.compiled): an import closes every day of its event.
_MOVED = Compiled(
    lambda day_id: (
        Posting.objects.filter(slip__day_id=day_id)
        .values_list("account_id", "denomination_id")
        .annotate(total=Sum("amount"))
        .order_by("account_id", "denomination_id")
    )
)


def write_day_totals(day: GamingDay) -> None:
    """The closing day's totals, from its slips' postings (the slips' day index, then each slip's
    postings): one query and one bulk write, whatever the size of the event."""
    DayTotal.objects.bulk_create(
        DayTotal(day=day, account_id=account, denomination_id=denomination, amount=total)
        for account, denomination, total in _MOVED.rows(day.pk)
        if total
    )
