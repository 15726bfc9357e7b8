"""The ledger's guards in the database itself, on PostgreSQL and on SQLite alike.

Below the ORM's AppendOnly models, whatever writes the rows (a faulty tool, a hand edit in a
database shell) meets the same refusals:

- slips, postings, signatures and the DRIC's opener sign-offs are append-only: any UPDATE or DELETE is refused (PostgreSQL
  already refused it for postings and signatures since 0002; this adds slips there, and all three
  on SQLite);
- a chip denomination's value, key and event are fixed once a posting uses it (every posting of
  it is in cents of that value); its colour may still be corrected. The guard sits on an events
  table but reads cage_posting, so it lives here, where cage_posting exists: events knows nothing
  of the cage;
- an account is a place: its kind, event, code, person and table never change;
- a serial counter never goes back (serials are gapless and never reused): its last serial is
  never lowered, it never moves to another event or slip type, and a counter that has issued a
  serial is never deleted.

The product's own code never needs to get past them: it only inserts ledger rows, counts serials
up, and takes a day forward. Emptying the whole database (`manage.py flush`, and the test suite's
flush between transactional tests) is not a change to a row: on PostgreSQL it is a TRUNCATE,
which fires no row trigger; on SQLite cage/management/commands/flush.py lifts the triggers for
that one transaction and puts them back before it commits.

SQLite keeps a trigger with its table: a later migration that makes Django rebuild one of these
tables (most ALTERs on SQLite) drops its triggers and must create them again, and a rebuild of
cage_posting fails while the chip guard names it ("error in trigger ...: no such table"): drop
that trigger first and create it again after. tests/cage/test_guards.py::test_every_guard_is_installed
fails until every guard is back.
"""

from django.db import migrations

from cage.migrations import _guards

POSTGRES = """
CREATE TRIGGER cage_slip_append_only BEFORE UPDATE OR DELETE ON cage_slip
    FOR EACH ROW EXECUTE FUNCTION cage_refuse_change();

CREATE OR REPLACE FUNCTION cage_chip_value_fixed() RETURNS trigger AS $$
BEGIN
    IF (NEW.value_cents IS DISTINCT FROM OLD.value_cents
            OR NEW.key IS DISTINCT FROM OLD.key
            OR NEW.event_id IS DISTINCT FROM OLD.event_id)
            AND EXISTS (SELECT 1 FROM cage_posting WHERE denomination_id = OLD.id) THEN
        RAISE EXCEPTION 'events_chipdenomination: a chip''s value, key and event are fixed once a posting uses it: UPDATE refused'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER cage_chip_value_fixed BEFORE UPDATE ON events_chipdenomination
    FOR EACH ROW EXECUTE FUNCTION cage_chip_value_fixed();

CREATE OR REPLACE FUNCTION cage_account_fixed() RETURNS trigger AS $$
BEGIN
    IF NEW.kind IS DISTINCT FROM OLD.kind
            OR NEW.event_id IS DISTINCT FROM OLD.event_id
            OR NEW.code IS DISTINCT FROM OLD.code
            OR NEW.person_id IS DISTINCT FROM OLD.person_id
            OR NEW.table_id IS DISTINCT FROM OLD.table_id THEN
        RAISE EXCEPTION 'cage_account: an account''s kind, event, code, person and table never change: UPDATE refused'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER cage_account_fixed BEFORE UPDATE ON cage_account
    FOR EACH ROW EXECUTE FUNCTION cage_account_fixed();

CREATE OR REPLACE FUNCTION cage_counter_never_back() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        IF OLD.last > 0 THEN
            RAISE EXCEPTION 'cage_slipcounter: a serial counter never goes back: DELETE refused'
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN OLD;
    END IF;
    IF NEW.last < OLD.last
            OR NEW.event_id IS DISTINCT FROM OLD.event_id
            OR NEW.slip_type IS DISTINCT FROM OLD.slip_type THEN
        RAISE EXCEPTION 'cage_slipcounter: a serial counter never goes back: UPDATE refused'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER cage_counter_never_back BEFORE UPDATE OR DELETE ON cage_slipcounter
    FOR EACH ROW EXECUTE FUNCTION cage_counter_never_back();
"""

