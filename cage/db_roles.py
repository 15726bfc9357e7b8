"""PostgreSQL: the application's own role, which can read and add to the records but never rewrite
them. An owner role runs `migrate` and owns every table; the application connects as a role with
SELECT and INSERT only on the append-only records (slips, postings, signatures, the records of
slips signed in full, refusals, sign-offs, the chain's links, the days' seals and totals, the books of paper slips and their serials, the
audit trail and its links), so that not even the application's own password lets anyone UPDATE,
DELETE or TRUNCATE them, drop their triggers or lift them (that takes the owner, or a superuser).
Records that may be corrected after they are written (a bank deposit slip, a cheque) it may update
but never DELETE or TRUNCATE. Everything else it may change as it needs to.

`python manage.py migrate` with MIGRATE_DATABASE_URL set migrates as the owner and then grants
the application's role (the user of DATABASE_URL) what it needs (cage/management/commands/migrate.py).
"""

from django.db import connection as default_connection

from audit.models import AuditEntry, AuditLink
from cage.models import (
    BankSlip,
    Cheque,
    DaySeal,
    DayTotal,
    LedgerLink,
    OpenerSignOff,
    PaperBook,
    PaperBookPrint,
    PaperConfirmation,
    PaperSerial,
    PaperWritten,
    Posting,
    Refusal,
    Signature,
    SignedInFull,
    Slip,
)
from events.models import ApprovedPurpose

APPEND_ONLY = (
    Slip,
    Posting,
    Signature,
    SignedInFull,
    Refusal,
    OpenerSignOff,
    LedgerLink,
    DaySeal,
    DayTotal,
    PaperBook,
    PaperBookPrint,
    PaperSerial,
    PaperWritten,
    PaperConfirmation,
    AuditEntry,
    AuditLink,
)
# Completed after they are written, never deleted.
NEVER_DELETED = (BankSlip, Cheque, ApprovedPurpose)


def grant_statements(role: str, connection=default_connection) -> list[str]:
    quote = connection.ops.quote_name
    who = quote(role)
    kept = ", ".join(quote(model._meta.db_table) for model in APPEND_ONLY)
    completed = ", ".join(quote(model._meta.db_table) for model in NEVER_DELETED)
    return [
        f"GRANT USAGE ON SCHEMA public TO {who}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {who}",
        f"REVOKE UPDATE, DELETE, TRUNCATE, TRIGGER, REFERENCES ON {kept} FROM {who}",
        f"REVOKE DELETE, TRUNCATE, TRIGGER, REFERENCES ON {completed} FROM {who}",
        f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {who}",
    ]


def grant(role: str, connection=default_connection) -> None:
    with connection.cursor() as cursor:
        for statement in grant_statements(role, connection):
            cursor.execute(statement)
