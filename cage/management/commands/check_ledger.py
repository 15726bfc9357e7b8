from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cage.ledger_check import ledger_breaks
from events.models import Event


class Command(BaseCommand):
    help = gettext_lazy(
        "Verify every event's ledger: each instrument sums to zero; no custody account is negative; each slip "
        "balances and has the signatures its postings need; serials have no gaps; closed days stayed closed."
    )

    def handle(self, *args, **options):
        breaks = ledger_breaks()
        for line in breaks:
            self.stderr.write(line)
        if breaks:
            raise CommandError(_("%(count)s break(s) in the ledger") % {"count": len(breaks)})
        self.stdout.write(_("Ledger holds for %(count)s event(s).") % {"count": Event.objects.count()})
