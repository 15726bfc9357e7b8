"""A sealed day's totals (cage.models.DayTotal): written as the day closes, read for every balance
in place of the day's postings, proven against them by check_ledger, and the same totals the
migration writes for days sealed before it."""

import datetime
from collections import defaultdict

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.models import Sum

from cage import services
from cage.importer import import_records
from cage.ledger_check import ledger_breaks
from cage.models import Account, DayTotal, Posting, Slip
from cage.selectors.places import BALANCES, balances_read
from events import services as event_services
from events.models import GamingDay
from reports.figures import held_before
from tests.cage.helpers import SALE_SIGNED, close_clean_day, stock
from tests.conftest import as_owner
from tests.records_generator import generated_event

pytestmark = pytest.mark.django_db


def posted(accounts) -> dict:
    """{account id: {denomination id: cents}}: every posting of the accounts, summed the long way."""
    held = defaultdict(dict)
    rows = Posting.objects.filter(account__in=accounts).values_list("account_id", "denomination_id")
    for account, denomination, total in rows.annotate(total=Sum("amount")):
        if total:
            held[account][denomination] = total
    return dict(held)


def day_postings(day) -> dict:
    rows = Posting.objects.filter(slip__day=day).values_list("account_id", "denomination_id")
    return {(a, d): t for a, d, t in rows.annotate(t=Sum("amount")) if t}


def totals_of(day) -> dict:
    return {(t.account_id, t.denomination_id): t.amount for t in DayTotal.objects.filter(day=day)}


def next_day(cast) -> GamingDay:
    added = event_services.day_add(event=cast.event, date=cast.day.date + datetime.timedelta(days=1))
    return event_services.day_open(day=added)


def sql(statement, params=()):
    as_owner()
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


def test_a_closed_days_totals_are_its_postings_and_the_next_days_balances_read_them(cast):
    close_clean_day(cast)
    first = cast.day
    assert totals_of(first) == day_postings(first) != {}
    day2 = next_day(cast)
    services.sale(day=day2, chips={"1": 4}, cash=400, signed=cast.signed(**SALE_SIGNED))
    places = list(Account.objects.filter(event=cast.event))
    assert balances_read(places) == posted(places)
    assert DayTotal.objects.filter(day=day2).count() == 0  # open: read from its postings

    # The day's sheets start from the earlier days' totals: what the bank held at the end of day 1.
    kinds = (Account.Kind.BANK_CASH, Account.Kind.CHIP_BANK)
    opening = {(k, d): t for (k, _p, d, when), t in held_before(day2, kinds=kinds).items() if not when and t}
    kind_of = {a.pk: a.kind for a in places if a.kind in kinds}
    assert opening == {(kind_of[a], d): t for (a, d), t in totals_of(first).items() if a in kind_of}
    moved = {when for (*_place, when) in held_before(day2, kinds=kinds) if when}
    assert moved == {"sale"}

    # What the balance reads for the closed day is its totals, not its postings: a total written
    # below the application shows in the balance, and check_ledger names the difference.
    bank_cash = services.account_get(cast.event, Account.Kind.BANK_CASH)
    before = services.balance(bank_cash)[None]
    sql(
        "INSERT INTO cage_daytotal (day_id, account_id, denomination_id, amount) VALUES (%s, %s, NULL, 100)",
        [first.pk, bank_cash.pk],
    )
    assert services.balance(bank_cash)[None] == before + 100
    assert ledger_breaks([cast.event], chains=False) == [
        f"lakeside: the totals of the gaming day {first.date} say bank cash moved 1100 cents of cash; its "
        "postings of the day sum to 1000"
    ]


def test_a_day_closed_without_its_totals_is_read_from_its_postings(cast):
    stock(cast, chips={"5": 20}, cash=5000)
    # Closed below the application: no seal, so no totals (as in data from before them).
    GamingDay.objects.filter(pk=cast.day.pk).update(status=GamingDay.Status.CLOSED)
    assert not DayTotal.objects.exists()
    places = list(Account.objects.filter(event=cast.event))
    assert balances_read(places) == posted(places) != {}


