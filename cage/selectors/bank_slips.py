"""The cage's deposits to the licensee's trust account, each with the bank's deposit slip for it
(cage.services.bank_slips): what the trust account's page and the financial report read."""

from dataclasses import dataclass

from cage.models import Account, BankSlip, Posting, Slip
from cage.slip_types import DEPOSITS
from core.reading import read_once
from events.models import Event


@dataclass
class DepositToTheBank:
    """A deposit from the cage that moved its cash to the trust account, and its bank slip."""

    slip: Slip
    cents: int
    bank_slip: BankSlip | None

    @property
    def confirmed(self) -> bool:
        """Its bank slip entered by the General Cashier and checked by the DRIC."""
        return self.bank_slip is not None and self.bank_slip.checked_by_id is not None


@read_once
def deposits_to_the_bank(event: Event) -> list[DepositToTheBank]:
    """Every standing deposit from the cage to the trust account, in the order made, with its bank
    slip if one is entered (one query, once a page: shared, never changed by a caller). A deposit waiting for the DRIC's witness has moved nothing
    yet and is not listed; a voided one counts for nothing."""
    postings = (
        Posting.objects.filter(
            slip__event=event,
            slip__slip_type__in=DEPOSITS,
            account__kind=Account.Kind.TRUST,
            denomination__isnull=True,
        )
        .exclude(slip__in=Slip.objects.voided())
        .select_related("slip__day", "slip__bank_slip__entered_by", "slip__bank_slip__checked_by")
        .order_by("slip__at", "slip_id")
    )
    lines = []
    for posting in postings:
        slip = posting.slip
        lines.append(DepositToTheBank(slip=slip, cents=posting.amount, bank_slip=getattr(slip, "bank_slip", None)))
    return lines


def unconfirmed(event: Event) -> list[DepositToTheBank]:
    return [line for line in deposits_to_the_bank(event) if not line.confirmed]
