"""The licensee's trust account as the cage's records show it: each deposit to it with the bank's
deposit slip for it (cage.services.bank_slips), and each expense paid from it with its cheque
(cage.services.cheques), and the bank reconciliation they make with the floats paid from it: what
the trust account's page and the financial report read."""

from dataclasses import dataclass

from django.db.models import Q, Sum

from cage.models import Account, BankSlip, Cheque, Posting, Slip
from cage.slip_types import DEPOSITS, EXPENSES, FLOATS
from core.reading import read_once
from events.models import ApprovedPurpose, Event


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


def _posted(event: Event, types, kind: str, *related: str):
    """The postings of the event's standing slips of `types` to its place of `kind`, in cash, in the
    order the slips were made, each with its slip, its day and what `related` names."""
    return (
        Posting.objects.filter(
            slip__event=event, slip__slip_type__in=types, account__kind=kind, denomination__isnull=True
        )
        .exclude(slip__in=Slip.objects.voided())
        .select_related("slip__day", *related)
        .order_by("slip__at", "slip_id")
    )


@read_once
def deposits_to_the_bank(event: Event) -> list[DepositToTheBank]:
    """Every standing deposit from the cage to the trust account, in the order made, with its bank
    slip if one is entered (one query, once a page: shared, never changed by a caller). A deposit
    waiting for the DRIC's witness has moved nothing yet and is not listed."""
    postings = _posted(
        event, DEPOSITS, Account.Kind.TRUST, "slip__bank_slip__entered_by", "slip__bank_slip__checked_by"
    )
    return [
        DepositToTheBank(slip=p.slip, cents=p.amount, bank_slip=getattr(p.slip, "bank_slip", None)) for p in postings
    ]


def unconfirmed(event: Event) -> list[DepositToTheBank]:
    return [line for line in deposits_to_the_bank(event) if not line.confirmed]


@dataclass
class ExpenseByCheque:
    """An expense paid from the trust account, and the cheque that pays it."""

    slip: Slip
    cents: int
    cheque: Cheque | None


@read_once
def expenses_by_cheque(event: Event) -> list[ExpenseByCheque]:
    """Every standing expense (both signatures in, not voided), in the order made, with its cheque if
    one is entered: the cheque register as the trust account's page and the report read it (one
    query, once a page: shared, never changed by a caller)."""
    postings = _posted(event, EXPENSES, Account.Kind.EXPENSES, "slip__cheque__entered_by")
    return [ExpenseByCheque(slip=p.slip, cents=p.amount, cheque=getattr(p.slip, "cheque", None)) for p in postings]


@dataclass
class TrustReconciliation:
    """The trust account as the event's records say it must stand: what it held before the event,
    less the floats paid to the cage, plus the cage's deposits, less the cheques drawn. `balance` is
    None until the opening balance is entered: nothing is said of an account whose start is unknown."""

    opening: int | None
    floats: int
    deposits: int
    cheques: int  # every cheque drawn: those paying expenses and those for the approved purposes
    disbursed: int  # of which for the approved purposes: the net proceeds used

    @property
    def balance(self) -> int | None:
        if self.opening is None:
            return None
        return self.opening - self.floats + self.deposits - self.cheques


@read_once
def trust_reconciliation(event: Event) -> TrustReconciliation:
    """The bank reconciliation of the trust account (cents): floats and deposits as the cage's
    standing slips moved them, cheques as the register holds them (each at its own amount)."""
    floats = _posted(event, FLOATS, Account.Kind.TRUST).aggregate(total=Sum("amount"))["total"] or 0
    cheques = Cheque.objects.filter(event=event).aggregate(
        total=Sum("amount"), disbursed=Sum("amount", filter=Q(purpose__isnull=False))
    )
    return TrustReconciliation(
        opening=event.trust_opening_balance,
        floats=-floats,
        deposits=sum(line.cents for line in deposits_to_the_bank(event)),
        cheques=cheques["total"] or 0,
        disbursed=cheques["disbursed"] or 0,
    )


@read_once
def disbursements(event: Event) -> list[Cheque]:
    """The cheques that use the net proceeds for the purposes the licence approved, in the order
    written, each with its purpose (one query, once a page)."""
    return list(
        Cheque.objects.filter(event=event, purpose__isnull=False)
        .select_related("purpose", "entered_by")
        .order_by("written_on", "id")
    )


def cash_at_the_cage(event: Event) -> int:
    """Cash the cage still holds (bank cash and runners), in cents: not yet deposited to the trust
    account. Every dollar of the proceeds is deposited before the report is filed (reports.filing)."""
    held = Posting.objects.filter(
        account__event=event,
        account__kind__in=(Account.Kind.BANK_CASH, Account.Kind.RUNNER),
        denomination__isnull=True,
    ).aggregate(total=Sum("amount"))["total"]
    return held or 0


@read_once
def disbursed_by_purpose(event: Event) -> list[tuple[ApprovedPurpose, int]]:
    """Each purpose the licence approved, in the order entered, with the cents its cheques used
    (one query beside the cheques', once a page)."""
    cheques = disbursements(event)
    return [
        (purpose, sum(c.amount for c in cheques if c.purpose_id == purpose.pk))
        for purpose in ApprovedPurpose.objects.filter(event=event)
    ]
