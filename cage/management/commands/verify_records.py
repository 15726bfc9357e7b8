import json
from pathlib import Path

from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cage.verify import add_seal_argument, parse_seals, verify
from events.commands import Command as TranslatedHelpCommand


class Command(TranslatedHelpCommand):
    help = gettext_lazy(
        "Check a records file exported by export_records from the file alone: recompute its ledger chain, "
        "find each locked day's seal in it and compare it with the seal typed from the signed paper, and hold "
        "every record against what the chain wrote. No database of the event is needed."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help=gettext_lazy("the records file (JSON)"))
        add_seal_argument(
            parser,
            gettext_lazy(
                "a day's seal as printed on its signed sheets or close slip, in quotes if typed with its spaces "
                '(--seal "2026-09-11=3f2a9b1c 0d4e..."); at least its first 16 digits; once per day'
            ),
        )

    def handle(self, *args, file, seal, **options):
        try:
            data = json.loads(Path(file).read_text(encoding="utf-8-sig"))
        except OSError as exc:
            raise CommandError(_("cannot read %(path)s: %(reason)s") % {"path": file, "reason": exc.strerror}) from None
        except ValueError as exc:
            raise CommandError(
                _("%(path)s is not a JSON records file: %(reason)s") % {"path": file, "reason": exc}
            ) from None
        seals, problems = parse_seals(seal)
        if problems:
            raise CommandError("; ".join(problems))
        verdict = verify(data, seals)
        # What holds is said only of a file that holds: beside a problem it would mislead.
        for problem in verdict.problems:
            self.stderr.write(problem)
        if verdict.problems:
            raise CommandError(
                _("%(count)s problem(s): this copy is not the records as they were signed")
                % {"count": len(verdict.problems)}
            )
        for fact in verdict.facts:
            self.stdout.write(fact)
        if seals:
            self.stdout.write(_("The file holds the records as they were written and sealed."))
        else:
            self.stdout.write(
                _(
                    "The file's chain holds and its records are what the chain wrote. No seal was typed from the "
                    "signed paper: give --seal DATE=SEAL for each signed day to check the file against it."
                )
            )
