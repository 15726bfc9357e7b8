"""A slip's record of being signed in full (cage.models.SignedInFull): written with the signature
that completes it, never for a slip that still waits, proved by check_ledger, and written by the
migration for the slips of a ledger that had none. Which slips wait is read from it alone."""

import importlib

import pytest
from django.apps import apps
from django.db import connection
from django.utils import timezone

from cage import services
from cage.ledger_check import ledger_breaks
from cage.models import SignedInFull, Slip
from cage.selectors.slips import pending_count, signed_in_full, unsigned
from tests.cage.helpers import FILL_SIGNED, open_table, stock
from tests.cage.test_chain import below_the_application, sql

pytestmark = pytest.mark.django_db


def recorded() -> dict[int, object]:
    return dict(SignedInFull.objects.values_list("slip_id", "signed_at"))


def waiting_sale(cast):
    return services.sale(
        day=cast.day, chips={"1": 10}, cash=1000, signed=cast.signed(sold_by="chip_cashier"), allow_pending=True
    )


def test_a_slip_signed_in_full_as_it_is_written_has_its_record_at_its_last_signature(cast):
    stock(cast)
    for slip in Slip.objects.prefetch_related("signatures"):
        last = max(s.signed_at for s in slip.signatures.all())
        assert recorded()[slip.pk] == last, slip


def test_a_slip_that_waits_has_none_until_the_signature_that_completes_it(cast):
    stock(cast)
    sale = waiting_sale(cast)
    assert sale.pk not in recorded()
    assert list(unsigned(Slip.objects.filter(day=cast.day))) == [sale]
    assert pending_count(cast.event, day=cast.day) == 1
    services.approve(slip=sale, person=cast.dric)
    authorized = sale.signatures.get(capacity="authorized_by")
    assert recorded()[sale.pk] == authorized.signed_at
    assert sale in signed_in_full(Slip.objects.all())
    assert not unsigned(Slip.objects.filter(day=cast.day)).exists()
    assert pending_count(cast.event, day=cast.day) == 0
    assert ledger_breaks(chains=False) == []


def test_a_fill_in_transit_is_signed_in_full_only_when_the_dealer_receives_it(cast):
    stock(cast)
    open_table(cast)
    carried = {k: v for k, v in FILL_SIGNED.items() if k != "received_by"}
    fill = services.fill(day=cast.day, table=cast.bj, chips={"5": 4}, signed=cast.signed(**carried), allow_pending=True)
    assert fill.pk not in recorded()
    services.sign(slip=fill, capacity="received_by", person=cast.dealer)
    assert recorded()[fill.pk] == fill.signatures.get(capacity="received_by").signed_at
    assert ledger_breaks(chains=False) == []


def test_a_refused_slip_has_none_and_waits_for_nobody(cast):
    stock(cast)
    sale = waiting_sale(cast)
    services.void(
        day=cast.day,
        target=sale,
        reason="rang up twice",
        signed=cast.signed(requested_by="chip_cashier"),
        allow_pending=True,
    )
    void = Slip.objects.get(slip_type="void")
    services.refuse(slip=void, person=cast.dric, reason="not a mistake")
    assert void.pk not in recorded()
    assert list(unsigned(Slip.objects.filter(day=cast.day))) == [sale]


def test_check_ledger_names_a_record_missing_one_that_should_not_be_and_one_at_the_wrong_time(cast):
    stock(cast)
    sale = waiting_sale(cast)
    first, second = Slip.objects.exclude(pk=sale.pk).order_by("pk")[:2]
    with below_the_application():
        sql("DELETE FROM cage_signedinfull WHERE slip_id = %s", [first.pk])
        sql("UPDATE cage_signedinfull SET signed_at = %s WHERE slip_id = %s", [timezone.now(), second.pk])
        sql("INSERT INTO cage_signedinfull (slip_id, signed_at) VALUES (%s, %s)", [sale.pk, timezone.now()])
    breaks = ledger_breaks(chains=False)
    assert f"lakeside: {first.number} is signed in full, but has no record of it" in breaks
    assert any(b.startswith(f"lakeside: {second.number} is recorded as signed in full at ") for b in breaks)
    assert f"lakeside: {sale.number} is recorded as signed in full, but is not" in breaks
    assert len(breaks) == 3
    # The queue reads the record alone: the slip without its record shows as waiting, the one
    # recorded by mistake does not; check_ledger is what finds both.
    assert list(unsigned(Slip.objects.filter(day=cast.day))) == [first]


def test_the_migration_writes_the_records_a_ledger_without_them_lacks(cast):
    stock(cast)
    waiting_sale(cast)
    written = recorded()
    assert written and len(written) < Slip.objects.count()
    with below_the_application():
        sql("DELETE FROM cage_signedinfull")
    assert recorded() == {}
    migration = importlib.import_module("cage.migrations.0023_slips_signed_in_full")
    migration.write_records(apps)
    assert recorded() == written
    migration.write_records(apps)  # again: nothing twice
    assert recorded() == written
    assert ledger_breaks(chains=False) == []


def test_the_table_is_guarded_as_the_ledger_is(cast):
    stock(cast)
    triggers = (
        "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal"
        if connection.vendor == "postgresql"
        else "SELECT name FROM sqlite_master WHERE type = 'trigger'"
    )
    with connection.cursor() as cursor:
        cursor.execute(triggers)
        names = {row[0] for row in cursor.fetchall()}
    assert {n for n in names if n.startswith("cage_signedinfull_append_only")}
