from django.core.management.base import BaseCommand, CommandError

from cage.importer import ImportFailed, import_file


class Command(BaseCommand):
    help = "Import an event's records (cage-records/1). All or nothing: on any problem, nothing changes."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file, **options):
        try:
            event = import_file(file)
        except ImportFailed as failed:
            for line in failed.problems:
                self.stderr.write(line)
            raise CommandError(f"{len(failed.problems)} problem(s); nothing was imported") from None
        slips = event.slips.count()
        self.stdout.write(f"Imported {event.slug}: {event.days.count()} day(s), {slips} slip(s).")
