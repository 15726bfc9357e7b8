"""What the DRIC confirms when she approves several slips at once (cage.services.batch): each chosen
slip as she will sign it: its number, type, table and amount, who has signed it and in what
capacity, and what her signature does. Reads only."""

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from cage.models import Slip
from cage.selectors.amounts import amount_of, cash_moved_subquery
from cage.slip_types import SLIP_KINDS, VOID_KIND
from core.money import dollars
from events.models import Person
from events.selectors import chip_values


@dataclass
class Chosen:
    slip: Slip
    kind: str  # the slip's type, as people say it
    table: str
    amount: str
    signed: list[tuple[str, str]]  # (name, capacity) of each signature already on it
    hers: list[tuple[str, str]] = field(default_factory=list)  # (capacity, what her signing it does)
    after: str = ""  # what the slip still waits for once she has signed; "" when she completes it


def _what_it_does(slip: Slip, cap) -> str:
    """What her signature in this capacity does, as one sentence that names the capacity: a
    witness is not an authorization, and the page says which (one colon, no label before it)."""
    capacity = str(cap.label)
    if cap.witness:
        # Her witness of what has already moved (a sale at the window, a fill on its way).
        return _("Your signature as “%(capacity)s” witnesses it: nothing moves.") % {"capacity": capacity}
    if slip.slip_type == VOID_KIND.type and slip.voids_id:
        return _(
            "Your signature as “%(capacity)s” authorizes the void: %(slip)s is voided and its reversal posted."
        ) % {"capacity": capacity, "slip": slip.voids.number}
    return _("Your signature as “%(capacity)s” authorizes it: what it moves is posted.") % {"capacity": capacity}


def confirmation(slips: list[Slip], person: Person) -> list[Chosen]:
    """The rows of the confirmation page, oldest first: one query for the slips and their amounts,
    one for their signatures, whatever the number chosen."""
    from cage.services.signing import dric_capacities  # what approve signs, read the same way

    if not slips:
        return []
    event = slips[0].event
    values = chip_values(event)
    rows = []
    for slip in (
        Slip.objects.filter(pk__in=[s.pk for s in slips])
        .annotate(cash_moved=cash_moved_subquery())
        .select_related("table", "voids", "event")
        .with_signers()
        .order_by("at", "id")
    ):
        kind = SLIP_KINDS[slip.slip_type]
        signatures = list(slip.signatures.all())
        signed = {s.capacity for s in signatures}
        hers = dric_capacities(slip, person, signed) if person.pk not in {s.person_id for s in signatures} else []
        left = [c for c in kind.capacities if c.code in kind.required(slip.details) and c.code not in signed]
        amount = amount_of(slip, values, slip.cash_moved)
        rows.append(
            Chosen(
                slip=slip,
                kind=str(kind.label),
                table=slip.table.code if slip.table_id else "",
                amount="" if amount is None else dollars(amount),
                signed=[(s.person.name, str(_capacity_label(kind, s.capacity))) for s in signatures],
                hers=[(str(c.label), _what_it_does(slip, c)) for c in hers],
                after=", ".join(
                    _("%(capacity)s (%(roles)s)") % {"capacity": str(c.label).lower(), "roles": c.roles_label()}
                    for c in left
                    if c not in hers
                ),
            )
        )
    return rows


def _capacity_label(kind, code: str):
    cap = kind.capacity(code)
    return cap.label if cap else code
