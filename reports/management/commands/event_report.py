import json

from django.core.management.base import CommandError
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from audit import services as audit
from events.file_commands import LANGUAGES, DocumentCommand
from events.models import Event
from reports.exports import figures_csv, figures_pdf
from reports.figures import report_figures
from reports.filing import with_filing


class Command(DocumentCommand):
    help = _lazy("An event's figures: cage-report/1 JSON, CSV, or the PDF financial report.")
    # --lang: the language of the PDF. The JSON and the CSV are the published cage-report/1
    # format, the same in every language.
    lang_help = _lazy("the language of the PDF financial report: en or fr (the JSON and CSV are the same in both)")

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["json", "csv", "pdf"], default="json")
        self.add_document_arguments(parser)

    def handle(self, *args, slug, format, out=None, lang="en", **options):
        with translation.override(LANGUAGES[lang]):
            event = Event.objects.filter(slug=slug).first()
            if event is None:
                raise CommandError(_("no event %(slug)r") % {"slug": slug})
            figures, variance_notes = report_figures(event)
            if format == "json":
                content = (json.dumps(with_filing(event, figures), indent=2) + "\n").encode()
            elif format == "csv":
                content = figures_csv(figures).encode()
            else:
                content = figures_pdf(event, figures, variance_notes)
        audit.exported(event, "event_report", format)
        self.write_document(content, out, binary=format == "pdf")
