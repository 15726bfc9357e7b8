"""`events` writes on the audit trail through core.trail, since it may not import the writer above it
(docs/architecture.md): the audit app registers its writer there, an entry written through the port
goes with its caller's transaction, and with no writer registered the port refuses to go on rather
than drop an entry."""

import pytest
from django.core.exceptions import ImproperlyConfigured, PermissionDenied
from django.db import transaction

from audit import services
from audit.models import AuditEntry
from core import trail
from events import services as event_services
from events.models import ChipDenomination
from tests.audit.helpers import last


def test_the_audit_app_registers_its_writer_with_the_port():
    assert trail._writer == {"record": services.record, "permission_refused": services.permission_refused}


def test_with_no_writer_registered_the_port_refuses_rather_than_drop_an_entry(monkeypatch, rf):
    monkeypatch.setattr(trail, "_writer", {})
    with pytest.raises(ImproperlyConfigured, match="no audit trail writer"):
        trail.record("chip_added", "$%(value)s chip added to the chip set", {"value": "100"})
    with pytest.raises(ImproperlyConfigured, match="no audit trail writer"):
        trail.permission_refused(rf.get("/"), PermissionDenied())


@pytest.mark.django_db
def test_an_events_service_writes_its_entry_through_the_port_in_its_own_transaction(cast):
    event_services.denomination_add(event=cast.event, value="100", colour="black")
    entry = last("chip_added", event=cast.event)
    assert (entry.outcome, entry.new) == ("done", {"value": "100", "colour": "black"})
    entries = AuditEntry.objects.count()
    with pytest.raises(RuntimeError), transaction.atomic():
        event_services.denomination_add(event=cast.event, value="500", colour="purple")
        raise RuntimeError("the action fails after its entry was written")
    assert AuditEntry.objects.count() == entries and not cast.event.denominations.filter(key="500").exists()


@pytest.mark.django_db
def test_a_service_whose_entry_cannot_go_to_a_writer_changes_nothing(cast, monkeypatch):
    monkeypatch.setattr(trail, "_writer", {})
    with pytest.raises(ImproperlyConfigured), transaction.atomic():
        event_services.denomination_add(event=cast.event, value="100", colour="black")
    assert not ChipDenomination.objects.filter(event=cast.event, key="100").exists()
