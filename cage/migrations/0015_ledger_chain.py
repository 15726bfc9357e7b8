# The ledger's hash chain and the seals of locked days (core.chain): a link per write, append-only
# like the rows it describes, guarded below the ORM as they are (0006_ledger_guards). Slips written
# before the chain existed are linked here, one link each with everything they hold, in the order
# they were written, and each closed day is sealed with its close slip's link.

import django.db.models.deletion
from django.db import migrations, models

from cage.migrations import _guards

TABLES = ("cage_ledgerlink", "cage_dayseal")


def guard(apps, schema_editor):
    _guards.guard_tables(schema_editor.connection, TABLES, postgres_function="cage_refuse_change")


def unguard(apps, schema_editor):
    _guards.unguard_tables(schema_editor.connection, TABLES)


def link_what_was_written(apps, schema_editor):
    from django.utils import timezone

    from core import chain

    Slip = apps.get_model("cage", "Slip")
    LedgerLink = apps.get_model("cage", "LedgerLink")
    DaySeal = apps.get_model("cage", "DaySeal")
    Event = apps.get_model("events", "Event")
    for event in Event.objects.all():
        keys = {d.pk: d.key for d in apps.get_model("events", "ChipDenomination").objects.filter(event=event)}
        seq, digest = 0, chain.GENESIS
        closes = {}
        slips = Slip.objects.filter(event=event).select_related("day", "table", "runner", "account", "voids")
        for slip in slips.order_by("id"):
            key = {"type": slip.slip_type, "serial": slip.serial}
            written = {
                "at": chain.moment(slip.at),
                "table": slip.table.code if slip.table_id else None,
                "runner": slip.runner.code if slip.runner_id else None,
                "account": slip.account.code if slip.account_id else None,
                "voids": {"type": slip.voids.slip_type, "serial": slip.voids.serial} if slip.voids_id else None,
                "reason": slip.reason,
                "details": slip.details,
            }
            postings = sorted(
                [p.account.code, "cash" if p.denomination_id is None else f"chips:{keys[p.denomination_id]}", p.amount]
                for p in slip.postings.select_related("account")
            )
            signatures = sorted(
                [s.capacity, s.person.code, chain.moment(s.signed_at)] for s in slip.signatures.select_related("person")
            )
            added = [("slip", {"written": written, "postings": postings, "signatures": signatures})]
            refusal = getattr(slip, "refusal", None) if hasattr(slip, "refusal") else None
            if refusal is not None:
                added.append(
                    (
                        "refusal",
                        {
                            "refusal": {
                                "person": refusal.person.code,
                                "reason": refusal.reason,
                                "at": chain.moment(refusal.refused_at),
                            }
                        },
                    )
                )
            sign_off = getattr(slip, "sign_off", None) if hasattr(slip, "sign_off") else None
            if sign_off is not None:
                added.append(
                    (
                        "sign_off",
                        {
                            "sign_off": {
                                "person": sign_off.person.code,
                                "at": chain.moment(sign_off.signed_at),
                                "via": sign_off.via,
                            }
                        },
                    )
                )
            for kind, what in added:
                seq += 1
                text = chain.canonical(
                    {
                        "v": chain.VERSION,
                        "event": event.slug,
                        "seq": seq,
                        "day": slip.day.date.isoformat(),
                        "kind": kind,
                        "slip": key,
                        **what,
                    }
                )
                digest = chain.chained(digest, text)
                LedgerLink.objects.create(
                    event=event, seq=seq, day=slip.day, slip=slip, kind=kind, content=text, digest=digest
                )
            if slip.slip_type == "close_day":
                closes[slip.day_id] = (slip.day, seq, digest)
        for day, seq, digest in closes.values():
            if day.status == "closed":
                DaySeal.objects.create(day=day, seq=seq, digest=digest, sealed_at=timezone.now())


class Migration(migrations.Migration):
    dependencies = [
        ("cage", "0014_void_requests_and_refusals"),
        ("events", "0010_licence_limits_and_designated_persons"),
    ]

    operations = [
        migrations.CreateModel(
            name="DaySeal",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("seq", models.PositiveBigIntegerField(help_text="the link the seal names")),
                ("digest", models.CharField(max_length=64)),
                ("audit_seq", models.PositiveBigIntegerField(blank=True, null=True)),
                ("audit_digest", models.CharField(blank=True, max_length=64)),
                ("sealed_at", models.DateTimeField()),
                (
                    "day",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT, related_name="seal", to="events.gamingday"
                    ),
                ),
            ],
            options={
                "verbose_name": "seal of a gaming day",
                "verbose_name_plural": "seals of gaming days",
                "ordering": ["id"],
            },
        ),
        migrations.CreateModel(
            name="LedgerLink",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("seq", models.PositiveBigIntegerField()),
                ("kind", models.CharField(max_length=12)),
                ("content", models.TextField()),
                ("digest", models.CharField(max_length=64)),
                (
                    "day",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to="events.gamingday"
                    ),
                ),
                (
                    "event",
                    models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="events.event"),
                ),
                (
                    "slip",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="links", to="cage.slip"
                    ),
                ),
            ],
            options={
                "verbose_name": "link of the ledger's chain",
                "verbose_name_plural": "links of the ledger's chain",
                "ordering": ["event", "seq"],
                "constraints": [
                    models.UniqueConstraint(fields=("event", "seq"), name="one_link_per_seq"),
                    models.CheckConstraint(condition=models.Q(("seq__gt", 0)), name="link_seq_positive"),
                ],
            },
        ),
        migrations.RunPython(guard, unguard),
        migrations.RunPython(link_what_was_written, migrations.RunPython.noop),
    ]
