"""The DRIC's sign-off of an opener that differs from its table's last closer (cage.models.OpenerSignOff).

Append-only like signatures: on PostgreSQL a row trigger refuses any UPDATE or DELETE (the function
is the one of 0002_postgres_guards, restated here so that this migration stands on its own).
"""

import django.db.models.deletion
from django.db import migrations, models

FORWARD = """
CREATE OR REPLACE FUNCTION cage_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '% rows are append-only: % refused', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER cage_openersignoff_append_only BEFORE UPDATE OR DELETE ON cage_openersignoff
    FOR EACH ROW EXECUTE FUNCTION cage_refuse_change();
"""

BACKWARD = "DROP TRIGGER IF EXISTS cage_openersignoff_append_only ON cage_openersignoff;"


def run(sql):
    def operation(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            with schema_editor.connection.cursor() as cursor:
                cursor.execute(sql)

    return operation


class Migration(migrations.Migration):
    dependencies = [
        ("cage", "0004_slip_print"),
        ("events", "0002_signing_pin"),
    ]

    operations = [
        migrations.CreateModel(
            name="OpenerSignOff",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("signed_at", models.DateTimeField()),
                (
                    "via",
                    models.CharField(
                        choices=[
                            ("app", "In the app, from the DRIC's own session"),
                            ("records_file", "With the day's close in a records file"),
                        ],
                        default="app",
                        max_length=20,
                    ),
                ),
                (
                    "person",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to="events.person"
                    ),
                ),
                (
                    "slip",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT, related_name="sign_off", to="cage.slip"
                    ),
                ),
            ],
            options={
                "ordering": ["id"],
            },
        ),
        migrations.RunPython(run(FORWARD), run(BACKWARD)),
    ]
