"""On PostgreSQL the database itself is the last line of defence for the ledger:

- a deferred constraint trigger refuses, at COMMIT, any slip whose postings do not sum to zero
  per instrument (cash, or each chip denomination), however the rows were written;
- row triggers refuse any UPDATE or DELETE of a posting or a signature.

SQLite has the model guards only (core.append_only.AppendOnly).
"""

from django.db import migrations

FORWARD = """
CREATE OR REPLACE FUNCTION cage_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '% rows are append-only: % refused', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER cage_posting_append_only BEFORE UPDATE OR DELETE ON cage_posting
    FOR EACH ROW EXECUTE FUNCTION cage_refuse_change();
CREATE TRIGGER cage_signature_append_only BEFORE UPDATE OR DELETE ON cage_signature
    FOR EACH ROW EXECUTE FUNCTION cage_refuse_change();

CREATE OR REPLACE FUNCTION cage_check_slip_balanced() RETURNS trigger AS $$
DECLARE
    unbalanced RECORD;
BEGIN
    SELECT denomination_id, SUM(amount) AS total INTO unbalanced
        FROM cage_posting WHERE slip_id = NEW.slip_id
        GROUP BY denomination_id HAVING SUM(amount) <> 0 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'slip % does not balance: instrument % sums to %',
            NEW.slip_id, COALESCE(unbalanced.denomination_id::text, 'cash'), unbalanced.total
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE CONSTRAINT TRIGGER cage_posting_balanced AFTER INSERT ON cage_posting
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION cage_check_slip_balanced();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS cage_posting_balanced ON cage_posting;
DROP TRIGGER IF EXISTS cage_posting_append_only ON cage_posting;
DROP TRIGGER IF EXISTS cage_signature_append_only ON cage_signature;
DROP FUNCTION IF EXISTS cage_check_slip_balanced();
DROP FUNCTION IF EXISTS cage_refuse_change();
"""


def run(sql):
    def operation(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            # A plain cursor: the PL/pgSQL's % placeholders are not query parameters.
            with schema_editor.connection.cursor() as cursor:
                cursor.execute(sql)

    return operation


class Migration(migrations.Migration):
    dependencies = [("cage", "0001_initial")]

    operations = [migrations.RunPython(run(FORWARD), run(BACKWARD))]
