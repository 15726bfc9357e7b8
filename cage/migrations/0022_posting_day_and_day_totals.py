"""Each posting carries its slip's gaming day, and each sealed day its places' totals.

A place's balance was the sum of every posting it ever had: a sale at the window and a day's sheets
read the whole event's postings of the chip bank and bank cash, more with every day. Now a balance is
the sealed days' totals (DayTotal, written as a day closes) plus the postings of the days not sealed,
read by the day from the postings' index (account, day, denomination, amount).

Here: the day is copied onto every posting from its slip (the postings' append-only guard is lifted
for that one UPDATE and put back), every sealed day's totals are summed from its postings, and the
totals are guarded as the postings are. SQLite keeps the new column nullable (a NOT NULL column would
rebuild the table and drop its guards); PostgreSQL's is NOT NULL. check_ledger proves both.
"""

import django.db.models.deletion
from django.db import migrations, models

from cage.migrations import _guards

BACKFILL_DAYS = """
UPDATE cage_posting SET day_id = (SELECT s.day_id FROM cage_slip s WHERE s.id = cage_posting.slip_id)
"""

SEALED_DAYS_TOTALS = """
INSERT INTO cage_daytotal (day_id, account_id, denomination_id, amount)
SELECT p.day_id, p.account_id, p.denomination_id, SUM(p.amount)
FROM cage_posting p
WHERE p.day_id IN (SELECT day_id FROM cage_dayseal)
GROUP BY p.day_id, p.account_id, p.denomination_id
HAVING SUM(p.amount) <> 0
ORDER BY p.day_id, p.account_id, p.denomination_id
"""


def backfill(apps, schema_editor):
    connection = schema_editor.connection
    _guards.unguard_tables(connection, ["cage_posting"])
    with connection.cursor() as cursor:
        cursor.execute(BACKFILL_DAYS)
        cursor.execute(SEALED_DAYS_TOTALS)
    _guards.guard_tables(connection, ["cage_posting"], postgres_function="cage_refuse_change")
    _guards.guard_tables(connection, ["cage_daytotal"], postgres_function="cage_refuse_change")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ALTER TABLE cage_posting ALTER COLUMN day_id SET NOT NULL")


def undo(apps, schema_editor):
    _guards.unguard_tables(schema_editor.connection, ["cage_daytotal"])
    if schema_editor.connection.vendor == "postgresql":
        with schema_editor.connection.cursor() as cursor:
            cursor.execute("ALTER TABLE cage_posting ALTER COLUMN day_id DROP NOT NULL")


class Migration(migrations.Migration):
    dependencies = [
        ("cage", "0021_cheques_for_approved_purposes"),
        ("events", "0014_approved_purpose_any_case"),
    ]

    operations = [
        migrations.CreateModel(
            name="DayTotal",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("amount", models.BigIntegerField(help_text="cents; positive into the account over the day")),
                (
                    "account",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="cage.account",
                    ),
                ),
                (
                    "day",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to="events.gamingday"
                    ),
                ),
                (
                    "denomination",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        to="events.chipdenomination",
                    ),
                ),
            ],
            options={
                "verbose_name": "day's total of a place",
                "verbose_name_plural": "days' totals of places",
                "ordering": ["id"],
                "indexes": [models.Index(fields=["account", "denomination", "amount"], name="cage_daytotal_balances")],
                "constraints": [
                    models.CheckConstraint(condition=models.Q(("amount", 0), _negated=True), name="day_total_not_zero")
                ],
            },
        ),
        # Nullable in the database: SQLite adds the column in place, its triggers kept.
        migrations.AddField(
            model_name="posting",
            name="day",
            field=models.ForeignKey(
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="events.gamingday",
            ),
        ),
        migrations.RemoveIndex(model_name="posting", name="cage_posting_balances"),
        migrations.RunPython(backfill, undo),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="posting",
                    name="day",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="events.gamingday",
                    ),
                ),
            ],
        ),
        migrations.AddIndex(
            model_name="posting",
            index=models.Index(fields=["account", "day", "denomination", "amount"], name="cage_posting_by_place_day"),
        ),
    ]
