"""The ledger's guards in the database itself, each provoked with raw SQL.

The same tests run on SQLite (the default) and on PostgreSQL (DATABASE_URL=postgres://…): the
refusals are the same on both (cage/migrations/0006_ledger_guards.py,
events/migrations/0004_closed_day_guard.py).
"""

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from cage import services
from cage.models import Account, Posting, Signature, SignedInFull, Slip, SlipCounter
from events import services as event_services
from events.models import ChipDenomination, GamingDay
from tests.cage.helpers import close_clean_day, stock
from tests.conftest import as_owner, make_cast

pytestmark = pytest.mark.django_db

GUARDS = {
    "sqlite": {
        "cage_slip_append_only_update",
        "cage_slip_append_only_delete",
        "cage_posting_append_only_update",
        "cage_posting_append_only_delete",
        "cage_signature_append_only_update",
        "cage_signature_append_only_delete",
        "cage_signedinfull_append_only_update",
        "cage_signedinfull_append_only_delete",
        "cage_openersignoff_append_only_update",
        "cage_openersignoff_append_only_delete",
        "cage_refusal_append_only_update",
        "cage_refusal_append_only_delete",
        "cage_chip_value_fixed",
        "cage_account_fixed",
        "cage_counter_never_back_update",
        "cage_counter_never_back_delete",
        "events_closed_day_locked_update",
        "events_closed_day_locked_delete",
    },
    "postgresql": {
        "cage_posting_balanced",
        "cage_slip_balanced",
        "cage_slip_append_only",
        "cage_posting_append_only",
        "cage_signature_append_only",
        "cage_signedinfull_append_only",
        "cage_openersignoff_append_only",
        "cage_refusal_append_only",
        "cage_chip_value_fixed",
        "cage_account_fixed",
        "cage_counter_never_back",
        "events_closed_day_locked",
    },
}


def installed_triggers() -> set[str]:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
        else:
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        return {row[0] for row in cursor.fetchall()}


def raw(sql: str, params=()) -> int:
    """Run one statement in its own savepoint, as a hand edit in a database shell would (the
    owner's: the application's role may not even try, tests/cage/test_app_role.py)."""
    as_owner()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def refused(sql: str, params=(), *, match: str):
    with pytest.raises(IntegrityError, match=match):
        raw(sql, params)


def test_every_guard_is_installed():
    # A migration that makes Django rebuild a guarded table on SQLite drops its triggers: this
    # fails until that migration creates them again.
    assert GUARDS[connection.vendor] <= installed_triggers()


TABLES = {"cage_slip": Slip, "cage_posting": Posting, "cage_signature": Signature, "cage_signedinfull": SignedInFull}


@pytest.mark.parametrize("table", list(TABLES))
def test_slips_postings_and_signatures_refuse_any_update_or_delete(cast, table):
    stock(cast)
    rows = TABLES[table].objects
    before = list(rows.order_by("pk").values())
    column = {"cage_slip": "reason", "cage_posting": "amount", "cage_signature": "capacity"}.get(table, "signed_at")
    value = {"cage_slip": "'changed'", "cage_posting": "amount + 1", "cage_signature": "'x'"}.get(table, "signed_at")
    refused(f"UPDATE {table} SET {column} = {value}", match="append-only: UPDATE refused")
    refused(f"DELETE FROM {table}", match="append-only: DELETE refused")
    refused(f"DELETE FROM {table} WHERE id = %s", [before[0]["id"]], match="append-only: DELETE refused")
    assert list(rows.order_by("pk").values()) == before


def test_a_slips_details_cannot_be_rewritten_either(cast):
    stock(cast)
    slip = Slip.objects.first()
    refused(
        "UPDATE cage_slip SET serial = 99, details = '{}' WHERE id = %s", [slip.pk], match="append-only: UPDATE refused"
    )
    assert Slip.objects.get(pk=slip.pk).serial == slip.serial


def test_a_closed_day_is_never_reopened(cast):
    close_clean_day(cast)
    day = cast.day.pk
    for status in ("open", "reconciling", "setup"):
        refused(
            "UPDATE events_gamingday SET status = %s WHERE id = %s", [status, day], match="closed gaming day is locked"
        )
    refused("UPDATE events_gamingday SET date = '2026-09-12' WHERE id = %s", [day], match="closed gaming day is locked")
    refused("DELETE FROM events_gamingday WHERE id = %s", [day], match="closed gaming day is locked")
    # through the ORM too: the database answers, whatever writes the row
    closed = GamingDay.objects.get(pk=day)
    closed.status = GamingDay.Status.OPEN
    with pytest.raises(IntegrityError, match="closed gaming day is locked"), transaction.atomic():
        closed.save()
    assert GamingDay.objects.get(pk=day).status == GamingDay.Status.CLOSED
    # its opening hours may still be corrected
    assert raw("UPDATE events_gamingday SET opens_at = '18:00' WHERE id = %s", [day]) == 1


def test_a_day_goes_forward_to_closed(cast):
    day = cast.day.pk
    assert raw("UPDATE events_gamingday SET status = 'reconciling' WHERE id = %s", [day]) == 1
    assert raw("UPDATE events_gamingday SET status = 'closed' WHERE id = %s", [day]) == 1
    refused("UPDATE events_gamingday SET status = 'reconciling' WHERE id = %s", [day], match="closed gaming day")


