from django.core.management.base import BaseCommand, CommandError

from cage.ledger_check import ledger_breaks
from events.models import Event


class Command(BaseCommand):
    help = (
        "Verify every event's ledger: each instrument sums to zero; no custody account is negative; each slip "
        "balances and has the signatures its postings need; serials have no gaps; closed days stayed closed."
    )

    def handle(self, *args, **options):
        breaks = ledger_breaks()
        for line in breaks:
            self.stderr.write(line)
        if breaks:
            raise CommandError(f"{len(breaks)} break(s) in the ledger")
        self.stdout.write(f"Ledger holds for {Event.objects.count()} event(s).")
