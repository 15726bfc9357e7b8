import datetime
import json

from django.core.management.base import CommandError
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from audit import services as audit
from events.file_commands import LANGUAGES, DocumentCommand
from events.models import GamingDay
from reports.daily import day_sheets, sheets_json
from reports.daily_exports import sheets_csv, sheets_pdf


class Command(DocumentCommand):
    help = _lazy("One gaming day's control sheets: the PDF, every sheet as CSV, or JSON.")
    lang_help = _lazy("the language of the PDF and of the CSV's text: en or fr (the JSON is the same in both)")

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("date", help=_lazy("the gaming day, YYYY-MM-DD"))
        parser.add_argument("--format", choices=["pdf", "csv", "json"], default="pdf")
        self.add_document_arguments(parser)

    def handle(self, *args, slug, date, format, out=None, lang="en", **options):
        # cage-day/1 JSON is a format for machines: its text is the same whatever the language.
        language = LANGUAGES["en"] if format == "json" else LANGUAGES[lang]
        with translation.override(language):
            try:
                when = datetime.date.fromisoformat(date)
            except ValueError as exc:
                raise CommandError(_("%(date)r is not a date as YYYY-MM-DD") % {"date": date}) from exc
            day = GamingDay.objects.select_related("event__licensee").filter(event__slug=slug, date=when).first()
            if day is None:
                raise CommandError(_("no gaming day %(date)s in event %(slug)r") % {"date": date, "slug": slug})
            data = day_sheets(day)
            if format == "json":
                content = (json.dumps(sheets_json(data), indent=2, ensure_ascii=False) + "\n").encode()
            elif format == "csv":
                content = sheets_csv(data).encode()
            else:
                content = sheets_pdf(data)
        audit.exported(day.event, "day_sheets", format, day=day)
        self.write_document(content, out, binary=format == "pdf")
