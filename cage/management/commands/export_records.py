from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from cage.exporter import dumps, export_event
from events.models import Event


class Command(BaseCommand):
    help = (
        "Write an event back out as a cage-records/1 file. Importing it into another database "
        "(import_records) gives the same event and the same report."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--out", help="write to this file instead of standard output")

    def handle(self, *args, slug, out=None, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"no event {slug!r}")
        data = export_event(event)
        content = dumps(data)
        if out:
            try:
                Path(out).write_text(content, encoding="utf-8")
            except OSError as exc:
                raise CommandError(f"cannot write {out}: {exc.strerror}") from None
            slips = sum(len(day["records"]) for day in data["days"])
            self.stderr.write(f"Exported {slug}: {len(data['days'])} day(s), {slips} record(s) to {out}.")
        else:
            self.stdout.write(content, ending="")
