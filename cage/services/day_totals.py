"""A sealed day's totals: what each place gained or gave of each instrument over the day, taken
once, as the day closes (cage.models.DayTotal), from the day's running totals (RunningTotal), which
are its postings added up as they were written.

Balances stay sums of postings; these are the closed days' share of them, summed once instead of at
every slip: a place's balance is its sealed days' totals and its running totals of the days not
sealed (cage.selectors.places.balances_read). The day is sealed in the same transaction
(links.seal), and nothing of a closed day is written after its close (check_ledger's closed-day
breaks), so the totals never go stale; check_ledger proves both equal the postings.
"""

from django.db import connection

from cage.models import DayTotal, RunningTotal
from events.models import GamingDay

_TOTALS = connection.ops.quote_name(DayTotal._meta.db_table)
_RUNNING = connection.ops.quote_name(RunningTotal._meta.db_table)
# One statement, whatever the size of the day: an import closes every day of its event, and
# reading the day's sums into model instances to write them back cost more than the copy.
_COPY = (
    f"INSERT INTO {_TOTALS} (day_id, account_id, denomination_id, amount) "
    f"SELECT day_id, account_id, denomination_id, amount FROM {_RUNNING} "
    "WHERE day_id = %s AND amount <> 0 ORDER BY account_id, COALESCE(denomination_id, 0)"
)


def write_day_totals(day: GamingDay) -> None:
    """The closing day's totals: its running totals that are not nothing, copied by the database."""
    with connection.cursor() as cursor:
        cursor.execute(_COPY, [day.pk])