def test_a_chips_value_is_fixed_once_a_posting_uses_it(cast):
    stock(cast)
    five = cast.event.denominations.get(key="5")
    for change in ("value_cents = 1000", "key = '10'"):
        refused(
            f"UPDATE events_chipdenomination SET {change} WHERE id = %s",
            [five.pk],
            match="fixed once a posting uses it",
        )
    other = make_cast("other-event").event
    refused(
        "UPDATE events_chipdenomination SET event_id = %s WHERE id = %s",
        [other.pk, five.pk],
        match="fixed once a posting uses it",
    )
    assert ChipDenomination.objects.get(pk=five.pk).value_cents == 500
    # its colour is a description, not its value
    assert raw("UPDATE events_chipdenomination SET colour = 'pink' WHERE id = %s", [five.pk]) == 1
    # a chip nobody has used yet may still be corrected
    unused = event_services.denomination_add(event=cast.event, value="100", colour="black")
    assert raw("UPDATE events_chipdenomination SET value_cents = 50000, key = '500' WHERE id = %s", [unused.pk]) == 1


def test_an_account_never_becomes_another_place(cast):
    stock(cast)
    bank = services.account_get(cast.event, Account.Kind.BANK_CASH)
    runner = services.account_get(cast.event, Account.Kind.RUNNER, person=cast.runner)
    other = make_cast("other-event")
    for change, params in (
        ("kind = 'patrons'", []),
        ("event_id = %s", [other.event.pk]),
        ("code = 'over_short'", []),
        ("table_id = %s", [cast.bj.pk]),
    ):
        refused(
            f"UPDATE cage_account SET {change} WHERE id = %s", [*params, bank.pk], match="never change: UPDATE refused"
        )
    refused(
        "UPDATE cage_account SET person_id = %s WHERE id = %s",
        [cast.runner2.pk, runner.pk],
        match="never change: UPDATE refused",
    )
    assert Account.objects.get(pk=bank.pk).kind == Account.Kind.BANK_CASH
    # writing the same values back changes nothing and is not refused
    assert raw("UPDATE cage_account SET kind = kind, code = code WHERE id = %s", [bank.pk]) == 1


def test_a_serial_counter_never_goes_back(cast):
    stock(cast)
    counter = SlipCounter.objects.get(event=cast.event, slip_type="chips_received")
    assert counter.last == 1
    for change in ("last = 0", "slip_type = 'fill'"):
        refused(f"UPDATE cage_slipcounter SET {change} WHERE id = %s", [counter.pk], match="never goes back")
    refused("DELETE FROM cage_slipcounter WHERE id = %s", [counter.pk], match="never goes back: DELETE refused")
    assert SlipCounter.objects.get(pk=counter.pk).last == 1
    # counting up is what the counter does (check_ledger flags the gap a jump leaves)
    assert raw("UPDATE cage_slipcounter SET last = last + 1 WHERE id = %s", [counter.pk]) == 1
    # a counter that never issued a serial may go
    unused = SlipCounter.objects.create(event=cast.event, slip_type="deposit")
    assert raw("DELETE FROM cage_slipcounter WHERE id = %s", [unused.pk]) == 1


def test_the_services_whole_day_passes_the_guards(cast):
    # Every write the product makes (counters counting up, slips, postings and signatures added,
    # the day going open → closed) gets through: the guards refuse only what it never does.
    close_clean_day(cast)
    assert GamingDay.objects.get(pk=cast.day.pk).status == GamingDay.Status.CLOSED


@pytest.mark.django_db(transaction=True)
def test_emptying_the_whole_database_keeps_every_guard():
    # pytest-django empties the database this way after every transactional test; on SQLite
    # cage's flush command lifts the triggers for that one transaction, on PostgreSQL it is a
    # TRUNCATE, which fires no row trigger.
    cast = make_cast("flushed")
    close_clean_day(cast)
    call_command("flush", interactive=False, verbosity=0)
    assert not Slip.objects.exists() and not Posting.objects.exists() and not GamingDay.objects.exists()
    assert GUARDS[connection.vendor] <= installed_triggers()
    # and they still refuse afterwards
    cast = make_cast("flushed")
    stock(cast)
    refused("DELETE FROM cage_posting", match="append-only: DELETE refused")


def test_postings_are_found_by_slip_and_by_account_through_the_two_indexes_that_begin_with_them():
    """Migration 0011: no index of their own on a posting's slip and account (the composite ones
    serve both), and the ledger's triggers kept (SQLite would have lost them had the table been
    rebuilt)."""
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, "cage_posting")
    indexes = [c["columns"] for c in constraints.values() if c["index"] and not c["primary_key"]]
    assert ["slip_id"] not in indexes and ["account_id"] not in indexes
    assert ["slip_id", "denomination_id"] in indexes
    assert ["account_id", "day_id", "denomination_id", "amount"] in indexes  # migration 0022
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'cage_posting'")
            triggers = {row[0] for row in cursor.fetchall()}
        assert {"cage_posting_append_only_update", "cage_posting_append_only_delete"} <= triggers


def test_a_places_balances_are_read_from_the_index_alone():
    """Migrations 0013, 0022 and 0027: a balance reads its sealed days' totals from their index
    alone, the amount included, never the table's rows, and its days not sealed from their running
    totals by place and day (a row per place and instrument), never from their postings (SQLite
    says so in its plan; PostgreSQL chooses by its statistics, an index-only scan once the table is
    vacuumed)."""
    from cage.selectors.places import balances_read

    cast = make_cast("covered")
    stock(cast)
    accounts = list(Account.objects.filter(event=cast.event))
    with CaptureQueriesContext(connection) as queries:
        held = balances_read(accounts)
    assert held  # the stocked bank's balances
    (query,) = queries.captured_queries
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN QUERY PLAN " + query["sql"])
            plan = " ".join(str(row[-1]) for row in cursor.fetchall())
        # By place and day: the days not sealed; the sealed ones from their totals.
        assert "SEARCH cage_runningtotal USING INDEX" in plan and "(account_id=? AND day_id=?)" in plan
        assert "cage_posting" not in plan
        assert "COVERING INDEX cage_daytotal_balances (account_id=?)" in plan
