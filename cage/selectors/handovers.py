"""Who holds bank cash and the chip bank today: the cashier who last took the place over at a shift
handover (cage.services.slips.handover), for the rest of the gaming day. Read-only, one query.

A day without a handover has no custodian named here: every General Cashier (or Chip Cashier) on
duty signs for the place, as the roster and the designation allow (cage.services.ledger)."""

import datetime

from cage.models import Signature
from cage.slip_fields import HandedPlace
from cage.slip_types import HANDOVERS
from core.compiled import Compiled
from events.models import GamingDay

TAKES = "taken_over_by"  # the incoming cashier's capacity (cage.slip_types)


def handed_over(own: set[str], person_id: int, holders: dict[str, int]) -> bool:
    """Whether someone signing in the roles `own` signs only as a cashier whose every place was
    taken over today by another (`holders`: custodians): they sign no custody in that position."""
    cashier = own & set(HandedPlace.PLACES.values())
    return bool(cashier) and not own - cashier and all(holders.get(role, person_id) != person_id for role in cashier)


def custodians(day: GamingDay, *, until: datetime.datetime | None = None, taken: list | None = None) -> dict[str, int]:
    """{role: person id}: for each role whose place was handed over today (before `until`, when
    given: a slip entered later from paper is held to the custody of its own time), the cashier
    who took it over last. `taken`: the day's handovers as takeovers() reads them, when the caller
    has them already (an import, cage.services.ledger.custodians_of)."""
    holders = {}
    for at, place, person in takeovers(day) if taken is None else taken:
        if until is None or at <= until:
            holders[HandedPlace.PLACES[place]] = person
    return holders


def takeovers(day: GamingDay) -> list[tuple[datetime.datetime, str, int]]:
    """The day's handovers, in the order they were written: (when, the place's account kind, who
    took it over)."""
    return _TAKEOVERS.rows(day.pk)


# Compiled once (core.compiled): every slip that moves a place a cashier holds asks.
_TAKEOVERS = Compiled(
    lambda day_id: (
        Signature.objects.filter(slip__day_id=day_id, slip__slip_type__in=HANDOVERS, capacity=TAKES)
        .order_by("slip_id")
        .values_list("slip__at", "slip__account__kind", "person_id")
    )
)
