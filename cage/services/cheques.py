"""The cheque register: each expense is paid from the licensee's trust account by cheque, never with
cash from the cage. The General Cashier enters the cheque that pays an expense (its number, date and
payee; its amount is the expense's), and corrects it if need be; the trust account's page and the
financial report list them (cage.selectors.bank_slips.expenses_by_cheque), and a report is filed
only once every expense has its cheque (T&C 2.7; reports.filing)."""

import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from cage.models import Cheque, Slip
from cage.selectors.bank_slips import expenses_by_cheque, trust_reconciliation
from cage.services.bank_slips import RULE, check_role, named
from core.rules import Day, Money, RuleViolation, Words
from core.trail import record
from events.models import Event, Person, Role
from events.report_filed import check_not_filed

NUMBER_LONGEST = Cheque._meta.get_field("number").max_length
PAYEE_LONGEST = Cheque._meta.get_field("payee").max_length


def _checked(text: str, longest: int, what: str, field: str, code: str) -> str:
    text = " ".join((text or "").split())
    if not text or len(text) > longest:
        raise RuleViolation(Words(what, n=longest), RULE, field=field, code=code)
    return text


def _check_written_on(expense: Slip, written_on: datetime.date) -> None:
    """A cheque pays an expense once it is approved: not before its gaming day, never to come."""
    if expense.day.date <= written_on <= timezone.localdate():
        return
    raise RuleViolation(
        Words(
            N_("a cheque for %(slip)s is dated from its gaming day (%(day)s) to today, not %(date)s"),
            slip=named(expense),
            day=Day(expense.day.date),
            date=Day(written_on),
        ),
        RULE,
        field="written_on",
        code="cheque.written_on",
    )


def _check_held(event: Event, expense: Slip, cents: int, this_cheque: Cheque | None) -> None:
    """A cheque is never for more than the trust account holds: its opening balance, less the floats
    paid to the cage, plus the cage's deposits, less the other cheques drawn (trust_reconciliation)."""
    account = trust_reconciliation(event)
    if account.opening is None:
        raise RuleViolation(
            Words(
                N_(
                    "the trust account's opening balance is entered first, on the trust account's page: a cheque is "
                    "never for more than the account holds"
                )
            ),
            RULE,
            code="cheque.opening_balance_missing",
        )
    held = account.balance + (this_cheque.amount if this_cheque else 0)
    if cents > held:
        raise RuleViolation(
            Words(
                N_("a cheque of %(amount)s for %(slip)s is more than the trust account holds, %(held)s"),
                amount=Money(cents),
                slip=named(expense),
                held=Money(held),
            ),
            RULE,
            code="cheque.more_than_held",
        )


def _number_used(number: str, other: Cheque) -> None:
    raise RuleViolation(
        Words(
            N_("cheque %(number)s already pays %(slip)s: each expense is paid by a cheque of its own"),
            number=number,
            slip=named(other.expense),
        ),
        RULE,
        field="number",
        code="cheque.number_used",
    )


def cheque_enter(
    *,
    expense: Slip,
    number: str,
    written_on: datetime.date,
    payee: str,
    person: Person | None,
    at: datetime.datetime | None = None,
) -> Cheque:
    """The General Cashier enters the trust account's cheque that pays an expense, or corrects it.
    Refused: anyone else, a slip that is not an expense both signed, no number or payee, a number
    another expense's cheque has, a date before the expense's gaming day or still to come, a cheque
    for more than the trust account holds (or one whose opening balance is not entered), and any
    change once the report is filed."""
    event = expense.event
    with transaction.atomic():
        # One cheque at a time for the event, read afresh: what the account holds is checked and written together.
        event = Event.objects.select_for_update().get(pk=event.pk)
        check_role(
            person,
            Role.GENERAL_CASHIER,
            N_("the General Cashier enters the cheques drawn on the trust account"),
            "cheque.not_general_cashier",
        )
        check_not_filed(event, Words(N_("the cheque of %(slip)s"), slip=named(expense)))
        line = next((line for line in expenses_by_cheque(event) if line.slip.pk == expense.pk), None)
        if line is None:
            raise RuleViolation(
                Words(
                    N_("%(slip)s is not an expense both signed: only an approved expense is paid by cheque"),
                    slip=named(expense),
                ),
                RULE,
                code="cheque.not_an_expense",
            )
        number = _checked(
            number,
            NUMBER_LONGEST,
            N_("a cheque is entered with its number, at most %(n)s characters"),
            "number",
            "cheque.number_missing",
        )
        payee = _checked(
            payee,
            PAYEE_LONGEST,
            N_("a cheque names its payee, in at most %(n)s characters"),
            "payee",
            "cheque.payee_missing",
        )
        other = Cheque.objects.filter(event=event, number=number).exclude(expense=expense).first()
        if other is not None:
            _number_used(number, other)
        _check_written_on(expense, written_on)
        _check_held(event, expense, line.cents, line.cheque)
        cheque = line.cheque or Cheque(event=event, expense=expense, amount=line.cents)
        old = {"number": cheque.number, "written_on": cheque.written_on, "payee": cheque.payee} if line.cheque else None
        cheque.number, cheque.written_on, cheque.payee, cheque.amount = number, written_on, payee, line.cents
        cheque.entered_by, cheque.entered_at = person, at or timezone.now()
        try:
            with transaction.atomic():
                cheque.save()
        except IntegrityError:
            # Another window entered the same number in the same moment.
            _number_used(number, Cheque.objects.get(event=event, number=number))
        record(
            "cheque_entered",
            N_("Cheque %(number)s of %(date)s to %(payee)s entered for %(slip)s"),
            {"number": number, "date": written_on.isoformat(), "payee": payee, "slip": expense.number},
            event=event,
            slip=expense,
            about=person,
            old=old,
            new={"number": number, "written_on": written_on, "payee": payee},
        )
        return cheque
