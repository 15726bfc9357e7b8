import django.db.models.deletion
from django.db import migrations, models

# A posting's slip and account keep no index of their own: the indexes on (slip, denomination) and
# (account, denomination) begin with them and serve every lookup by either, and each posting
# written kept the two extra indexes up to date for nothing. Only the indexes go (AlterField would
# rebuild the whole table on SQLite, and with it the ledger's triggers).
INDEXES = {"slip_id": "cage_posting_slip_id_a5abd5bd", "account_id": "cage_posting_account_id_f483e61a"}


class Migration(migrations.Migration):
    dependencies = [
        ("cage", "0010_close_signature"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    f'DROP INDEX IF EXISTS "{name}"',
                    reverse_sql=f'CREATE INDEX "{name}" ON "cage_posting" ("{column}")',
                )
                for column, name in INDEXES.items()
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="posting",
                    name="account",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="postings",
                        to="cage.account",
                    ),
                ),
                migrations.AlterField(
                    model_name="posting",
                    name="slip",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="postings",
                        to="cage.slip",
                    ),
                ),
            ],
        ),
    ]