def test_check_ledger_names_postings_under_another_day_and_totals_of_a_day_not_sealed(cast):
    close_clean_day(cast)
    day2 = next_day(cast)
    slip = Slip.objects.filter(day=cast.day).first()
    bank_cash = services.account_get(cast.event, Account.Kind.BANK_CASH)
    patrons = services.account_get(cast.event, Account.Kind.PATRONS)
    for account, amount in ((bank_cash, 300), (patrons, -300)):
        sql(
            "INSERT INTO cage_posting (slip_id, day_id, account_id, denomination_id, amount) "
            "VALUES (%s, %s, %s, NULL, %s)",
            [slip.pk, day2.pk, account.pk, amount],
        )
    sql(
        "INSERT INTO cage_daytotal (day_id, account_id, denomination_id, amount) VALUES (%s, %s, NULL, 300)",
        [day2.pk, bank_cash.pk],
    )
    breaks = ledger_breaks([cast.event], chains=False)
    assert f"lakeside: {slip.number} has postings filed under another gaming day than its own" in breaks
    assert f"lakeside: the gaming day {day2.date} has totals but no seal: its balances would count it twice" in breaks


def test_the_migration_sums_a_sealed_day_as_the_close_does(cast):
    # cage/migrations/0022 writes the totals of the days sealed before it with its own SQL.
    from importlib import import_module

    migration = import_module("cage.migrations.0022_posting_day_and_day_totals")
    close_clean_day(cast)
    select = migration.SEALED_DAYS_TOTALS.split(")", 1)[1]
    with connection.cursor() as cursor:
        cursor.execute(select)
        rows = cursor.fetchall()
    assert {(a, d): t for _day, a, d, t in rows} == totals_of(cast.day) != {}
    assert {day for day, *_rest in rows} == {cast.day.pk}


def test_an_imported_events_sealed_days_have_their_totals():
    event = import_records(generated_event(seed=7, days=3, tables=2, records_per_day=12))
    days = list(event.days.order_by("date"))
    assert all(totals_of(day) == day_postings(day) for day in days)
    assert all(totals_of(day) for day in days)
    places = list(Account.objects.filter(event=event))
    assert balances_read(places) == posted(places)
    assert ledger_breaks([event]) == []


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's query plan")
def test_a_balance_reads_the_running_totals_of_the_days_not_sealed_by_place_and_day(cast):
    # The plan, not a timing: the running totals' key is searched by place and day, so a balance
    # never walks the event's postings of the place, nor the open day's (PostgreSQL's planner
    # answers to its statistics).
    sql_text = "EXPLAIN QUERY PLAN " + BALANCES.format(accounts="%s", events="%s")
    with connection.cursor() as cursor:
        cursor.execute(sql_text, [1, 1, cast.event.pk])
        plan = " / ".join(row[-1] for row in cursor.fetchall())
    assert "SEARCH cage_runningtotal USING INDEX" in plan and "(account_id=? AND day_id=?)" in plan
    assert "cage_posting" not in plan
    assert "cage_daytotal USING COVERING INDEX cage_daytotal_balances (account_id=?)" in plan


def test_day_totals_are_append_only_below_the_application(cast):
    close_clean_day(cast)
    total = DayTotal.objects.first()
    for statement in (
        "UPDATE cage_daytotal SET amount = amount + 1 WHERE id = %s",
        "DELETE FROM cage_daytotal WHERE id = %s",
    ):
        with pytest.raises(DatabaseError, match="cage_daytotal rows are append-only"), transaction.atomic():
            sql(statement, [total.pk])
    assert DayTotal.objects.get(pk=total.pk).amount == total.amount


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's query plan")
def test_a_closing_days_totals_are_copied_from_its_running_totals_by_the_day(cast):
    # One statement reading the day's running totals by their index on the day: never the day's
    # postings, nor every running total of the event.
    from cage.services.day_totals import _COPY

    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + _COPY, [cast.day.pk])
        plan = " / ".join(row[-1] for row in cursor.fetchall())
    assert "SEARCH cage_runningtotal USING INDEX cage_runningtotal_day (day_id=?)" in plan, plan
    assert "cage_posting" not in plan
