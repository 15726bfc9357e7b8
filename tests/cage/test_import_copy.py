"""The two ways an import's checked rows reach a SQLite database (cage.staging): attached and
copied by SQLite itself, one INSERT … SELECT a table, where no transaction is open (the command);
read and written in bulk inside a caller's transaction, where SQLite cannot attach. Both give the
same event, the same trail and the same report."""

import copy

import pytest
from django.db import connection, transaction

from audit.models import AuditEntry
from cage import staging
from cage.exporter import export_event
from cage.importer import import_records
from cage.ledger_check import ledger_breaks
from cage.models import Slip
from reports.audit_trail.reading import summary
from reports.figures import event_figures
from tests.records_generator import generated_event

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite attaches; PostgreSQL copies with COPY"),
]


def trail(event) -> list[tuple]:
    entries = AuditEntry.objects.filter(event=event).select_related("slip").order_by("id")
    return [
        (e.action, summary(e).replace(event.slug, "SLUG"), e.slip.number if e.slip else None, e.channel)
        for e in entries
    ]


def test_the_attached_copy_and_the_bulk_copy_give_the_same_event(monkeypatch):
    copied = []
    attached_copy = staging.copy_attached
    monkeypatch.setattr(staging, "copy_attached", lambda: copied.append("attached") or attached_copy())
    data = generated_event(seed=11, days=3, tables=4, records_per_day=80)
    assert any(r["type"] == "void" for day in data["days"] for r in day["records"])

    first = copy.deepcopy(data)
    first["event"]["slug"] = "copied-by-sqlite"
    attached = import_records(first)
    assert copied == ["attached"]

    second = copy.deepcopy(data)
    second["event"]["slug"] = "copied-in-bulk"
    with transaction.atomic():
        bulk = import_records(second)
    assert copied == ["attached"]  # inside a transaction: the rows went through Python

    exported = export_event(attached), export_event(bulk)
    exported[0]["event"]["slug"] = exported[1]["event"]["slug"]
    # The chains hold the same writes; their digests differ as the events' slugs do (each link
    # names its event), and so do the seals.
    chains = [[{**link["content"], "event": None} for link in e.pop("ledger_chain")] for e in exported]
    assert chains[0] == chains[1] and len(chains[0]) > 300
    for e in exported:
        for day in e["days"]:
            day.pop("seal", None)
    assert exported[0] == exported[1]
    assert event_figures(attached) == {**event_figures(bulk), "event": event_figures(attached)["event"]}
    assert trail(attached) == trail(bulk)
    assert Slip.objects.filter(event=attached).count() == Slip.objects.filter(event=bulk).count() > 300
    # Every key moved: no slip of one event points at a row of the other.
    assert not Slip.objects.filter(event=attached, day__event=bulk).exists()
    assert not Slip.objects.filter(event=attached, voids__event=bulk).exists()
    assert ledger_breaks([attached, bulk]) == []

    # The scratch database was let go: the next import attaches its own.
    third = copy.deepcopy(data)
    third["event"]["slug"] = "copied-again"
    again = import_records(third)
    assert copied == ["attached", "attached"]
    days = export_event(again)["days"]
    for day in days:
        day.pop("seal", None)
    assert days == exported[1]["days"]
