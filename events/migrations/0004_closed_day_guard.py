"""A closed gaming day is locked, in the database itself, on PostgreSQL and on SQLite.

The services never take a day back from closed (DESIGN: gaming day, setup → open → reconciling →
closed), so the database refuses it too, whatever writes the row: a closed day's status, date
and event never change and the row is never deleted. Its opening hours may still be corrected.

On SQLite the trigger lives on events_gamingday: a later migration that makes Django rebuild that
table (most ALTERs on SQLite) drops it, and must create it again;
tests/cage/test_guards.py::test_every_guard_is_installed fails until it does.
"""

from django.db import migrations

POSTGRES = """
CREATE OR REPLACE FUNCTION events_closed_day_locked() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE'
            OR NEW.status IS DISTINCT FROM OLD.status
            OR NEW.date IS DISTINCT FROM OLD.date
            OR NEW.event_id IS DISTINCT FROM OLD.event_id THEN
        RAISE EXCEPTION 'events_gamingday: a closed gaming day is locked: % refused', TG_OP
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER events_closed_day_locked BEFORE UPDATE OR DELETE ON events_gamingday
    FOR EACH ROW WHEN (OLD.status = 'closed') EXECUTE FUNCTION events_closed_day_locked();
"""

POSTGRES_BACKWARD = """
DROP TRIGGER IF EXISTS events_closed_day_locked ON events_gamingday;
DROP FUNCTION IF EXISTS events_closed_day_locked();
"""

SQLITE = [
    """
CREATE TRIGGER events_closed_day_locked_update BEFORE UPDATE ON events_gamingday
WHEN OLD.status = 'closed' AND (
    NEW.status IS NOT OLD.status OR NEW.date IS NOT OLD.date OR NEW.event_id IS NOT OLD.event_id)
BEGIN
    SELECT RAISE(ABORT, 'events_gamingday: a closed gaming day is locked: UPDATE refused');
END
""",
    """
CREATE TRIGGER events_closed_day_locked_delete BEFORE DELETE ON events_gamingday
WHEN OLD.status = 'closed'
BEGIN
    SELECT RAISE(ABORT, 'events_gamingday: a closed gaming day is locked: DELETE refused');
END
""",
]

SQLITE_BACKWARD = [
    "DROP TRIGGER IF EXISTS events_closed_day_locked_update",
    "DROP TRIGGER IF EXISTS events_closed_day_locked_delete",
]


def run(postgres: str, sqlite: list[str]):
    def operation(apps, schema_editor):
        vendor = schema_editor.connection.vendor
        # A plain cursor: the PL/pgSQL's % placeholders are not query parameters.
        with schema_editor.connection.cursor() as cursor:
            if vendor == "postgresql":
                cursor.execute(postgres)
            elif vendor == "sqlite":
                for statement in sqlite:
                    cursor.execute(statement)

    return operation


class Migration(migrations.Migration):
    dependencies = [("events", "0003_login_setup_code")]

    operations = [migrations.RunPython(run(POSTGRES, SQLITE), run(POSTGRES_BACKWARD, SQLITE_BACKWARD))]
