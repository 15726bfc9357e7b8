"""The postings' index by place, day and slip: a counted place's last movement of the day read from
the latest back (cage.selectors.counts), not from every slip of the day. An index alone: on SQLite
the table is not rebuilt, and its append-only triggers stay."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("cage", "0023_slips_signed_in_full"),
        ("events", "0014_approved_purpose_any_case"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="posting",
            index=models.Index(fields=["account", "day", "slip"], name="cage_posting_last_move"),
        ),
    ]
