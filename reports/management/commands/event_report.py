import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from audit import services as audit
from events.models import Event
from reports.exports import figures_csv, figures_pdf
from reports.figures import report_figures


class Command(BaseCommand):
    help = "An event's figures: cage-report/1 JSON, CSV, or the PDF financial report."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["json", "csv", "pdf"], default="json")
        parser.add_argument("--out", help="write to this file instead of standard output")

    def handle(self, *args, slug, format, out=None, **options):
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"no event {slug!r}")
        figures, variance_notes = report_figures(event)
        if format == "json":
            content = (json.dumps(figures, indent=2) + "\n").encode()
        elif format == "csv":
            content = figures_csv(figures).encode()
        else:
            content = figures_pdf(event, figures, variance_notes)
        audit.exported(event, "event_report", format)
        if out:
            Path(out).write_bytes(content)
        elif format == "pdf":
            sys.stdout.buffer.write(content)
        else:
            self.stdout.write(content.decode(), ending="")
