"""The slips' index by day in the order they happened (day, at, id): the latest slips a person signed
that day, and which slips wait, read from one end of the day until enough are found rather than
every slip of the day sorted. An index alone: on SQLite the table is not rebuilt, and its
append-only triggers stay."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("cage", "0024_posting_last_move")]

    operations = [
        migrations.AddIndex(
            model_name="slip",
            index=models.Index(fields=["day", "at", "id"], name="cage_slip_day_in_order"),
        ),
    ]
