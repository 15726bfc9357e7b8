"""The slips not signed in full (cage.models.NotSignedInFull): a row for each slip written without
every signature it waits for, deleted by the signature that completes it, in the same transaction;
written so by the window's services and by an import, proved by check_ledger, and written by the
migration for a ledger that had none. Which slips wait is read from them, not from every slip of
the day."""

import datetime
import importlib

import pytest
from django.apps import apps

from cage import services
from cage.exporter import export_event
from cage.importer import import_records
from cage.ledger_check import ledger_breaks
from cage.models import NotSignedInFull, SignedInFull, Slip
from cage.selectors.slips import pending_count, pending_slips
from events.services import day_add
from tests.cage.helpers import fill_issued, stock
from tests.cage.test_chain import below_the_application, sql
from tests.cage.test_export_records import generated_with_window_work
from tests.cage.test_signed_in_full import waiting_sale

pytestmark = pytest.mark.django_db


def listed() -> dict[int, int]:
    """{slip id: day id} of the slips listed as not signed in full."""
    return dict(NotSignedInFull.objects.values_list("slip_id", "day_id"))


def without_record() -> dict[int, int]:
    """{slip id: day id} of the slips with no record of being signed in full."""
    return dict(Slip.objects.filter(signed_in_full__isnull=True).values_list("pk", "day_id"))


def test_a_slip_is_listed_from_its_writing_until_the_signature_that_completes_it(cast):
    stock(cast)
    assert listed() == {} and not without_record()  # the bank's stocking is signed in full as written
    sale = waiting_sale(cast)
    fill = fill_issued(cast)
    assert set(listed()) == {sale.pk, fill.pk} and listed() == without_record()
    assert [p.slip.pk for p in pending_slips(cast.event, day=cast.day)] == [sale.pk, fill.pk]
    services.sign(slip=sale, capacity="authorized_by", person=cast.dric)
    assert set(listed()) == {fill.pk}
    services.sign(slip=fill, capacity="carried_by", person=cast.runner)
    assert set(listed()) == {fill.pk}  # in transit: the dealer has not received it
    services.sign(slip=fill, capacity="received_by", person=cast.dealer)
    assert listed() == {} == without_record()
    assert SignedInFull.objects.filter(slip__in=[sale, fill]).count() == 2
    assert pending_count(cast.event, day=cast.day) == 0
    assert ledger_breaks(chains=False) == []


def test_a_slip_a_void_names_and_a_refused_void_stay_listed_but_wait_for_nobody(cast):
    stock(cast)
    sale = waiting_sale(cast)
    void = services.void(
        day=cast.day,
        target=sale,
        reason="rang up twice",
        signed=cast.signed(requested_by="chip_cashier"),
        allow_pending=True,
    )
    assert set(listed()) == {sale.pk, void.pk} == set(without_record())
    assert [p.slip.pk for p in pending_slips(cast.event, day=cast.day)] == [void.pk]  # the void waits, not the sale
    services.refuse(slip=void, person=cast.dric, reason="not a mistake")
    assert set(listed()) == {sale.pk, void.pk}
    assert [p.slip.pk for p in pending_slips(cast.event, day=cast.day)] == [sale.pk]  # the sale waits again
    assert pending_count(cast.event) == 1
    assert ledger_breaks(chains=False) == []


def test_an_imported_event_lists_exactly_its_slips_not_signed_in_full(db):
    # Exported with slips still waiting (the file's "pending" records), imported again beside it:
    # the import holds the list's rows with its other rows (cage.services.memo).
    event = generated_with_window_work()
    data = export_event(event)
    assert any(r.get("pending") for day in data["days"] for r in day["records"])
    data["event"]["slug"] = "again"
    again = import_records(data)
    assert listed() == without_record()
    mine = Slip.objects.filter(event=again, not_signed_in_full__isnull=False)
    assert mine.count() == Slip.objects.filter(event=event, not_signed_in_full__isnull=False).count() > 0
    assert [p.slip.serial for p in pending_slips(again)] == [p.slip.serial for p in pending_slips(event)]
    assert pending_slips(again)
    assert ledger_breaks(chains=False) == []


def test_check_ledger_names_a_slip_listed_wrongly_missing_or_on_another_day(cast):
    stock(cast)
    sale, other = waiting_sale(cast), waiting_sale(cast)
    signed = Slip.objects.filter(signed_in_full__isnull=False).order_by("pk").first()
    later = day_add(event=cast.event, date=cast.day.date + datetime.timedelta(days=1))
    with below_the_application():
        sql("DELETE FROM cage_notsignedinfull WHERE slip_id = %s", [sale.pk])
        sql("UPDATE cage_notsignedinfull SET day_id = %s WHERE slip_id = %s", [later.pk, other.pk])
        sql("INSERT INTO cage_notsignedinfull (slip_id, day_id) VALUES (%s, %s)", [signed.pk, signed.day_id])
    breaks = ledger_breaks(chains=False)
    assert any(b.startswith(f"lakeside: {sale.number} is not signed in full, but is not listed") for b in breaks)
    assert f"lakeside: {other.number} is listed as not signed in full on another day than its own" in breaks
    assert (
        f"lakeside: {signed.number} is signed in full, but is still listed among the slips not signed in full" in breaks
    )
    assert len(breaks) == 3
    # The window reads the list alone: the slip missing from it does not show as waiting.
    assert sale.pk not in {p.slip.pk for p in pending_slips(cast.event)}


def test_the_migration_lists_the_slips_a_ledger_without_the_list_lacks(cast):
    stock(cast)
    waiting_sale(cast)
    waiting_sale(cast)
    before = listed()
    assert len(before) == 2
    NotSignedInFull.objects.all().delete()
    importlib.import_module("cage.migrations.0026_slips_not_signed_in_full").backfill(apps, None)
    assert listed() == before == without_record()
    assert ledger_breaks(chains=False) == []
