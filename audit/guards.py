"""The database's own refusal to change or remove an audit entry, below the ORM.

SQLite: BEFORE UPDATE / BEFORE DELETE triggers that RAISE(ABORT). PostgreSQL: a PL/pgSQL
trigger function that raises. Anyone with a database shell meets the same refusal as the app.

Emptying the whole database (Django's `flush`, which the test suite runs between transactional
tests) is the one exception: on PostgreSQL it is a TRUNCATE, which row triggers do not see; on
SQLite it is a DELETE, and cage's `flush` command lifts every trigger of the database (these
included) for that one transaction and puts them back before it commits.
"""

TABLE = "audit_auditentry"

SQLITE_GUARD = [
    f"""CREATE TRIGGER IF NOT EXISTS audit_entry_no_update BEFORE UPDATE ON {TABLE}
        BEGIN SELECT RAISE(ABORT, 'audit entries are append-only: UPDATE refused'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS audit_entry_no_delete BEFORE DELETE ON {TABLE}
        BEGIN SELECT RAISE(ABORT, 'audit entries are append-only: DELETE refused'); END""",
]
SQLITE_UNGUARD = [
    "DROP TRIGGER IF EXISTS audit_entry_no_update",
    "DROP TRIGGER IF EXISTS audit_entry_no_delete",
]

POSTGRES_GUARD = [
    """CREATE OR REPLACE FUNCTION audit_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'audit entries are append-only: % refused', TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql""",
    f"DROP TRIGGER IF EXISTS audit_entry_append_only ON {TABLE}",
    f"""CREATE TRIGGER audit_entry_append_only BEFORE UPDATE OR DELETE ON {TABLE}
    FOR EACH ROW EXECUTE FUNCTION audit_refuse_change()""",
]
POSTGRES_UNGUARD = [
    f"DROP TRIGGER IF EXISTS audit_entry_append_only ON {TABLE}",
    "DROP FUNCTION IF EXISTS audit_refuse_change()",
]

GUARD = {"sqlite": SQLITE_GUARD, "postgresql": POSTGRES_GUARD}
UNGUARD = {"sqlite": SQLITE_UNGUARD, "postgresql": POSTGRES_UNGUARD}


def _run(connection, statements) -> None:
    # A plain cursor, one statement at a time: the PL/pgSQL's % are not query parameters.
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def guard(connection) -> None:
    _run(connection, GUARD.get(connection.vendor, []))


def unguard(connection) -> None:
    _run(connection, UNGUARD.get(connection.vendor, []))
