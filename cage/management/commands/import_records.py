from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cage.importer import ImportFailed, import_file
from cage.management.commands._progress import add_progress_argument, progress_for
from events.commands import Command as TranslatedHelpCommand


class Command(TranslatedHelpCommand):
    help = gettext_lazy("Import an event's records (cage-records/1). All or nothing: on any problem, nothing changes.")

    def add_arguments(self, parser):
        parser.add_argument("file")
        add_progress_argument(parser)

    def handle(self, *args, file, **options):
        try:
            event = import_file(file, progress_for(self, options))
        except ImportFailed as failed:
            for line in failed.problems:
                self.stderr.write(line)
            raise CommandError(
                _("%(count)s problem(s); nothing was imported") % {"count": len(failed.problems)}
            ) from None
        self.stdout.write(
            _("Imported %(slug)s: %(days)s day(s), %(slips)s slip(s).")
            % {"slug": event.slug, "days": event.days.count(), "slips": event.slips.count()}
        )
