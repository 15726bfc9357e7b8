"""The audit trail is append-only below the ORM too: raw SQL that updates or deletes an entry is
refused by the database's triggers, on SQLite and on PostgreSQL (run with DATABASE_URL for the latter)."""

import pytest
from django.db import DatabaseError, connection, transaction

from audit import services as audit
from audit.models import AuditEntry
from core.append_only import AppendOnlyError
from tests.conftest import owner_for_a_moment

pytestmark = pytest.mark.django_db


@pytest.fixture
def entry(cast):
    return audit.record("page", "an entry", event=cast.event, new={"x": 1})


def refused(sql, params=()) -> str:
    """Run raw SQL in a savepoint, as the table's owner would (the triggers' refusal, not the
    application's role's: tests/cage/test_app_role.py); return the database's refusal."""
    with pytest.raises(DatabaseError) as raised:
        with owner_for_a_moment(), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, params)
    return str(raised.value)


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE audit_auditentry SET message = 'nothing happened' WHERE id = %s",
        "UPDATE audit_auditentry SET outcome = 'done', rule = '' WHERE id = %s",
        "UPDATE audit_auditentry SET address = '127.0.0.1' WHERE id = %s",
    ],
)
def test_raw_sql_cannot_change_an_entry(entry, sql):
    assert "append-only: UPDATE refused" in refused(sql, [entry.pk])
    stored = AuditEntry.objects.get(pk=entry.pk)
    assert (stored.message, stored.address, stored.new) == ("an entry", None, {"x": 1})


def test_raw_sql_cannot_remove_an_entry(entry):
    assert "append-only: DELETE refused" in refused("DELETE FROM audit_auditentry WHERE id = %s", [entry.pk])
    assert "append-only: DELETE refused" in refused("DELETE FROM audit_auditentry")
    assert AuditEntry.objects.filter(pk=entry.pk).exists()


def test_the_orm_refuses_too(entry):
    with pytest.raises(AppendOnlyError):
        AuditEntry.objects.filter(pk=entry.pk).update(message="x")
    with pytest.raises(AppendOnlyError):
        AuditEntry.objects.all().delete()
    entry.message = "x"
    with pytest.raises(AppendOnlyError):
        entry.save()
    with pytest.raises(AppendOnlyError):
        entry.delete()


def test_new_entries_are_still_written(entry):
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM audit_auditentry")
        assert cursor.fetchone()[0] == AuditEntry.objects.count() >= 1
    assert audit.record("page", "another").pk > entry.pk


def test_the_guard_is_a_database_trigger_of_this_vendor():
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit_auditentry'")
            assert {row[0] for row in cursor.fetchall()} == {"audit_entry_no_update", "audit_entry_no_delete"}
        else:
            cursor.execute(
                "SELECT tgname FROM pg_trigger WHERE tgrelid = 'audit_auditentry'::regclass AND NOT tgisinternal"
            )
            assert {row[0] for row in cursor.fetchall()} == {"audit_entry_append_only"}
