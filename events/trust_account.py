"""The licensee's designated trust account, as the event names it: its bank, its branch and the last
four digits of its number (never the whole number, which the product has no need to keep). Every
deposit from the cage goes to it and the expenses are paid from it by cheque; the financial report
names it (T&C 2.7; the bank's deposit slips: cage.services.bank_slips)."""

import re

from django.utils.translation import gettext_noop as N_

from core.rules import RuleViolation, Words
from core.trail import record

from .models import Event, Person
from .report_filed import check_not_filed

RULE = "T&C 2.7"
LAST_FOUR = re.compile(r"[0-9]{4}")
FIELDS = ("trust_bank", "trust_branch", "trust_account_last_four")
KEEP = object()  # trust_account_set's opening balance left as it is


def check_trust_account(bank: str, branch: str, last_four: str) -> tuple[str, str, str]:
    """The three, stripped; all given or none (an account not named yet)."""
    bank, branch, last_four = (value.strip() for value in (bank, branch, last_four))
    if not (bank or branch or last_four):
        return bank, branch, last_four
    if last_four and not LAST_FOUR.fullmatch(last_four):
        raise RuleViolation(
            # Not echoed back: what was typed may be the whole number, which is never shown or kept.
            Words(
                N_(
                    "the trust account is named by the last four digits of its number, four digits and nothing "
                    "else; the whole number is never entered"
                )
            ),
            RULE,
            field="trust_account_last_four",
            code="trust_account.last_four",
        )
    missing = [name for name, value in zip(FIELDS, (bank, branch, last_four), strict=True) if not value]
    if missing:
        raise RuleViolation(
            Words(N_("the trust account is named by its bank, its branch and the last four digits of its number")),
            RULE,
            field=missing[0],
            code="trust_account.incomplete",
        )
    return bank, branch, last_four


def check_opening_balance(cents: int | None) -> int | None:
    """What the account held before the event's first float: cents, none or more; None until entered."""
    if cents is not None and cents < 0:
        raise RuleViolation(
            Words(
                N_("the trust account's opening balance is what its statement shows before the event, never below zero")
            ),
            RULE,
            field="trust_opening_balance",
            code="trust_account.opening_balance",
        )
    return cents


def trust_account_set(
    *, event: Event, bank: str, branch: str, last_four: str, opening_balance=KEEP, by: Person | None = None
) -> Event:
    """The event's trust account, named or corrected (by the DRIC, or by the licensee's administrator
    when `by` is None), with its opening balance in cents (None: not entered; KEEP: as it is).
    Refused once the report is filed, which names it."""
    check_not_filed(event, Words(N_("the trust account")))
    bank, branch, last_four = check_trust_account(bank, branch, last_four)
    fields = (*FIELDS, "trust_opening_balance")
    # As the row stands now, whatever the caller's copy of the event says.
    old = Event.objects.filter(pk=event.pk).values(*fields).get()
    if opening_balance is KEEP:
        opening_balance = old["trust_opening_balance"]
    new = dict(zip(fields, (bank, branch, last_four, check_opening_balance(opening_balance)), strict=True))
    if old == new:
        return event
    Event.objects.filter(pk=event.pk).update(**new)
    for name, value in new.items():
        setattr(event, name, value)
    record(
        "trust_account_set",
        N_("Trust account named: %(bank)s, %(branch)s, account ending in %(last_four)s"),
        {"bank": bank, "branch": branch, "last_four": last_four},
        event=event,
        about=by,
        old=old,
        new=new,
    )
    return event
