"""The bank's deposit slip for each deposit from the cage to the trust account.

Every deposit from the cage goes to the licensee's designated trust account (events.trust_account).
Once the bank has taken it, the General Cashier enters the number and the date the bank stamped on
its deposit slip, and the DRIC checks them against the stamped copy. The financial report lists
every deposit with its bank slip, and a copy of each goes with it to the licensing authority
(T&C 2.7); a deposit whose bank slip is not entered and checked yet is *not yet confirmed*
(cage.selectors.bank_slips). These are the only writers of a bank slip.
"""

import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from cage.models import BankSlip, Slip
from cage.selectors.bank_slips import DepositToTheBank, deposits_to_the_bank
from cage.slip_types import SLIP_KINDS
from core.rules import Day, RuleViolation, Several, Words
from core.trail import record
from events.designation import check_not_administrator, designated_role
from events.models import Event, Person, Role
from events.report_filed import check_not_filed

RULE = "T&C 2.7"  # the financial report, which lists the deposits with their bank slips
NUMBER_LONGEST = BankSlip._meta.get_field("number").max_length


def named(slip: Slip) -> Several:
    """ "Deposit 3", said in the reader's language wherever the sentence is read again."""
    return Several(SLIP_KINDS[slip.slip_type].label, slip.serial)


def check_role(person: Person | None, role: str, what: str, code: str) -> Person:
    if person is not None:
        check_not_administrator(person)
    if designated_role(person) != role:
        raise RuleViolation(Words(what), RULE, code=code)
    return person


def _standing_deposit(event: Event, deposit: Slip) -> DepositToTheBank:
    line = next((line for line in deposits_to_the_bank(event) if line.slip.pk == deposit.pk), None)
    if line is None:
        raise RuleViolation(
            Words(
                N_(
                    "%(slip)s is not a deposit made to the trust account: only a deposit both signed, and not voided, "
                    "has a bank deposit slip"
                ),
                slip=named(deposit),
            ),
            RULE,
            code="bank_slip.not_a_deposit",
        )
    return line


def tidied(text: str, longest: int, what: str, field: str, code: str) -> str:
    """A number or a name as typed, its spaces tidied; refused (`what`, told `n`) when empty or
    longer than `longest`."""
    text = " ".join((text or "").split())
    if not text or len(text) > longest:
        raise RuleViolation(Words(what, n=longest), RULE, field=field, code=code)
    return text


def _checked_number(event: Event, deposit: Slip, number: str) -> str:
    """The number as the bank printed it, spaces tidied, and no other deposit's."""
    number = tidied(
        number,
        NUMBER_LONGEST,
        N_("a bank deposit slip is entered with its number as the bank printed it, at most %(n)s characters"),
        "number",
        "bank_slip.number_missing",
    )
    other = BankSlip.objects.filter(event=event, number=number).exclude(deposit=deposit).first()
    if other is not None:
        _number_used(number, named(other.deposit))
    return number


def _number_used(number: str, slip) -> None:
    raise RuleViolation(
        Words(
            N_("bank slip %(number)s is already entered for %(slip)s: each deposit has a bank slip of its own"),
            number=number,
            slip=slip,
        ),
        RULE,
        field="number",
        code="bank_slip.number_used",
    )


def _check_stamped_on(deposit: Slip, stamped_on: datetime.date) -> None:
    """The bank stamps a deposit slip on the day it takes the deposit: not before the deposit's
    gaming day, and never a day still to come."""
    made_on = deposit.day.date
    if stamped_on < made_on:
        raise RuleViolation(
            Words(
                N_(
                    "the bank stamps a deposit slip once it takes the deposit: %(date)s is before %(slip)s, of %(made)s"
                ),
                date=Day(stamped_on),
                slip=named(deposit),
                made=Day(made_on),
            ),
            RULE,
            field="stamped_on",
            code="bank_slip.stamped_before_deposit",
        )
    if stamped_on > timezone.localdate():
        raise RuleViolation(
            Words(
                N_("%(date)s is still to come: a bank slip is entered as the bank stamped it, once it has"),
                date=Day(stamped_on),
            ),
            RULE,
            field="stamped_on",
            code="bank_slip.stamped_in_future",
        )


