import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from events.models import Event
from reports.figures import event_figures


class Command(BaseCommand):
    help = "An event's figures (cage-report/1)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["json"], default="json")
        parser.add_argument("--out", help="write to this file instead of standard output")

    def handle(self, *args, slug, out=None, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"no event {slug!r}")
        text = json.dumps(event_figures(event), indent=2) + "\n"
        if out:
            Path(out).write_text(text, encoding="utf-8")
        else:
            self.stdout.write(text, ending="")