POSTGRES_BACKWARD = """
DROP TRIGGER IF EXISTS cage_slip_append_only ON cage_slip;
DROP TRIGGER IF EXISTS cage_chip_value_fixed ON events_chipdenomination;
DROP TRIGGER IF EXISTS cage_account_fixed ON cage_account;
DROP TRIGGER IF EXISTS cage_counter_never_back ON cage_slipcounter;
DROP FUNCTION IF EXISTS cage_chip_value_fixed();
DROP FUNCTION IF EXISTS cage_account_fixed();
DROP FUNCTION IF EXISTS cage_counter_never_back();
"""


append_only = _guards.sqlite_append_only


SQLITE = [
    *append_only("cage_slip"),
    # The DRIC's sign-offs of openers (0005 guards them on PostgreSQL).
    *append_only("cage_openersignoff"),
    *append_only("cage_posting"),
    *append_only("cage_signature"),
    """
CREATE TRIGGER cage_chip_value_fixed BEFORE UPDATE ON events_chipdenomination
WHEN (NEW.value_cents IS NOT OLD.value_cents OR NEW.key IS NOT OLD.key OR NEW.event_id IS NOT OLD.event_id)
    AND EXISTS (SELECT 1 FROM cage_posting WHERE denomination_id = OLD.id)
BEGIN
    SELECT RAISE(ABORT, 'events_chipdenomination: a chip''s value, key and event are fixed once a posting uses it: UPDATE refused');
END
""",
    """
CREATE TRIGGER cage_account_fixed BEFORE UPDATE ON cage_account
WHEN NEW.kind IS NOT OLD.kind OR NEW.event_id IS NOT OLD.event_id OR NEW.code IS NOT OLD.code
    OR NEW.person_id IS NOT OLD.person_id OR NEW.table_id IS NOT OLD.table_id
BEGIN
    SELECT RAISE(ABORT, 'cage_account: an account''s kind, event, code, person and table never change: UPDATE refused');
END
""",
    """
CREATE TRIGGER cage_counter_never_back_update BEFORE UPDATE ON cage_slipcounter
WHEN NEW.last < OLD.last OR NEW.event_id IS NOT OLD.event_id OR NEW.slip_type IS NOT OLD.slip_type
BEGIN
    SELECT RAISE(ABORT, 'cage_slipcounter: a serial counter never goes back: UPDATE refused');
END
""",
    """
CREATE TRIGGER cage_counter_never_back_delete BEFORE DELETE ON cage_slipcounter
WHEN OLD.last > 0
BEGIN
    SELECT RAISE(ABORT, 'cage_slipcounter: a serial counter never goes back: DELETE refused');
END
""",
]

SQLITE_BACKWARD = [
    f"DROP TRIGGER IF EXISTS {name}"
    for name in (
        "cage_slip_append_only_update",
        "cage_slip_append_only_delete",
        "cage_posting_append_only_update",
        "cage_posting_append_only_delete",
        "cage_signature_append_only_update",
        "cage_signature_append_only_delete",
        "cage_openersignoff_append_only_update",
        "cage_openersignoff_append_only_delete",
        "cage_chip_value_fixed",
        "cage_account_fixed",
        "cage_counter_never_back_update",
        "cage_counter_never_back_delete",
    )
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
    dependencies = [
        ("cage", "0005_opener_sign_off"),
        # the chip guard sits on events_chipdenomination
        ("events", "0004_closed_day_guard"),
    ]

    operations = [migrations.RunPython(run(POSTGRES, SQLITE), run(POSTGRES_BACKWARD, SQLITE_BACKWARD))]
