from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cage.chain_check import last_seals, paper_seal_breaks
from cage.ledger_check import ledger_breaks
from cage.verify import add_seal_argument, parse_seals
from events.commands import Command as TranslatedHelpCommand
from events.models import Event


class Command(TranslatedHelpCommand):
    help = gettext_lazy(
        "Verify every event's ledger: each instrument sums to zero; no custody account is negative; each slip "
        "balances and has the signatures its postings need; serials have no gaps; closed days stayed closed; "
        "the hash chains of the ledger and the audit trail hold, and each locked day's seal matches them."
    )

    def add_arguments(self, parser):
        parser.add_argument("--event", help=gettext_lazy("check only this event (its slug)"))
        add_seal_argument(
            parser,
            gettext_lazy(
                "a day's seal as printed on its signed sheets or close slip: the database must hold that day "
                "sealed so (a restored backup older than that close does not)"
            ),
        )

    def handle(self, *args, event=None, seal=(), **options):
        events = Event.objects.all()
        if event:
            events = events.filter(slug=event)
            if not events.exists():
                raise CommandError(_("no event %(slug)s") % {"slug": repr(event)})
        events = list(events)
        typed, problems = parse_seals(seal)
        if problems:
            raise CommandError("; ".join(problems))
        breaks = ledger_breaks(events) + paper_seal_breaks(events, typed)
        for line in breaks:
            self.stderr.write(line)
        if breaks:
            raise CommandError(_("%(count)s break(s) in the ledger") % {"count": len(breaks)})
        self.stdout.write(_("Ledger holds for %(count)s event(s).") % {"count": len(events)})
        for date, digest in typed.items():
            self.stdout.write(
                _("The gaming day %(date)s is sealed as on its paper (its first %(digits)s of 64 digits).")
                % {"date": date, "digits": len(digest)}
            )
        for slug, date, digest in last_seals(events):
            self.stdout.write(
                _("%(event)s: last sealed day %(date)s, seal %(seal)s") % {"event": slug, "date": date, "seal": digest}
            )
