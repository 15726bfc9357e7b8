"""An import's cost goes with its records, not with its gaming days (issue 27): what a records
file's import reads again and again is read once for the whole file (cage.services.memo), not once
a day. Counted in reads, never timed."""

import copy
from collections import Counter

import pytest

from cage.importer import import_records
from cage.models import Slip
from cage.services import ledger
from cage.services import memo as remembered
from cage.slip_types import OPENERS
from tests.records_generator import generated_event, record_count

pytestmark = pytest.mark.django_db


def imported_counting(monkeypatch, days: int) -> tuple[Counter, Counter]:
    """Import a generated event of `days` days, counting each account's balance reads and each
    slip type's serial reads."""
    balances, serials = Counter(), Counter()
    read_balances, read_serial = ledger.balances_read, ledger.remembered.Memo.next_serial

    def balances_read(accounts):
        balances.update(a.pk for a in accounts)
        return read_balances(accounts)

    def next_serial(memo, event, slip_type):
        if (event.pk, slip_type) not in memo.serials:
            serials[slip_type] += 1
        return read_serial(memo, event, slip_type)

    monkeypatch.setattr(ledger, "balances_read", balances_read)
    monkeypatch.setattr(ledger.remembered.Memo, "next_serial", next_serial)
    data = generated_event(seed=27, days=days, records_per_day=20, tables=3)
    data["event"]["slug"] = f"per-record-{days}"
    import_records(data)
    return balances, serials


def test_a_days_opening_keeps_what_the_import_has_read_of_the_days_before(monkeypatch):
    """Each account's balance and each slip type's last serial are read once for the whole file:
    a day's opening changes neither (cage.services.memo.forget_day), so the fourth day's trays,
    bank cash and serials are the import's own, not read again."""
    balances, serials = imported_counting(monkeypatch, days=4)
    assert balances and max(balances.values()) == 1, balances
    assert serials and max(serials.values()) == 1, serials


def openers_checked(event) -> dict:
    return {
        (slip.day.date, slip.table.code): slip.details.get("closer_check")
        for slip in Slip.objects.filter(event=event, slip_type__in=OPENERS).select_related("day", "table")
    }


def test_an_imports_openers_are_checked_against_the_last_closers_as_the_database_says(monkeypatch):
    """The import keeps each table's last closer, and the issues and returns to its tray since, as
    it writes them (cage.services.openers.remember_written) instead of reading them at every
    opening. Imported once so and once reading the database at every opening (its memory hidden
    from the openers' check), a 5-day file with issues and returns to closed trays gives every
    opener the same check, differences included."""
    from cage.services import openers

    data = generated_event(seed=27, days=5, records_per_day=30, tables=3)
    assert {"table_issue", "table_return"} <= {r["type"] for d in data["days"] for r in d["records"]}
    data["event"]["slug"] = "kept"
    kept = openers_checked(import_records(copy.deepcopy(data)))

    class Forgetful:
        @staticmethod
        def current():
            return None

    monkeypatch.setattr(openers, "remembered", Forgetful)
    data["event"]["slug"] = "read"
    read = openers_checked(import_records(data))
    assert kept == read
    checked = [c for c in kept.values() if c is not None]
    assert len(checked) == 12 and any(c["differences"] for c in checked), kept


def imported_queries(monkeypatch, days: int, records_per_day: int) -> tuple[int, int, int]:
    """(records, queries, write-outs of held rows) of a generated event's import, counted in its
    scratch database."""
    counted = Counter()
    before_query, write_held = remembered.Memo.before_query, remembered.Memo.write_held

    def counting_query(memo, execute, sql, params, many, context):
        counted["queries"] += 1
        return before_query(memo, execute, sql, params, many, context)

    def counting_write(memo):
        counted["write-outs"] += bool(memo.held.rows)
        return write_held(memo)

    monkeypatch.setattr(remembered.Memo, "before_query", counting_query)
    monkeypatch.setattr(remembered.Memo, "write_held", counting_write)
    data = generated_event(seed=27, days=days, records_per_day=records_per_day)
    data["event"]["slug"] = f"flat-{days}"
    import_records(data)
    return record_count(data), counted["queries"], counted["write-outs"]


def test_an_imports_queries_per_record_do_not_grow_with_its_gaming_days(monkeypatch):
    """About the same records as 1 day of 600 or as 12 days of 50 on five tables: each table's
    opening and closing asks its day's facts of the import's memory (cage.services.day_slips), so
    the many days' queries and write-outs of held rows per record stay within a quarter of the one
    day's. Each day still costs its own opening and close, records of their own. Before, every
    table's opening and closing queried the slips and wrote out every held row first: 2.9 queries
    a record against 1.8, and 2.7 times the write-outs."""
    one_day = imported_queries(monkeypatch, days=1, records_per_day=600)
    many_days = imported_queries(monkeypatch, days=12, records_per_day=50)
    (records, queries, written), (records_12, queries_12, written_12) = one_day, many_days
    assert 500 < records < records_12 < 1000, (one_day, many_days)
    assert queries_12 / records_12 <= 1.3 * queries / records, (one_day, many_days)
    assert written_12 / records_12 <= 1.25 * written / records, (one_day, many_days)
