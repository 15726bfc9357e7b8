"""Which slip types the cage window offers now: only those the gaming day's state and the event's
tables allow, as the services decide (cage.services.slips refuses the rest). Once the floor
closes, no opener, fill, credit, sale or runner issue is offered. Read-only; two queries."""

from django.db.models import QuerySet

from cage.selectors.openers import openers_of_day
from cage.slip_types import ENTRY_KINDS, SLIP_KINDS, SlipKind, day_states
from events.models import GameTable, GamingDay
from events.selectors import tables_of


def _takes(kind: SlipKind, table_state: str, opened_today: bool) -> bool:
    """A table in this state may take a slip of this kind today (its declaration's table_state)."""
    if kind.table_state is not None and table_state != kind.table_state:
        return False
    # A table opens at most once a day (cage.services.slips.table_open).
    return not (kind.table_figure == "opener" and opened_today)


def _tables(day: GamingDay) -> list[tuple[int, str, bool]]:
    """(id, state, opened today) of each of the event's tables: two queries."""
    opened = openers_of_day(day.pk)
    return [(t.pk, t.state, t.pk in opened) for t in tables_of(day.event_id)]


def tables_for(day: GamingDay, slip_type: str) -> QuerySet[GameTable]:
    """The tables a slip of this type may be written for today."""
    return day.event.tables.filter(pk__in=tables_offered(day, slip_type))


def tables_offered(day: GamingDay, slip_type: str) -> list[int]:
    """The ids of the tables a slip of this type may be written for today: two queries."""
    return [pk for pk, state, opened in _tables(day) if _takes(SLIP_KINDS[slip_type], state, opened)]


def kinds_offered(day: GamingDay | None) -> list[SlipKind]:
    """The slip types the window offers today, in their usual order: none unless the day is open
    or reconciling; the floor's only while it is open; a table's only while a table may take it."""
    if day is None:
        return []
    kinds = [k for k in ENTRY_KINDS if day.status in day_states(k.type)]
    tables = _tables(day) if any(k.table_state for k in kinds) else []
    return [k for k in kinds if not k.table_state or any(_takes(k, state, opened) for _pk, state, opened in tables)]
