"""manage.py poster SLUG TABLE [--lang fr] --out PATH: a table's posted rules, limits and odds."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from events.game_rules import table_by_code
from events.models import Event
from events.posters import LANGUAGES, poster_pdf
from events.rules import RuleViolation


class Command(BaseCommand):
    help = _lazy("A table's poster: its rules of play, betting limits, payoff odds and age restriction, as a PDF.")

    def create_parser(self, prog_name, subcommand, **kwargs):
        self.help = str(self.help)  # argparse wants text: the help in the active language
        return super().create_parser(prog_name, subcommand, **kwargs)

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("table")
        parser.add_argument("--lang", choices=sorted(LANGUAGES), default="en", help=_lazy("en or fr"))
        parser.add_argument("--out", required=True, help=_lazy("the PDF file to write"))

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
        Path(out).write_bytes(content)
