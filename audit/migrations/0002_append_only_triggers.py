"""The database refuses any UPDATE or DELETE of an audit entry, on SQLite and on PostgreSQL
(audit.guards holds the SQL; the ORM's own refusal is core.append_only.AppendOnly)."""

from django.db import migrations


def guard(apps, schema_editor):
    from audit import guards

    guards.guard(schema_editor.connection)


def unguard(apps, schema_editor):
    from audit import guards

    guards.unguard(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("audit", "0001_audit_entry")]

    operations = [migrations.RunPython(guard, unguard)]
