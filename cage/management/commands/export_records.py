from pathlib import Path

from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cage.exporter import dumps, export_event
from cage.management.commands._progress import add_progress_argument, progress_for
from events.commands import Command as TranslatedHelpCommand
from events.models import Event


class Command(TranslatedHelpCommand):
    help = gettext_lazy(
        "Write an event back out as a cage-records/1 file. Importing it into another database "
        "(import_records) gives the same event and the same report."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--out", help=gettext_lazy("write to this file instead of standard output"))
        add_progress_argument(parser)

    def handle(self, *args, slug, out=None, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(_("no event %(slug)s") % {"slug": repr(slug)})
        data = export_event(event, progress_for(self, options))
        content = dumps(data)
        if out:
            try:
                Path(out).write_text(content, encoding="utf-8")
            except OSError as exc:
                raise CommandError(
                    _("cannot write %(path)s: %(reason)s") % {"path": out, "reason": exc.strerror}
                ) from None
            slips = sum(len(day["records"]) for day in data["days"])
            self.stderr.write(
                _("Exported %(slug)s: %(days)s day(s), %(records)s record(s) to %(path)s.")
                % {"slug": slug, "days": len(data["days"]), "records": slips, "path": out}
            )
        else:
            self.stdout.write(content, ending="")
