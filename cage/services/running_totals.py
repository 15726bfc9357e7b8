"""Each place's running total of the day (cage.models.RunningTotal), added to as postings are
written: what a balance reads for the days not sealed, in place of the day's postings.

At the window a slip's movement is added once its link of the chain is written (`add`), so the
transaction already holds the chain's lock, which every write of a slip takes: no two writers
ever hold a running total's row at once, and a writer holding one never waits for another lock
after it (core.chain: the chain's lock is the last a transaction waits for). An import adds the
postings it writes in bulk, with them (`add_rows`, from cage.services.memo), so a running total
is never written without its postings, nor they without it.
"""

from collections import defaultdict

from django.db import connection

from cage.models import RunningTotal

from . import memo as remembered

_TABLE = connection.ops.quote_name(RunningTotal._meta.db_table)
_ADD = (
    f"INSERT INTO {_TABLE} (account_id, day_id, denomination_id, amount) VALUES {{rows}} "
    # The key's index (cage.models.RunningTotal: one_running_total), named as it is built.
    f"ON CONFLICT (account_id, day_id, COALESCE(denomination_id, 0)) "
    f"DO UPDATE SET amount = {_TABLE}.amount + excluded.amount"
)
# SQLite takes at most 32,766 parameters a statement (PostgreSQL 65,535): 4 a row.
_ROWS_AT_ONCE = 5000


def add(day_id: int, merged: dict) -> None:
    """Add a slip's movement ({(account id, denomination id or None): cents}, as it was posted) to
    its places' running totals of `day_id`. An import adds them as it writes the postings."""
    if remembered.current() is not None:
        return
    add_rows((account, day_id, denomination, cents) for (account, denomination), cents in merged.items())


def add_rows(postings) -> None:
    """Add postings, given as (account id, day id, denomination id or None, cents), to their
    running totals: one row a place, day and instrument, in one order (by that key), so that two
    writers could never each wait for the other's row."""
    moved: dict[tuple, int] = defaultdict(int)
    for account, day, denomination, cents in postings:
        if cents:
            moved[account, day, denomination] += cents
    # In the key's order, cash (null) first as the key's 0 puts it.
    rows = sorted(moved.items(), key=lambda row: (row[0][0], row[0][1], row[0][2] or 0))
    with connection.cursor() as cursor:
        for start in range(0, len(rows), _ROWS_AT_ONCE):
            chunk = rows[start : start + _ROWS_AT_ONCE]
            cursor.execute(
                _ADD.format(rows=", ".join(["(%s, %s, %s, %s)"] * len(chunk))),
                [value for key, cents in chunk for value in (*key, cents)],
            )
