import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from audit import services as audit
from events.models import Event
from reports.exports import figures_csv, figures_pdf
from reports.figures import report_figures

# --lang: the language of the PDF. The JSON and the CSV are the published cage-report/1 format,
# the same in every language.
LANGUAGES = {"en": "en-ca", "fr": "fr-ca"}


class Command(BaseCommand):
    help = _lazy("An event's figures: cage-report/1 JSON, CSV, or the PDF financial report.")

    def create_parser(self, prog_name, subcommand, **kwargs):
        self.help = str(self.help)  # argparse wants text: the help in the active language
        return super().create_parser(prog_name, subcommand, **kwargs)

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["json", "csv", "pdf"], default="json")
        parser.add_argument("--out", help=_lazy("write to this file instead of standard output"))
        parser.add_argument(
            "--lang",
            choices=sorted(LANGUAGES),
            default="en",
            help=_lazy("the language of the PDF financial report: en or fr (the JSON and CSV are the same in both)"),
        )

    def handle(self, *args, slug, format, out=None, lang="en", **options):
        with translation.override(LANGUAGES[lang]):
            event = Event.objects.filter(slug=slug).first()
            if event is None:
                raise CommandError(_("no event %(slug)r") % {"slug": slug})
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
