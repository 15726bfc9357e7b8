"""What many pages read of an event, read once per page (core.reading): its chip set, its tables
and a person's roles, which no slip changes, so a slip's transaction reads them once too
(core.reading.settled_facts). Elsewhere (other services, the importer) each call reads afresh.

Each is compiled to SQL once (core.compiled): every page and every slip asks them."""

from core.compiled import Compiled
from core.reading import read_once
from events.models import Assignment, ChipDenomination, Event, GameTable, GamingDay, Person

_CHIP_SET = Compiled(lambda event_id: ChipDenomination.objects.filter(event_id=event_id).select_related("event"))
_TABLES = Compiled(lambda event_id: GameTable.objects.filter(event_id=event_id).order_by("code"))
_ROLES = Compiled(lambda person_id: Assignment.objects.filter(person_id=person_id).values_list("role"))
_ASSIGNMENTS = Compiled(lambda person_id: Assignment.objects.filter(person_id=person_id))


@read_once(settled=True)
def chip_set(event: Event) -> list[ChipDenomination]:
    """The event's chips, the smallest first (shared within a reading: never changed by a caller),
    each with its event (a chip knows what it is worth and where it is played). `event` may be an
    unsaved Event(pk=...) standing for it: the answer is the same question."""
    return _CHIP_SET.objects(event.pk)


def chip_values(event: Event) -> dict[str, int]:
    """{denomination key: cents}: what each chip of the event is worth."""
    return {d.key: d.value_cents for d in chip_set(event)}


@read_once(settled=True)
def tables_of(event_id: int) -> list[GameTable]:
    """The event's tables by code (shared within a reading: never changed by a caller)."""
    return _TABLES.objects(event_id)


def with_assignments(person: Person) -> Person:
    """The person with their role assignments read as `prefetch_related("assignments")` leaves
    them (`person.assignments.all()`, `role_codes()` ask nothing more), by a query compiled once:
    every page of an event reads its reader's so. Django's prefetch_related_objects built the
    query anew each time, most of a page's standing (about 0.4 ms)."""
    assignments = _ASSIGNMENTS.objects(person.pk)
    for assignment in assignments:
        assignment.person = person
    found = person.assignments.get_queryset()
    found._result_cache, found._prefetch_done = assignments, True
    person._prefetched_objects_cache = {**getattr(person, "_prefetched_objects_cache", {}), "assignments": found}
    return person


@read_once(settled=True)
def roles_of(person_id: int) -> frozenset[str]:
    """The roles a person holds on their event (events.models.Person.role_codes)."""
    return frozenset(role for (role,) in _ROLES.rows(person_id))


def days_not_closed(event_id: int):
    """The ids of an event's gaming days not closed, as a subquery: a question of the slips of those
    days asks `day__in=days_not_closed(...)`, so that the database reads them by the slips' index on
    the day. Asked as the event's slips whose day is not closed, SQLite read every slip of the
    event, each with its day: a cost that grew with every day the event had closed."""
    return GamingDay.objects.filter(event_id=event_id).exclude(status=GamingDay.Status.CLOSED).values("pk")
