import argparse
from pathlib import Path

from django.core.management.base import CommandError
from django.db import DatabaseError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cage.backup import BackupError
from cage.backup_schedule import KEEP, CopyFailed, Refused, scheduled_backup
from cage.management.commands._progress import add_progress_argument, progress_for
from events.commands import Command as TranslatedHelpCommand


def copies_to_keep(text: str) -> int:
    try:
        keep = int(text)
    except ValueError:
        keep = 0
    if keep < 1:
        raise argparse.ArgumentTypeError(_("%(value)s is not a number of copies (1 or more)") % {"value": repr(text)})
    return keep


class Command(TranslatedHelpCommand):
    help = gettext_lazy(
        "Take a backup into a folder when one is due, check it and keep the newest ones: for the timer "
        "(install_service), which runs it every ten minutes. A copy is due once the newest is an hour old "
        "while a gaming day is open, and once a day has closed after the newest. Each copy is checked as "
        "it would be restored (check_ledger); one that fails is renamed .failed and the command fails."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--to",
            required=True,
            metavar="DIR",
            help=gettext_lazy("the folder of the copies, e.g. a USB stick's; it must exist"),
        )
        parser.add_argument(
            "--keep",
            type=copies_to_keep,
            default=KEEP,
            help=gettext_lazy("how many good copies to keep, the newest (default %(default)s); older ones are removed"),
        )
        add_progress_argument(parser)

    def handle(self, *args, to, keep, **options):
        try:
            outcome = scheduled_backup(Path(to), keep=keep, progress=progress_for(self, options))
        except Refused as refused:
            raise CommandError(str(refused)) from None
        except CopyFailed as failed:
            raise CommandError(
                _(
                    "The copy failed its check and was renamed %(path)s; it does not count among the copies "
                    "kept. What the check found: %(problems)s"
                )
                % {"path": failed.path, "problems": " / ".join(failed.problems)}
            ) from None
        except (BackupError, DatabaseError, OSError) as exc:
            # A database that does not answer, a stick pulled out in the middle of a copy.
            raise CommandError(_("No backup taken: %(error)s") % {"error": exc}) from None
        if outcome.taken is None:
            self.stdout.write(_("No backup taken: %(reason)s.") % {"reason": outcome.reason})
            return
        self.stdout.write(
            _("Backup taken, %(path)s: %(reason)s. Checked as it would be restored: its ledger holds.")
            % {"path": outcome.taken, "reason": outcome.reason}
        )
        if outcome.removed:
            self.stdout.write(
                _("Removed %(count)s older copy(ies), keeping the newest %(keep)s: %(names)s")
                % {"count": len(outcome.removed), "keep": keep, "names": ", ".join(p.name for p in outcome.removed)}
            )
