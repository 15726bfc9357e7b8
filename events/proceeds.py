"""The charitable purposes the licence approved the event's net proceeds for, entered as the licence
words them (T&C 1.3): with the event, or on the trust account's page by the DRIC or the licensee's
administrator, who correct one to the licence's words until the report is filed. The cheques that
use the proceeds for them are the cage's cheque register's (cage.services.cheques.
disbursement_enter); the report accounts for them (T&C 2.7)."""

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_noop as N_

from core.rules import RuleViolation, Words
from core.trail import record

from .models import ApprovedPurpose, Event, Person
from .report_filed import check_not_filed

RULE = "T&C 1.3"  # the event as the licence approved it, its purposes included
LONGEST = ApprovedPurpose._meta.get_field("name").max_length


def check_purpose(name: str, field: str = "name") -> str:
    name = " ".join((name or "").split())
    if not name or len(name) > LONGEST:
        raise RuleViolation(
            Words(
                N_("an approved purpose is entered as the licence words it: not empty, and at most %(n)s characters"),
                n=LONGEST,
            ),
            RULE,
            field=field,
            code="purpose.name",
        )
    return name


def _already(name: str, field: str) -> None:
    raise RuleViolation(
        Words(N_("%(name)s is already an approved purpose of this event"), name=name),
        RULE,
        field=field,
        code="purpose.already",
    )


def _free(event: Event, name: str, field: str, purpose: ApprovedPurpose | None = None) -> None:
    # The same purpose in other letters' case is the same purpose (the database's index holds it too).
    others = ApprovedPurpose.objects.filter(event=event, name__iexact=name)
    if purpose is not None:
        others = others.exclude(pk=purpose.pk)
    if others.exists():
        _already(name, field)


def _saved(purpose: ApprovedPurpose, name: str, field: str) -> None:
    try:
        with transaction.atomic():
            purpose.save()
    except IntegrityError:  # the same purpose added from another window in the same moment
        _already(name, field)


def purpose_add(*, event: Event, name: str, by: Person | None = None, field: str = "name") -> ApprovedPurpose:
    """Adds a purpose the licence approved (by the DRIC, or the administrator when `by` is None;
    `field`: the form's field a refusal names). Refused: no name or too long a one, one the event
    has already, and once the report is filed."""
    check_not_filed(event, Words(N_("the approved purposes")))
    name = check_purpose(name, field)
    _free(event, name, field)
    purpose = ApprovedPurpose(event=event, name=name)
    _saved(purpose, name, field)
    record(
        "purpose_added",
        N_("Approved purpose added: %(name)s"),
        {"name": name},
        event=event,
        about=by,
        new={"name": name},
    )
    return purpose


def purpose_correct(
    *, purpose: ApprovedPurpose, name: str, by: Person | None = None, field: str = "name"
) -> ApprovedPurpose:
    """Corrects a purpose to the licence's words (a typing error, say): its cheques follow it, and
    the report's figures change, so the designated persons sign again. Refused as an added one is,
    and once the report is filed. Nothing is removed: the audit trail keeps the words it had."""
    event = purpose.event
    check_not_filed(event, Words(N_("the approved purposes")))
    name = check_purpose(name, field)
    _free(event, name, field, purpose)
    was = purpose.name
    if name == was:
        return purpose
    purpose.name = name
    _saved(purpose, name, field)
    record(
        "purpose_corrected",
        N_("Approved purpose corrected: %(was)s is now %(name)s"),
        {"was": was, "name": name},
        event=event,
        about=by,
        old={"name": was},
        new={"name": name},
    )
    return purpose
