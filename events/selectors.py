"""What many pages read of an event, read once per page (core.reading): its chip set and its
tables. Outside a reading (services, the importer) each call reads afresh."""

from core.reading import read_once
from events.models import ChipDenomination, Event, GameTable


@read_once
def chip_set(event: Event) -> list[ChipDenomination]:
    """The event's chips, the smallest first (shared within a reading: never changed by a caller)."""
    return list(ChipDenomination.objects.filter(event_id=event.pk))


def chip_values(event: Event) -> dict[str, int]:
    """{denomination key: cents}: what each chip of the event is worth."""
    return {d.key: d.value_cents for d in chip_set(event)}


@read_once
def tables_of(event_id: int) -> list[GameTable]:
    """The event's tables by code (shared within a reading: never changed by a caller)."""
    return list(GameTable.objects.filter(event_id=event_id).order_by("code"))
