from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from cage.backup import BackupError, database_name, restore, unapplied_migrations


class Command(BaseCommand):
    help = (
        "Restore a file written by `backup` into the database DATABASE_URL names. Refused if that "
        "database already holds data, unless --force (which replaces all of it)."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="a file written by `backup`")
        parser.add_argument(
            "--force", action="store_true", help="replace a database that already holds data with the backup"
        )

    def handle(self, *args, path, force=False, **options):
        try:
            restore(Path(path), force=force)
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"Restored {path} into {database_name()}.")
        missing = unapplied_migrations()
        if missing:
            self.stdout.write(
                f"The backup is from an earlier version: run `python manage.py migrate` ({len(missing)} migration(s))."
            )
