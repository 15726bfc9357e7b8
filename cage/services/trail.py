"""What the cage writes on the audit trail of its slips: a slip written with the signatures made
as it was written, and each later signature. The trail's writer (audit.services.record) knows no
slip type; the cage names its own."""

from django.utils.translation import gettext_noop as N_

from audit.models import AuditEntry
from audit.services import record
from events.models import Person

from ..slip_types import DAY_CLOSE_KIND, SLIP_KINDS, VOID_KIND


def slip_recorded(slip, signed: dict, *, day_status: str) -> AuditEntry:
    """A slip written with the signatures made as it was written (cage.services.ledger.post_slip)."""
    new = {
        "slip": str(slip.number),
        "day": slip.day.date,
        "signed": {capacity: person.name for capacity, person in signed.items()},
    }
    if slip.table_id:
        new["table"] = slip.table.code
    if slip.runner_id:
        new["runner"] = slip.runner.name
    if slip.voids_id:
        new["voids"] = str(slip.voids.number)
    if slip.account_id:
        new["account"] = slip.account.code
    if slip.reason:
        new["reason"] = slip.reason
    if slip.details:
        new["details"] = slip.details
    kind = SLIP_KINDS[slip.slip_type]
    old = None
    if kind is DAY_CLOSE_KIND:
        old, new["status"] = {"status": day_status}, "closed"
        message = N_("Gaming day %(day)s closed and locked with %(slip)s")
    elif kind is VOID_KIND and len(signed) < len(VOID_KIND.codes):
        # Asked for: it moves nothing until its other signature (cage.slip_types).
        message = N_("%(slip)s written, asking to void %(voids)s; nothing moves until it is signed in full")
    elif kind is VOID_KIND:
        message = N_("%(slip)s written, voiding %(voids)s")
    else:
        message = N_("%(slip)s recorded")
    params = {"slip": new["slip"], "day": str(new["day"]), "voids": new.get("voids", "")}
    return record(kind.trail_action, message, params, event=slip.event, slip=slip, old=old, new=new)


def batch_approved(event, slips, person: Person) -> AuditEntry:
    """The DRIC's approvals confirmed together from her queue: one entry naming them all, beside
    each slip's own approval, so the trail shows which she saw listed and signed in one tap."""
    numbers = [str(slip.number) for slip in slips]
    return record(
        "batch_approved",
        N_("%(name)s approved in one confirmation: %(slips)s"),
        {"name": person.name, "slips": ", ".join(numbers)},
        event=event,
        about=person,
        # By their keys: the trail names them in each reader's language (reports.audit_trail.reading).
        new={"slips": [slip.pk for slip in slips]},
    )


def slip_signed(slip, capacity_label: str, person: Person) -> AuditEntry:
    return record(
        "slip_signed",
        N_("%(name)s signed %(slip)s as %(capacity)s"),
        {"name": person.name, "slip": str(slip.number), "capacity": str(capacity_label).lower()},
        event=slip.event,
        slip=slip,
        about=person,
        new={"capacity": str(capacity_label), "signer": person.name},
    )
