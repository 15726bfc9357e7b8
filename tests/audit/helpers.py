"""Short ways to read the audit trail in tests, and to make the database refuse to write it."""

from contextlib import contextmanager

from django.db import connection

from audit.models import AuditEntry
from tests.conftest import owner_for_a_moment

ADDRESS = "203.0.113.7"  # TEST-NET-3: the address each test's client comes from


def last(action, **filters) -> AuditEntry:
    entry = AuditEntry.objects.filter(action=action, **filters).order_by("-id").first()
    assert entry is not None, f"no {action} entry with {filters}"
    return entry


BREAK_SQLITE = [
    """CREATE TRIGGER audit_test_disk_full BEFORE INSERT ON audit_auditentry
       BEGIN SELECT RAISE(ABORT, 'disk full'); END""",
]
MEND_SQLITE = ["DROP TRIGGER IF EXISTS audit_test_disk_full"]
BREAK_POSTGRES = [
    """CREATE OR REPLACE FUNCTION audit_test_disk_full() RETURNS trigger AS $$
BEGIN RAISE EXCEPTION 'disk full'; END; $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER audit_test_disk_full BEFORE INSERT ON audit_auditentry
       FOR EACH ROW EXECUTE FUNCTION audit_test_disk_full()""",
]
MEND_POSTGRES = [
    "DROP TRIGGER IF EXISTS audit_test_disk_full ON audit_auditentry",
    "DROP FUNCTION IF EXISTS audit_test_disk_full()",
]


def _run(statements):
    # A fault set up by the table's owner (DDL), whatever role the test runs as.
    with owner_for_a_moment(), connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


@contextmanager
def audit_trail_broken():
    """The database refuses every new audit entry (a real fault, made by a real trigger)."""
    postgres = connection.vendor == "postgresql"
    _run(BREAK_POSTGRES if postgres else BREAK_SQLITE)
    try:
        yield
    finally:
        _run(MEND_POSTGRES if postgres else MEND_SQLITE)
