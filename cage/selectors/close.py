"""How far the day's close has come: who has signed it, who is still to, and whether its
preparation still stands (nothing posted to the day since). Read-only."""

from dataclasses import dataclass, field

from cage.models import CloseSignature, Slip, SlipType
from cage.slip_types import SLIP_KINDS, Capacity
from events.models import GamingDay, Person

CLOSE = SLIP_KINDS[SlipType.CLOSE_DAY]
PREPARED = "prepared_by"


@dataclass
class CloseProgress:
    day: GamingDay
    signatures: dict[str, CloseSignature] = field(default_factory=dict)
    # The first slip posted to the day after the preparation: the preparation no longer stands.
    posted_since: Slip | None = None

    @property
    def prepared(self) -> CloseSignature | None:
        return self.signatures.get(PREPARED)

    @property
    def stands(self) -> bool:
        return self.prepared is not None and self.posted_since is None

    @property
    def waiting(self) -> bool:
        """Prepared, standing, and still waiting for a signature: what the DRIC's queue lists."""
        return self.stands and bool(self.missing)

    @property
    def missing(self) -> list[Capacity]:
        return [c for c in CLOSE.capacities if c.code not in self.signatures]

    @property
    def rows(self) -> list[tuple[Capacity, CloseSignature | None]]:
        return [(c, self.signatures.get(c.code)) for c in CLOSE.capacities]

    def mine(self, person: Person | None, roles: set[str]) -> list[Capacity]:
        """The capacities still to sign that this person may sign from their own session: their
        role, and never a second capacity of the close."""
        if person is None or not self.stands or any(s.person_id == person.pk for s in self.signatures.values()):
            return []
        return [c for c in self.missing if roles & set(c.roles)]


def close_progress(day: GamingDay | None) -> CloseProgress | None:
    """The close of a day not closed yet; None for no day, or a day set up or closed."""
    if day is None or day.status not in (GamingDay.Status.OPEN, GamingDay.Status.RECONCILING):
        return None
    signatures = {s.capacity: s for s in CloseSignature.objects.filter(day=day).select_related("person")}
    progress = CloseProgress(day=day, signatures=signatures)
    if progress.prepared is not None:
        progress.posted_since = (
            Slip.objects.filter(day=day, id__gt=progress.prepared.after_slip_id)
            .exclude(slip_type=SlipType.CLOSE_DAY)
            .order_by("id")
            .first()
        )
    return progress
