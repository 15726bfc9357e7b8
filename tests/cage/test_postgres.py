"""On PostgreSQL: row locks under real concurrency, and the database's own ledger guards."""

import threading

import pytest
from django.db import IntegrityError, connection, transaction

from cage import services
from cage.models import Account, Posting, Slip
from core.rules import RuleViolation
from tests.cage.helpers import FILL_SIGNED, open_table, stock
from tests.conftest import make_cast, owner_for_a_moment

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="PostgreSQL only: set DATABASE_URL (make test-postgres)"
    ),
]


@pytest.mark.django_db(transaction=True)
def test_two_fills_racing_for_chips_the_bank_can_cover_once_let_exactly_one_through():
    cast = make_cast("race")
    stock(cast, chips={"1": 100, "5": 40}, cash=0)
    open_table(cast, cast.bj, chips={"1": 50})
    open_table(cast, cast.wheel, chips={"1": 50})
    barrier = threading.Barrier(2)
    outcomes = []

    # Two different tables, so no table lock orders them: only the cage's own locking can.
    def worker(table):
        try:
            barrier.wait()
            services.fill(day=cast.day, table=table, chips={"5": 40}, signed=cast.signed(**FILL_SIGNED))
            outcomes.append("filled")
        except RuleViolation as exc:
            outcomes.append(str(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(table,)) for table in (cast.bj, cast.wheel)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert len(outcomes) == 2 and outcomes.count("filled") == 1
    refusal = next(o for o in outcomes if o != "filled")
    assert "chip bank holds $0.00 in $5 chips, not the $200.00" in refusal
    assert Slip.objects.filter(slip_type="fill").count() == 1
    bank = services.account_get(cast.event, Account.Kind.CHIP_BANK)
    five = cast.event.denominations.get(key="5").pk
    assert services.balance(bank).get(five, 0) == 0
    trays = [services.account_get(cast.event, Account.Kind.TABLE, table=t) for t in (cast.bj, cast.wheel)]
    assert sorted(services.balance(tray).get(five, 0) for tray in trays) == [0, 20_000]


@pytest.mark.django_db(transaction=True)
def test_an_unbalanced_slip_is_refused_at_commit_by_the_database():
    cast = make_cast("trig")
    stock(cast, cash=0)
    slip = Slip.objects.first()
    bank = services.account_get(cast.event, Account.Kind.CHIP_BANK)
    with pytest.raises(IntegrityError, match="does not balance"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO cage_posting (slip_id, day_id, account_id, denomination_id, amount)"
                " VALUES (%s, %s, %s, NULL, 500)",
                [slip.pk, slip.day_id, bank.pk],
            )
    assert not Posting.objects.filter(denomination=None, account=bank).exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("savepoint", [False, True])
def test_a_new_slip_written_with_unbalanced_postings_is_refused_at_commit(savepoint):
    # Checked once by the slip's own trigger (migration 0009), or posting by posting when the
    # slip was written in a savepoint.
    cast = make_cast("trig4")
    stock(cast, cash=0)
    model = Slip.objects.first()
    bank = services.account_get(cast.event, Account.Kind.CHIP_BANK)
    patrons = services.account_get(cast.event, Account.Kind.PATRONS)
    slips = Slip.objects.count()
    with pytest.raises(IntegrityError, match="does not balance"):
        with transaction.atomic():
            with transaction.atomic(savepoint=savepoint), connection.cursor() as cursor:
                cursor.execute(
                    "INSERT INTO cage_slip (event_id, day_id, slip_type, serial, at, reason, details, created_at)"
                    " VALUES (%s, %s, %s, 99, now(), '', '{}', now()) RETURNING id",
                    [model.event_id, model.day_id, model.slip_type],
                )
                new = cursor.fetchone()[0]
            with connection.cursor() as cursor:
                cursor.execute(
                    "INSERT INTO cage_posting (slip_id, day_id, account_id, denomination_id, amount)"
                    " VALUES (%s, %s, %s, NULL, 500), (%s, %s, %s, NULL, -400)",
                    [new, model.day_id, bank.pk, new, model.day_id, patrons.pk],
                )
    assert Slip.objects.count() == slips


@pytest.mark.django_db(transaction=True)
def test_a_balanced_pair_of_raw_postings_commits():
    cast = make_cast("trig2")
    stock(cast, cash=0)
    slip = Slip.objects.first()
    bank = services.account_get(cast.event, Account.Kind.CHIP_BANK)
    patrons = services.account_get(cast.event, Account.Kind.PATRONS)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO cage_posting (slip_id, day_id, account_id, denomination_id, amount)"
            " VALUES (%s, %s, %s, NULL, 500), (%s, %s, %s, NULL, -500)",
            [slip.pk, slip.day_id, bank.pk, slip.pk, slip.day_id, patrons.pk],
        )
    assert Posting.objects.filter(slip=slip, denomination=None).count() == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE cage_posting SET amount = amount + 1",
        "DELETE FROM cage_posting",
        "UPDATE cage_signature SET capacity = 'x'",
        "DELETE FROM cage_signature",
    ],
)
def test_postings_and_signatures_cannot_be_changed_with_raw_sql(sql):
    cast = make_cast("trig3")
    stock(cast, cash=0)
    before = (Posting.objects.count(), list(Posting.objects.values_list("amount", flat=True)))
    with pytest.raises(IntegrityError, match="append-only"):
        # As the table's owner: the triggers' refusal (the application's role may not even try).
        with owner_for_a_moment(), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql)
    assert (Posting.objects.count(), list(Posting.objects.values_list("amount", flat=True))) == before
