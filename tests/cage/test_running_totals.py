"""Each place's running total of the day (cage.models.RunningTotal): its postings of the day, added
up by the window's services and by an import as the postings are written, proved by check_ledger,
summed by the migration for a ledger that had none, and what a balance reads for the days not
sealed, in place of the day's postings (issue 25)."""

import importlib

import pytest
from django.db import connection
from django.db.models import Sum

from cage import services
from cage.importer import import_records
from cage.ledger_check import ledger_breaks
from cage.models import Account, DaySeal, Posting, RunningTotal
from cage.selectors.places import balances_read
from core.rules import RuleViolation
from tests.cage.helpers import fill_issued, stock
from tests.cage.test_chain import below_the_application, sql
from tests.cage.test_export_records import generated_with_window_work
from tests.cage.test_signed_in_full import waiting_sale
from tests.records_generator import generated_event

pytestmark = pytest.mark.django_db


def kept() -> dict:
    """{(account id, day id, denomination id or None): cents} of the running totals, those that
    are not nothing."""
    rows = RunningTotal.objects.values_list("account_id", "day_id", "denomination_id", "amount")
    return {(a, d, i): cents for a, d, i, cents in rows if cents}


def posted() -> dict:
    """The same, summed from the postings themselves."""
    rows = Posting.objects.values_list("account_id", "day_id", "denomination_id").annotate(total=Sum("amount"))
    return {(a, d, i): cents for a, d, i, cents in rows if cents}


def summed_balances(accounts) -> dict:
    """{account id: {denomination id or None: cents}}: every posting of each place, summed."""
    found: dict = {}
    for account, denomination, cents in (
        Posting.objects.filter(account__in=accounts)
        .values_list("account_id", "denomination_id")
        .annotate(total=Sum("amount"))
    ):
        if cents:
            found.setdefault(account, {})[denomination] = cents
    return found


def test_every_slip_adds_what_it_moves_to_its_places_running_totals_of_its_day(cast):
    stock(cast)
    assert kept() == posted() != {}
    sale = waiting_sale(cast)  # moves as it is written, waits for the DRIC's witness
    assert kept() == posted()
    fill = fill_issued(cast)
    runner = services.account_get(cast.event, Account.Kind.RUNNER, person=cast.runner)
    five = cast.event.denominations.get(key="5").pk
    assert kept() == posted()
    services.sign(slip=fill, capacity="carried_by", person=cast.runner)
    assert kept()[runner.pk, cast.day.pk, five] == 4 * 500  # in transit: the runner holds them
    assert kept() == posted()
    services.sign(slip=fill, capacity="received_by", person=cast.dealer)
    assert kept() == posted()
    assert (runner.pk, cast.day.pk, five) not in kept()  # carried on to the table: the runner holds none
    services.sign(slip=sale, capacity="authorized_by", person=cast.dric)  # a witness moves nothing
    assert kept() == posted()
    accounts = list(Account.objects.filter(event=cast.event))
    assert balances_read(accounts) == summed_balances(accounts)
    assert ledger_breaks(chains=False) == []


def test_a_refused_slip_adds_nothing(cast):
    stock(cast)
    before = kept()
    bank = services.account_get(cast.event, Account.Kind.BANK_CASH)
    with pytest.raises(RuleViolation):
        services.redemption(
            day=cast.day,
            chips={"5": 1000},
            cash=500_000,
            signed=cast.signed(paid_by="general_cashier", authorized_by="dric"),
        )
    assert kept() == before == posted()
    assert balances_read([bank]) == summed_balances([bank])


def test_an_import_keeps_the_running_totals_of_its_days_sealed_and_not(db):
    # Days closed and sealed, the last left open, then slips at the window on it.
    event = generated_with_window_work()
    assert DaySeal.objects.filter(day__event=event).exists()
    assert event.days.exclude(seal__isnull=False).exists()
    assert kept() == posted()
    again = generated_event(seed=11, days=4, records_per_day=60, tables=3, leave_last_day_open=True)
    again["event"]["slug"] = "again"
    imported = import_records(again)
    assert kept() == posted()
    accounts = list(Account.objects.filter(event__in=[event, imported]))
    assert balances_read(accounts) == summed_balances(accounts)
    assert ledger_breaks(chains=False) == []


def test_a_balance_reads_the_running_totals_of_the_days_not_sealed_not_the_postings(cast):
    stock(cast)
    bank = services.account_get(cast.event, Account.Kind.BANK_CASH)
    held = balances_read([bank])[bank.pk][None]
    with below_the_application():
        sql(
            "UPDATE cage_runningtotal SET amount = amount + 100 WHERE account_id = %s AND denomination_id IS NULL",
            [bank.pk],
        )
    assert balances_read([bank])[bank.pk][None] == held + 100
    assert ledger_breaks(chains=False) == [
        f"lakeside: the running total of bank cash on the gaming day {cast.day.date.isoformat()} says it moved "
        f"{held + 100} cents of cash; its postings of the day sum to {held}"
    ]


def test_check_ledger_names_a_running_total_missing_and_one_without_postings(cast):
    stock(cast)
    waiting_sale(cast)
    patrons = services.account_get(cast.event, Account.Kind.PATRONS)
    bank = services.account_get(cast.event, Account.Kind.BANK_CASH)
    one = cast.event.denominations.get(key="1")
    moved = kept()[patrons.pk, cast.day.pk, one.pk]
    date = cast.day.date.isoformat()
    with below_the_application():
        sql("DELETE FROM cage_runningtotal WHERE account_id = %s AND denomination_id = %s", [patrons.pk, one.pk])
        sql(
            "INSERT INTO cage_runningtotal (account_id, day_id, denomination_id, amount) VALUES (%s, %s, %s, 700)",
            [bank.pk, cast.day.pk, one.pk],
        )
    breaks = ledger_breaks(chains=False)
    assert sorted(breaks) == [
        f"lakeside: the running total of bank cash on the gaming day {date} says it moved 700 cents of chips:1; "
        "its postings of the day sum to 0",
        f"lakeside: the running total of patrons on the gaming day {date} says it moved 0 cents of chips:1; "
        f"its postings of the day sum to {moved}",
    ]


def test_the_migration_sums_the_postings_a_ledger_without_running_totals_holds(cast):
    stock(cast)
    waiting_sale(cast)
    before = kept()
    RunningTotal.objects.all().delete()
    assert kept() == {}
    migration = importlib.import_module("cage.migrations.0027_running_totals").Migration
    with connection.cursor() as cursor:
        cursor.execute(migration.operations[-1].sql)
    assert kept() == before == posted()
    assert ledger_breaks(chains=False) == []
