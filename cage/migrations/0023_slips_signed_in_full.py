"""Each slip that has every signature it waits for gets a record of it (SignedInFull).

Which slips still wait was counted from their signatures: every slip of the day and its signatures
on every refresh of the cage home and the DRIC's queue. Now it is the day's slips without this
record. Here the record is written for every slip already signed in full, by the rule the services
write it by (SlipKind.signed_in_full), at the time of its last signature (its own time where it
waits for none); then the table is guarded as the other ledger tables are. check_ledger proves it.
"""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Exists, OuterRef

from cage.migrations import _guards

BATCH = 5000


def backfill(apps, schema_editor):
    write_records(apps)
    _guards.guard_tables(schema_editor.connection, ["cage_signedinfull"], postgres_function="cage_refuse_change")


def write_records(apps) -> None:
    """A record for every slip signed in full that has none, a few thousand slips at a time."""
    from cage.slip_types import SLIP_KINDS  # the rule the services write the record by

    Slip = apps.get_model("cage", "Slip")
    Signature = apps.get_model("cage", "Signature")
    SignedInFull = apps.get_model("cage", "SignedInFull")
    recorded = SignedInFull.objects.filter(slip_id=OuterRef("pk"))
    last = 0
    while True:
        slips = list(
            Slip.objects.filter(pk__gt=last)
            .exclude(Exists(recorded))
            .order_by("pk")
            .values_list("pk", "slip_type", "details", "at")[:BATCH]
        )
        if not slips:
            break
        last = slips[-1][0]
        signed: dict[int, dict] = {}
        for slip_id, capacity, at in Signature.objects.filter(slip_id__in=[s[0] for s in slips]).values_list(
            "slip_id", "capacity", "signed_at"
        ):
            signed.setdefault(slip_id, {})[capacity] = at
        records = []
        for pk, slip_type, details, at in slips:
            kind, times = SLIP_KINDS[slip_type], signed.get(pk, {})
            if kind.signed_in_full(times, details):
                # At its last signature in a capacity its type has (check_ledger names any other).
                last_signed = max((t for c, t in times.items() if kind.capacity(c) is not None), default=at)
                records.append(SignedInFull(slip_id=pk, signed_at=last_signed))
        SignedInFull.objects.bulk_create(records)


def undo(apps, schema_editor):
    _guards.unguard_tables(schema_editor.connection, ["cage_signedinfull"])


class Migration(migrations.Migration):
    dependencies = [
        ("cage", "0022_posting_day_and_day_totals"),
    ]

    operations = [
        migrations.CreateModel(
            name="SignedInFull",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("signed_at", models.DateTimeField()),
                (
                    "slip",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT, related_name="signed_in_full", to="cage.slip"
                    ),
                ),
            ],
            options={
                "verbose_name": "slip signed in full",
                "verbose_name_plural": "slips signed in full",
                "ordering": ["id"],
            },
        ),
        migrations.RunPython(backfill, undo),
    ]
