from pathlib import Path

from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cage.backup import BackupError, database_name, restore, unapplied_migrations
from cage.chain_check import last_seals
from cage.management.commands._progress import add_progress_argument, progress_for
from events.commands import Command as TranslatedHelpCommand
from events.models import Event


class Command(TranslatedHelpCommand):
    help = gettext_lazy(
        "Restore a file written by `backup` into the database DATABASE_URL names. Refused if that "
        "database already holds data, unless --force (which replaces all of it)."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help=gettext_lazy("a file written by `backup`"))
        parser.add_argument(
            "--force",
            action="store_true",
            help=gettext_lazy("replace a database that already holds data with the backup"),
        )
        add_progress_argument(parser)

    def handle(self, *args, path, force=False, **options):
        try:
            restore(Path(path), force=force, progress=progress_for(self, options))
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(_("Restored %(path)s into %(database)s.") % {"path": path, "database": database_name()})
        self.stdout.write(
            _(
                "Compare each event's last sealed day below with the latest signed close slip: a later day signed "
                "on paper means this backup is older than it (python manage.py check_ledger --seal DATE=SEAL says so)."
            )
        )
        missing = unapplied_migrations()
        if not missing:
            for slug, date, digest in last_seals(list(Event.objects.all())):
                self.stdout.write(
                    _("%(event)s: last sealed day %(date)s, seal %(seal)s")
                    % {"event": slug, "date": date, "seal": digest}
                )
        if missing:
            self.stdout.write(
                _("The backup is from an earlier version: run `python manage.py migrate` (%(count)s migration(s)).")
                % {"count": len(missing)}
            )
