# The audit trail's hash chain (audit.chain): one link per entry, append-only like the entries and
# guarded below the ORM as they are. Entries written before the chain are linked here, in the order
# of their keys.

import django.db.models.deletion
from django.db import migrations, models

TABLE = "audit_auditlink"


def guard(apps, schema_editor):
    from cage.migrations import _guards

    _guards.guard_tables(schema_editor.connection, [TABLE], postgres_function="audit_refuse_change")


def unguard(apps, schema_editor):
    from cage.migrations import _guards

    _guards.unguard_tables(schema_editor.connection, [TABLE])


def link_what_was_written(apps, schema_editor):
    from audit.chain import COLUMNS, content
    from core import chain

    AuditEntry = apps.get_model("audit", "AuditEntry")
    AuditLink = apps.get_model("audit", "AuditLink")
    seq, digest = 0, chain.GENESIS
    links = []
    for row in AuditEntry.objects.order_by("pk").values("pk", *COLUMNS).iterator():
        seq += 1
        digest = chain.chained(digest, content(seq, row["pk"], row))
        links.append(AuditLink(seq=seq, entry_id=row["pk"], digest=digest))
    AuditLink.objects.bulk_create(links, batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0003_action_codes_in_code"),
    ]

    operations = [
        migrations.CreateModel(
            name="AuditLink",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("seq", models.PositiveBigIntegerField(unique=True)),
                ("digest", models.CharField(max_length=64)),
                (
                    "entry",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT, related_name="link", to="audit.auditentry"
                    ),
                ),
            ],
            options={
                "ordering": ["seq"],
                "constraints": [
                    models.CheckConstraint(condition=models.Q(("seq__gt", 0)), name="audit_link_seq_positive")
                ],
            },
        ),
        migrations.RunPython(guard, unguard),
        migrations.RunPython(link_what_was_written, migrations.RunPython.noop),
    ]
