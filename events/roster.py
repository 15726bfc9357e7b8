"""Who is on a gaming day's roster, in which role, and for how many hours: what a tip payout's
hours are held to (T&C 2.6: pro rata). Read-only."""

import datetime
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal

from django.utils import timezone

from core.compiled import Compiled
from core.local import clock

from .models import GamingDay, Role, Shift


@dataclass(frozen=True)
class Rostered:
    """One person's shifts in one role on a gaming day: when, and how many hours in all."""

    spans: tuple[tuple[datetime.datetime, datetime.datetime], ...]  # local times, overlaps merged
    hours: Decimal  # exact: 20 minutes is 0.333…

    @property
    def hours_shown(self) -> str:
        """The hours as a form fills them in: two decimals at most, never more than rostered."""
        return format(self.hours.quantize(Decimal("0.01"), rounding=ROUND_DOWN).normalize(), "f")

    @property
    def spans_shown(self) -> str:
        return ", ".join(f"{clock(start)}–{clock(end)}" for start, end in self.spans)


# A day's shifts in each role, compiled once (core.compiled): every slip a rostered person signs,
# at the window and in an import, asks.
_SHIFTS = {
    role: Compiled(lambda day_id, role=role: Shift.objects.filter(day_id=day_id, role=role).order_by("starts_at"))
    for role in Role.values
}


def rostered(day: GamingDay, role: str) -> dict[int, Rostered]:
    """{person id: their shifts in `role` on the day's roster}. One query."""
    spans: dict[int, list] = {}
    for shift in _SHIFTS[role].objects(day.pk) if role in _SHIFTS else ():
        start, end = timezone.localtime(shift.starts_at), timezone.localtime(shift.ends_at)
        merged = spans.setdefault(shift.person_id, [])
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return {
        person: Rostered(
            spans=tuple(merged),
            hours=Decimal(int(sum((end - start).total_seconds() for start, end in merged))) / Decimal(3600),
        )
        for person, merged in spans.items()
    }
