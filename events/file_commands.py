"""What the commands that make a document share (manage.py poster, day_report, event_report): the
--lang option and the language it turns on, the --out file, the help said in the active language,
and writing what was made to the file or to standard output."""

import sys
from pathlib import Path

from django.utils.translation import gettext_lazy as _lazy

from events.commands import Command

# --lang as typed, and the language it turns on while the document is made.
LANGUAGES = {"en": "en-ca", "fr": "fr-ca"}


class DocumentCommand(Command):
    """A command that makes one document in English or French. A subclass says what --lang
    changes (`lang_help`) and, when the document is only ever written to a file, sets
    `out_required` and `out_help`."""

    lang_help = _lazy("en or fr")
    out_help = _lazy("write to this file instead of standard output")
    out_required = False

    def add_document_arguments(self, parser):
        parser.add_argument("--lang", choices=sorted(LANGUAGES), default="en", help=self.lang_help)
        parser.add_argument("--out", required=self.out_required, help=self.out_help)

    def write_document(self, content: bytes, out: str | None, *, binary: bool):
        """To `out`, or else to standard output: bytes as they are (a PDF), text as text."""
        if out:
            Path(out).write_bytes(content)
        elif binary:
            sys.stdout.buffer.write(content)
        else:
            self.stdout.write(content.decode(), ending="")
