from django.core.management.base import CommandError
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cage.services import paper
from cage.slip_types import PAPER_KINDS
from core.rules import RuleViolation
from events.file_commands import LANGUAGES, DocumentCommand
from events.models import Event


class Command(DocumentCommand):
    help = gettext_lazy(
        "A book of blank paper slips of one slip type, for when the system is down: reserves the next "
        "paper serials of the type and writes the book's PDF. The audit trail records the printing."
    )
    lang_help = gettext_lazy("the language of the slips: en or fr")
    out_help = gettext_lazy("the PDF file to write")
    out_required = True

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--type", required=True, choices=[k.type.value for k in PAPER_KINDS], dest="slip_type")
        parser.add_argument(
            "--count", type=int, default=25, help=gettext_lazy("how many slips the book holds (1 to 100)")
        )
        self.add_document_arguments(parser)

    def handle(self, *args, slug, slip_type, count, out, lang="en", **options):
        from cage.paper_pdf import render_book

        with translation.override(LANGUAGES[lang]):
            event = Event.objects.filter(slug=slug).first()
            if event is None:
                raise CommandError(_("no event %(slug)r") % {"slug": slug})
            try:
                # A book whose file could not be written reserves nothing.
                with transaction.atomic():
                    printed = paper.book_print(event=event, slip_type=slip_type, count=count, user=None, language=lang)
                    self.write_document(render_book(printed), out, binary=True)
            except RuleViolation as exc:
                raise CommandError(exc.text) from exc
            except OSError as exc:
                raise CommandError(
                    _("%(out)s could not be written: %(error)s") % {"out": out, "error": exc.strerror}
                ) from exc
            self.stdout.write(_("Book printed: %(book)s, written to %(out)s.") % {"book": printed.book, "out": out})
