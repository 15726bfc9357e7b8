"""The cheque register: each expense is paid from the licensee's trust account by cheque, never with
cash from the cage, and the net proceeds are used by cheques for the purposes the licence approved
(events.proceeds). The General Cashier enters the cheque that pays an expense (its number, date and
payee; its amount is the expense's), or one for an approved purpose at the amount written
(disbursement_enter), never for more than the account holds, and corrects it until the report is
filed. The trust account's page and the financial report list them (cage.selectors.bank_slips),
and a report is filed only once every expense has its cheque (T&C 2.7; reports.filing)."""

import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from cage.models import Cheque, Slip
from cage.selectors.bank_slips import expenses_by_cheque, trust_reconciliation
from cage.services.bank_slips import RULE, check_role, named, tidied
from core.money import MAX_AMOUNT_CENTS
from core.rules import Day, Money, RuleViolation, Words
from core.trail import record
from events.models import ApprovedPurpose, Event, Person, Role
from events.report_filed import check_not_filed

NUMBER_LONGEST = Cheque._meta.get_field("number").max_length
PAYEE_LONGEST = Cheque._meta.get_field("payee").max_length


def _paying(cheque: Cheque):
    """What a cheque pays, said in the reader's language: "Expense 2", or the purpose's name."""
    return named(cheque.expense) if cheque.expense_id else cheque.purpose.name


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


