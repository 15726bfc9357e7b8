"""Each slip written without every signature it waits for gets a row (NotSignedInFull) until the
signature that completes it.

Which slips still wait was asked of the day's slips without their record of being signed in full:
every slip of the day, on every refresh of the cage home and the DRIC's queue. Now it is asked of
these rows. Here one is written for every slip that has no SignedInFull yet; check_ledger proves
each slip has one of the two.
"""

import django.db.models.deletion
from django.db import migrations, models

BATCH = 5000


def backfill(apps, schema_editor):
    """A row for every slip not signed in full, a few thousand at a time."""
    Slip = apps.get_model("cage", "Slip")
    NotSignedInFull = apps.get_model("cage", "NotSignedInFull")
    last = 0
    while True:
        slips = list(
            Slip.objects.filter(pk__gt=last, signed_in_full__isnull=True)
            .order_by("pk")
            .values_list("pk", "day_id")[:BATCH]
        )
        if not slips:
            break
        last = slips[-1][0]
        NotSignedInFull.objects.bulk_create(NotSignedInFull(slip_id=pk, day_id=day_id) for pk, day_id in slips)


class Migration(migrations.Migration):
    dependencies = [
        ("cage", "0025_slip_day_in_order"),
        ("events", "0014_approved_purpose_any_case"),
    ]

    operations = [
        migrations.CreateModel(
            name="NotSignedInFull",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "day",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="+", to="events.gamingday"
                    ),
                ),
                (
                    "slip",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE, related_name="not_signed_in_full", to="cage.slip"
                    ),
                ),
            ],
            options={
                "verbose_name": "slip not signed in full",
                "verbose_name_plural": "slips not signed in full",
                "ordering": ["id"],
            },
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
