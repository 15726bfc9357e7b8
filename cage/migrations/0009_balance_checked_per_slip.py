"""PostgreSQL's balance guard (0002) checks each slip once, through an index on the slip.

0002's deferred trigger ran at COMMIT once per posting, and each run summed its slip's postings:
a slip of four postings was summed four times, and the lookup, planned when the table was
small, could scan the account-and-denomination index and filter on the slip, reading every
posting of the event so far (an import of 8,000 records spent two minutes in its COMMIT).

Now:
- an index on (slip, denomination) gives every slip's postings by instrument, whatever the
  planner believes of the table's size;
- a deferred trigger on cage_slip checks each new slip once, at COMMIT, with all its postings;
- cage_posting_balanced (0002's name, still deferred) checks a posting's slip only when the slip
  was not written by the same transaction: a posting added to an older slip (a fill's second
  step, signed later), or one slipped in by hand under an old slip. A slip written by the
  transaction is left to its own trigger. Its xmin is then the transaction's own id; a slip
  written in a savepoint has the savepoint's, so its postings are still checked one by one.

The guard is as strict as before with one exception: a transaction that runs SET CONSTRAINTS
IMMEDIATE has its new slips checked then; postings it adds to those slips afterwards are not
checked again (the product never does this; check_ledger still finds such a slip).

On SQLite only the index is added: SQLite has no deferred triggers, and the services balance
every slip before writing it (cage.services.ledger.net_legs).
"""

from django.db import migrations, models

FORWARD = """
CREATE OR REPLACE FUNCTION cage_refuse_unbalanced(slip bigint) RETURNS void AS $$
DECLARE
    unbalanced RECORD;
BEGIN
    SELECT denomination_id, SUM(amount) AS total INTO unbalanced
        FROM cage_posting WHERE slip_id = slip
        GROUP BY denomination_id HAVING SUM(amount) <> 0 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'slip % does not balance: instrument % sums to %',
            slip, COALESCE(unbalanced.denomination_id::text, 'cash'), unbalanced.total
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION cage_check_slip_balanced() RETURNS trigger AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM cage_slip WHERE id = NEW.slip_id AND xmin = pg_current_xact_id()::xid) THEN
        PERFORM cage_refuse_unbalanced(NEW.slip_id);
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION cage_check_new_slip_balanced() RETURNS trigger AS $$
BEGIN
    PERFORM cage_refuse_unbalanced(NEW.id);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE CONSTRAINT TRIGGER cage_slip_balanced AFTER INSERT ON cage_slip
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION cage_check_new_slip_balanced();
"""

# 0002's function, as it was.
BACKWARD = """
DROP TRIGGER IF EXISTS cage_slip_balanced ON cage_slip;
DROP FUNCTION IF EXISTS cage_check_new_slip_balanced();
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
DROP FUNCTION IF EXISTS cage_refuse_unbalanced(bigint);
"""


def run(sql):
    def operation(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            # A plain cursor: the PL/pgSQL's % placeholders are not query parameters.
            with schema_editor.connection.cursor() as cursor:
                cursor.execute(sql)

    return operation


class Migration(migrations.Migration):
    dependencies = [("cage", "0008_i18n_labels")]

    operations = [
        migrations.AddIndex(
            model_name="posting",
            index=models.Index(fields=["slip", "denomination"], name="cage_posting_by_slip"),
        ),
        migrations.RunPython(run(FORWARD), run(BACKWARD)),
    ]