def _check_held(event: Event, paying, cents: int, this_cheque: Cheque | None) -> None:
    """A cheque is never for more than the trust account holds: its opening balance, less the floats
    paid to the cage, plus the cage's deposits, less the other cheques drawn (trust_reconciliation)."""
    account = trust_reconciliation(event)
    if account.opening is None:
        raise RuleViolation(
            Words(
                N_(
                    "the DRIC enters the trust account's opening balance first, on the trust account's page: a "
                    "cheque is never for more than the account holds"
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
                slip=paying,
                held=Money(held),
            ),
            RULE,
            code="cheque.more_than_held",
        )


def _number_used(number: str, other: Cheque) -> None:
    raise RuleViolation(
        Words(
            N_("cheque %(number)s already pays %(slip)s: each cheque is entered once, by its number"),
            number=number,
            slip=_paying(other),
        ),
        RULE,
        field="number",
        code="cheque.number_used",
    )


def _locked(event: Event, person: Person | None, what: Words) -> Event:
    """The event's row, locked and read afresh (one cheque at a time: what the account holds is
    checked and written together), once the writer may write this cheque."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    check_role(
        person,
        Role.GENERAL_CASHIER,
        N_("the General Cashier enters the cheques drawn on the trust account"),
        "cheque.not_general_cashier",
    )
    check_not_filed(event, what)
    return event


def _number_and_payee(number: str, payee: str) -> tuple[str, str]:
    number = tidied(
        number,
        NUMBER_LONGEST,
        N_("a cheque is entered with its number, at most %(n)s characters"),
        "number",
        "cheque.number_missing",
    )
    payee = tidied(
        payee,
        PAYEE_LONGEST,
        N_("a cheque names its payee, in at most %(n)s characters"),
        "payee",
        "cheque.payee_missing",
    )
    return number, payee


def _number_free(event: Event, number: str, cheque: Cheque) -> None:
    other = Cheque.objects.filter(event=event, number=number).exclude(pk=cheque.pk).first()
    if other is not None:
        _number_used(number, other)


def _written(cheque: Cheque, person: Person, at, action: str, words: str, values: dict, old: dict | None) -> Cheque:
    """Saves the cheque as entered by `person` and puts it on the audit trail."""
    cheque.entered_by, cheque.entered_at = person, at or timezone.now()
    try:
        with transaction.atomic():
            cheque.save()
    except IntegrityError:
        # Another window entered the same number in the same moment.
        _number_used(cheque.number, Cheque.objects.get(event=cheque.event, number=cheque.number))
    record(
        action,
        words,
        values,
        event=cheque.event,
        slip=cheque.expense,
        about=person,
        old=old,
        new={"number": cheque.number, "written_on": cheque.written_on, "payee": cheque.payee, "amount": cheque.amount},
    )
    return cheque


def _as_it_was(cheque: Cheque) -> dict | None:
    if cheque.pk is None:
        return None
    return {"number": cheque.number, "written_on": cheque.written_on, "payee": cheque.payee, "amount": cheque.amount}


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
    another cheque has, a date before the expense's gaming day or still to come, a cheque for more
    than the trust account holds (or one whose opening balance is not entered), and any change once
    the report is filed."""
    with transaction.atomic():
        event = _locked(expense.event, person, Words(N_("the cheque of %(slip)s"), slip=named(expense)))
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
        number, payee = _number_and_payee(number, payee)
        cheque = line.cheque or Cheque(event=event, expense=expense)
        _number_free(event, number, cheque)
        _check_written_on(expense, written_on)
        _check_held(event, named(expense), line.cents, line.cheque)
        old = _as_it_was(cheque)
        cheque.number, cheque.written_on, cheque.payee, cheque.amount = number, written_on, payee, line.cents
        return _written(
            cheque,
            person,
            at,
            "cheque_entered",
            N_("Cheque %(number)s of %(date)s to %(payee)s entered for %(slip)s"),
            {"number": number, "date": written_on.isoformat(), "payee": payee, "slip": expense.number},
            old,
        )


def _check_disbursed_on(event: Event, written_on: datetime.date) -> None:
    """The net proceeds are used once the event has begun: from its first day to today."""
    if event.first_day <= written_on <= timezone.localdate():
        return
    raise RuleViolation(
        Words(
            N_(
                "a cheque for an approved purpose is dated from the event's first day (%(first)s) to today, not %(date)s"
            ),
            first=Day(event.first_day),
            date=Day(written_on),
        ),
        RULE,
        field="written_on",
        code="disbursement.written_on",
    )


def disbursement_enter(
    *,
    purpose: ApprovedPurpose,
    number: str,
    written_on: datetime.date,
    payee: str,
    amount: int,
    person: Person | None,
    cheque: Cheque | None = None,
    at: datetime.datetime | None = None,
) -> Cheque:
    """The General Cashier enters a cheque from the trust account that uses net proceeds for a
    purpose the licence approved (`cheque`: the one corrected). Refused: anyone else, no number or
    payee, a number another cheque has, no amount, a date before the event or still to come, a
    cheque for more than the account holds, and any change once the report is filed."""
    with transaction.atomic():
        event = _locked(purpose.event, person, Words(N_("a cheque for %(purpose)s"), purpose=purpose.name))
        if cheque is not None and (cheque.event_id != event.pk or cheque.purpose_id is None):
            raise RuleViolation(
                Words(N_("only a cheque for an approved purpose is corrected as one")),
                RULE,
                code="disbursement.not_one",
            )
        number, payee = _number_and_payee(number, payee)
        if not 0 < amount <= MAX_AMOUNT_CENTS:
            raise RuleViolation(
                Words(
                    N_("a cheque for an approved purpose is for an amount above zero, at most %(max)s"),
                    max=Money(MAX_AMOUNT_CENTS),
                ),
                RULE,
                field="amount",
                code="disbursement.amount",
            )
        cheque = cheque or Cheque(event=event)
        _number_free(event, number, cheque)
        _check_disbursed_on(event, written_on)
        _check_held(event, purpose.name, amount, cheque if cheque.pk else None)
        old = _as_it_was(cheque)
        cheque.purpose = purpose
        cheque.number, cheque.written_on, cheque.payee, cheque.amount = number, written_on, payee, amount
        return _written(
            cheque,
            person,
            at,
            "disbursement_entered",
            N_("Cheque %(number)s of %(date)s to %(payee)s entered for the approved purpose %(purpose)s"),
            {"number": number, "date": written_on.isoformat(), "payee": payee, "purpose": purpose.name},
            old,
        )