def _check_not_checked(bank_slip: BankSlip | None) -> None:
    """A bank slip the DRIC has checked is fixed: neither corrected nor checked again."""
    if bank_slip is None or bank_slip.checked_by_id is None:
        return
    raise RuleViolation(
        Words(
            N_("the bank slip of %(slip)s was checked by the DRIC on %(date)s and is no longer corrected"),
            slip=named(bank_slip.deposit),
            date=Day(timezone.localtime(bank_slip.checked_at).date()),
        ),
        RULE,
        code="bank_slip.checked",
    )


def bank_slip_enter(
    *, deposit: Slip, number: str, stamped_on: datetime.date, person: Person | None, at: datetime.datetime | None = None
) -> BankSlip:
    """The General Cashier enters the bank's deposit slip for a deposit, or corrects it until the
    DRIC has checked it (`at`: when, as a records file says; else now). Refused: anyone else, a slip
    that is not a deposit made, no number, a number another deposit's bank slip has, a date before
    the deposit's gaming day or still to come, and a bank slip the DRIC has checked."""
    event = deposit.event
    with transaction.atomic():
        # One bank slip entered at a time for the event: the number's check and its write hold together.
        Event.objects.select_for_update().filter(pk=event.pk).first()
        check_role(
            person,
            Role.GENERAL_CASHIER,
            N_("the General Cashier enters the bank's deposit slips, once the deposit is made"),
            "bank_slip.not_general_cashier",
        )
        check_not_filed(event, Words(N_("the bank slip of %(slip)s"), slip=named(deposit)))
        existing = _standing_deposit(event, deposit).bank_slip
        _check_not_checked(existing)
        number = _checked_number(event, deposit, number)
        _check_stamped_on(deposit, stamped_on)
        old = {"number": existing.number, "stamped_on": existing.stamped_on} if existing else None
        bank_slip = existing or BankSlip(event=event, deposit=deposit)
        bank_slip.number, bank_slip.stamped_on = number, stamped_on
        bank_slip.entered_by, bank_slip.entered_at = person, at or timezone.now()
        try:
            with transaction.atomic():
                bank_slip.save()
        except IntegrityError:
            # Another window entered the same number in the same moment: refused as above.
            _number_used(number, named(BankSlip.objects.get(event=event, number=number).deposit))
        record(
            "bank_slip_entered",
            N_("Bank deposit slip %(number)s, stamped %(date)s, entered for %(slip)s"),
            {"number": number, "date": stamped_on.isoformat(), "slip": deposit.number},
            event=event,
            slip=deposit,
            about=person,
            old=old,
            new={"number": number, "stamped_on": stamped_on},
        )
        return bank_slip


def bank_slip_check(*, bank_slip: BankSlip, person: Person | None, at: datetime.datetime | None = None) -> BankSlip:
    """The DRIC checks a bank slip against the stamped copy: from then on it is fixed (`at`: when,
    as a records file says; else now)."""
    with transaction.atomic():
        bank_slip = BankSlip.objects.select_for_update(of=("self",)).select_related("deposit").get(pk=bank_slip.pk)
        check_role(
            person,
            Role.DRIC,
            N_("the DRIC checks the bank's deposit slips against the stamped copies"),
            "bank_slip.not_dric",
        )
        _check_not_checked(bank_slip)
        bank_slip.checked_by, bank_slip.checked_at = person, at or timezone.now()
        bank_slip.save(update_fields=["checked_by", "checked_at"])
        record(
            "bank_slip_checked",
            N_("Bank deposit slip %(number)s of %(slip)s checked against the stamped copy"),
            {"number": bank_slip.number, "slip": bank_slip.deposit.number},
            event=bank_slip.event,
            slip=bank_slip.deposit,
            about=person,
        )
        return bank_slip
