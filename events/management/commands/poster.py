"""manage.py poster SLUG TABLE [--lang fr] --out PATH: a table's posted rules, limits and odds."""

from django.core.management.base import CommandError
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from core.rules import RuleViolation
from events.file_commands import LANGUAGES, DocumentCommand
from events.game_rules import table_by_code
from events.models import Event
from events.posters import poster_pdf


class Command(DocumentCommand):
    help = _lazy("A table's poster: its rules of play, betting limits, payoff odds and age restriction, as a PDF.")
    out_help = _lazy("the PDF file to write")
    out_required = True

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("table")
        self.add_document_arguments(parser)

    def handle(self, *args, slug, table, lang="en", out, **options):
        with translation.override(LANGUAGES[lang]):
            event = Event.objects.filter(slug=slug).first()
            if event is None:
                raise CommandError(_("no event %(slug)r") % {"slug": slug})
            found = table_by_code(event, table)
            if found is None:
                raise CommandError(_("The event has no table %(table)s.") % {"table": table})
            try:
                content = poster_pdf(found, lang)
            except RuleViolation as refused:
                raise CommandError(refused.text) from None
        self.write_document(content, out, binary=True)
