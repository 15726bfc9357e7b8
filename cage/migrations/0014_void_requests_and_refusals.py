# A void (a deposit, an expense, a float) moves nothing until the DRIC signs it, and she may refuse
# it (DESIGN: slips and signatures). A refused void stays on file, so a slip may be named by more
# than one void: the refused ones and the one asked for after them. Slip.voids is no longer
# one-to-one, and each refusal is a row of its own, append-only like the rest of the ledger.
#
# On SQLite, altering Slip.voids rebuilds cage_slip, which drops its append-only triggers
# (0006_ledger_guards): they are created again here.

import django.db.models.deletion
from django.db import migrations, models

from cage.migrations import _guards


def guard(apps, schema_editor):
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "CREATE TRIGGER cage_refusal_append_only BEFORE UPDATE OR DELETE ON cage_refusal "
                "FOR EACH ROW EXECUTE FUNCTION cage_refuse_change();"
            )
        elif connection.vendor == "sqlite":
            for table in ("cage_slip", "cage_refusal"):
                for statement in _guards.sqlite_append_only(table, replace=True):
                    cursor.execute(statement)


def unguard(apps, schema_editor):
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("DROP TRIGGER IF EXISTS cage_refusal_append_only ON cage_refusal;")
        elif connection.vendor == "sqlite":
            for suffix in ("update", "delete"):
                cursor.execute(f"DROP TRIGGER IF EXISTS cage_refusal_append_only_{suffix}")


class Migration(migrations.Migration):
    dependencies = [
        ("cage", "0013_posting_balances_covering"),
        ("events", "0008_table_code_any_case"),
    ]

    operations = [
        migrations.AlterField(
            model_name="slip",
            name="voids",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="void_requests",
                to="cage.slip",
            ),
        ),
        migrations.CreateModel(
            name="Refusal",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("reason", models.TextField()),
                ("refused_at", models.DateTimeField()),
                (
                    "person",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to="events.person"
                    ),
                ),
                (
                    "slip",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT, related_name="refusal", to="cage.slip"
                    ),
                ),
            ],
            options={
                "verbose_name": "slip refused",
                "verbose_name_plural": "slips refused",
                "ordering": ["id"],
            },
        ),
        migrations.RunPython(guard, unguard),
    ]
