"""Each place's running total of the day (RunningTotal): its postings of the day, added up as they
are written, which a balance reads for the days not sealed in place of the postings themselves.

Here the totals are summed from the postings already written, in one statement; check_ledger
proves every total equals its postings.
"""

import django.db.models.deletion
import django.db.models.functions.comparison
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("cage", "0026_slips_not_signed_in_full"),
        ("events", "0014_approved_purpose_any_case"),
    ]

    operations = [
        migrations.CreateModel(
            name="RunningTotal",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("amount", models.BigIntegerField(help_text="cents; positive into the account so far that day")),
                (
                    "account",
                    models.ForeignKey(
                        db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name="+", to="cage.account"
                    ),
                ),
                (
                    "day",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="events.gamingday",
                    ),
                ),
                (
                    "denomination",
                    models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="events.chipdenomination",
                    ),
                ),
            ],
            options={
                "verbose_name": "running total of a place",
                "verbose_name_plural": "running totals of places",
                "ordering": ["id"],
                "indexes": [models.Index(fields=["day"], name="cage_runningtotal_day")],
                "constraints": [
                    models.UniqueConstraint(
                        models.F("account"),
                        models.F("day"),
                        django.db.models.functions.comparison.Coalesce(models.F("denomination"), models.Value(0)),
                        name="one_running_total",
                    )
                ],
            },
        ),
        migrations.RunSQL(
            """
        INSERT INTO cage_runningtotal (account_id, day_id, denomination_id, amount)
        SELECT account_id, day_id, denomination_id, SUM(amount) FROM cage_posting WHERE day_id IS NOT NULL
        GROUP BY account_id, day_id, denomination_id
        """,
            migrations.RunSQL.noop,
        ),
    ]
