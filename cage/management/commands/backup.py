from pathlib import Path

from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cage.backup import BackupError, backup, database_name
from cage.management.commands._progress import add_progress_argument, progress_for
from events.commands import Command as TranslatedHelpCommand


class Command(TranslatedHelpCommand):
    help = gettext_lazy(
        "Back up the whole database to one file: SQLite through its online backup API (safe while "
        "the cage works), PostgreSQL with pg_dump (custom format). Restore it with `restore`."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help=gettext_lazy("the backup file to write; it must not exist yet"))
        add_progress_argument(parser)

    def handle(self, *args, path, **options):
        try:
            backup(Path(path), progress_for(self, options))
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(_("Backed up %(database)s to %(path)s.") % {"database": database_name(), "path": path})
