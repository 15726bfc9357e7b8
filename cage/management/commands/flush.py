"""`manage.py flush` that empties a guarded SQLite database as it empties PostgreSQL.

The ledger's guards (cage/migrations/0006_ledger_guards.py) refuse an UPDATE or DELETE of a
ledger row. Emptying the whole database is not that: on PostgreSQL Django's flush is a TRUNCATE,
which fires no row trigger; on SQLite it is a DELETE FROM each table, which fires every row
trigger (SQLite's truncate shortcut is off on a table with triggers). So on SQLite this flush
lifts the database's triggers, empties every table and puts each trigger back exactly as it
was (its own CREATE statement, read from sqlite_master), all in one transaction: nothing commits
without its triggers. The test suite's flush between transactional tests (pytest-django's
transaction=True, live_server) comes through here too; nothing else in the product ever
removes a ledger row.
"""

from django.core.management.commands import flush
from django.db import connections, transaction


class Command(flush.Command):
    def handle(self, **options):
        connection = connections[options["database"]]
        if connection.vendor == "postgresql":
            return self._as_login(connection, **options)
        if connection.vendor != "sqlite":
            return super().handle(**options)
        with transaction.atomic(using=connection.alias):
            with connection.cursor() as cursor:
                cursor.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND sql IS NOT NULL")
                triggers = cursor.fetchall()
                for name, _sql in triggers:
                    cursor.execute(f'DROP TRIGGER "{name}"')
            super().handle(**options)
            with connection.cursor() as cursor:
                for _name, sql in triggers:
                    cursor.execute(sql)

    def _as_login(self, connection, **options):
        """PostgreSQL: TRUNCATE as the login, not as a role it acts as (the test suite's run as the
        application's role: tests/conftest.py). The application's own login may not TRUNCATE the
        records, so for it this fails, as it should."""
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_user, session_user")
            acting, login = cursor.fetchone()
            if acting != login:
                cursor.execute("SET ROLE NONE")
        try:
            return super().handle(**options)
        finally:
            if acting != login:
                with connection.cursor() as cursor:
                    cursor.execute(f"SET ROLE {connection.ops.quote_name(acting)}")
