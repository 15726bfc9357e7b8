"""What many pages read of an event, read once per page (core.reading): its chip set, its tables
and a person's roles, which no slip changes, so a slip's transaction reads them once too
(core.reading.settled_facts). Elsewhere (other services, the importer) each call reads afresh."""

from core.reading import read_once
from events.models import Assignment, ChipDenomination, Event, GameTable


@read_once(settled=True)
def chip_set(event: Event) -> list[ChipDenomination]:
    """The event's chips, the smallest first (shared within a reading: never changed by a caller),
    each with its event (a chip knows what it is worth and where it is played). `event` may be an
    unsaved Event(pk=...) standing for it: the answer is the same question."""
    return list(ChipDenomination.objects.filter(event_id=event.pk).select_related("event"))


def chip_values(event: Event) -> dict[str, int]:
    """{denomination key: cents}: what each chip of the event is worth."""
    return {d.key: d.value_cents for d in chip_set(event)}


@read_once(settled=True)
def tables_of(event_id: int) -> list[GameTable]:
    """The event's tables by code (shared within a reading: never changed by a caller)."""
    return list(GameTable.objects.filter(event_id=event_id).order_by("code"))


@read_once(settled=True)
def roles_of(person_id: int) -> frozenset[str]:
    """The roles a person holds on their event (events.models.Person.role_codes)."""
    return frozenset(Assignment.objects.filter(person_id=person_id).values_list("role", flat=True))
