"""`manage.py migrate` as the database's owner, where the application runs as a role of its own.

With MIGRATE_DATABASE_URL set (PostgreSQL), the migrations run through that URL (the owner's),
and the application's role, the user of DATABASE_URL, is then granted what it needs and no more
(cage.db_roles). Without it, Django's own migrate, unchanged.
"""

import dj_database_url
from django.conf import settings
from django.core.management.base import CommandError
from django.core.management.commands import migrate
from django.db import connections
from django.utils.translation import gettext as _

from cage import db_roles


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
            owner = dj_database_url.parse(owner_url)
        except ValueError as exc:
            raise CommandError(_("MIGRATE_DATABASE_URL is not a database URL: %(error)s") % {"error": exc}) from None
        connection.close()
        connection.settings_dict.update(
            {k: v for k, v in owner.items() if k in ("NAME", "USER", "PASSWORD", "HOST", "PORT")}
        )
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
