"""`manage.py migrate` as the database's owner, where the application runs as a role of its own.

With MIGRATE_DATABASE_URL set (PostgreSQL), the migrations run through that URL (the owner's),
and the application's role, the user of DATABASE_URL, is then granted what it needs and no more
(cage.db_roles). Without it, Django's own migrate, unchanged.
"""

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import CommandError
from django.core.management.commands import migrate
from django.db import connections
from django.utils.translation import gettext as _

from cage import db_roles
from config.database_url import database_settings


class Command(migrate.Command):
    def handle(self, *args, **options):
        owner_url = getattr(settings, "MIGRATE_DATABASE_URL", "")
        alias = options["database"]
        connection = connections[alias]
        if not owner_url or connection.vendor != "postgresql":
            return super().handle(*args, **options)
        app_role = connection.settings_dict["USER"]
        saved = dict(connection.settings_dict)
        try:
            # Read as DATABASE_URL is: a standby's list of hosts too (config.database_url).
            owner = database_settings(owner_url, name="MIGRATE_DATABASE_URL")
        except ImproperlyConfigured as exc:
            raise CommandError(str(exc)) from None
        connection.close()
        connection.settings_dict.update(
            {k: v for k, v in owner.items() if k in ("NAME", "USER", "PASSWORD", "HOST", "PORT")}
        )
        if "," in owner["HOST"]:
            connection.settings_dict["OPTIONS"] = {**saved.get("OPTIONS", {}), **owner.get("OPTIONS", {})}
        try:
            super().handle(*args, **options)
            if app_role and app_role != connection.settings_dict["USER"]:
                db_roles.grant(app_role, connection)
                self.stdout.write(
                    _("Granted %(role)s reading and adding records, never rewriting them.") % {"role": app_role}
                )
        finally:
            connection.close()
            connection.settings_dict.clear()
            connection.settings_dict.update(saved)
