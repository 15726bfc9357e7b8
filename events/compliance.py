"""The licence's staffing rules, checked against an event as it stands.

Each check names its section. The event page lists them all; the services refuse the changes
that would break the ones that must always hold, and a gaming day cannot open while any fails.
"""

import datetime
from dataclasses import dataclass, field

from django.utils import timezone
from django.utils.translation import gettext as _

from core.compiled import Compiled
from core.local import moment
from core.rules import cite

from .models import DESIGNATED, Event, GamingDay, Person, Role, Shift

ADULT_AGE = 18


@dataclass
class Check:
    section: str  # the T&C section, in English ("T&C 2"): the page cites it in the reader's language
    rule: str
    holds: bool | None  # None: cannot be judged yet (no opening hours scheduled)
    problems: list[str] = field(default_factory=list)

    @property
    def citation(self) -> str:
        return cite(self.section)


def underage(person: Person, event: Event) -> bool:
    return person.age_on(event.first_day) < ADULT_AGE


# A day's shifts with their people, compiled once (core.compiled): an import opens every day.
_SHIFTS = Compiled(lambda day_id: Shift.objects.filter(day_id=day_id).select_related("person").order_by("starts_at"))


def roster_gaps(day: GamingDay) -> dict[str, list[tuple[datetime.datetime, datetime.datetime]]]:
    """For each designated position, the stretches of the day's opening hours nobody covers.

    T&C 2: a person in each of the three positions "must be present continuously" while the
    event runs. Only shifts of people who hold the position and may take part count.
    """
    hours = day.opening_hours()
    if hours is None:
        return {}
    start, end = hours
    gaps = {}
    shifts = _SHIFTS.objects(day.pk)
    for role in DESIGNATED:
        covered_to = start
        role_gaps = []
        for shift in shifts:
            if shift.role != role or shift.person.registration != Person.Registration.GOOD:
                continue
            s = timezone.localtime(shift.starts_at).replace(tzinfo=None)
            e = timezone.localtime(shift.ends_at).replace(tzinfo=None)
            if e <= covered_to or s >= end:
                continue
            if s > covered_to:
                role_gaps.append((covered_to, s))
            covered_to = max(covered_to, e)
            if covered_to >= end:
                break
        if covered_to < end:
            role_gaps.append((covered_to, end))
        if role_gaps:
            gaps[role] = role_gaps
    return gaps


def describe_gap(role: str, start: datetime.datetime, end: datetime.datetime) -> str:
    return _("%(role)s: nobody from %(start)s to %(end)s") % {
        "role": Role(role).label,
        "start": moment(start),
        "end": moment(end),
    }


def event_compliance(event: Event) -> list[Check]:
    people = list(event.people.prefetch_related("assignments"))
    checks = []

    missing = []
    for role in DESIGNATED:
        if not any(role in p.role_codes() and p.registration == Person.Registration.GOOD for p in people):
            missing.append(_("No %(role)s") % {"role": Role(role).label})
    checks.append(
        Check(
            "T&C 2",
            _("At least three designated persons: DRIC, General Cashier, Chip Cashier"),
            not missing,
            missing,
        )
    )

    doubled = [
        _("%(name)s holds %(count)s positions") % {"name": p.name, "count": len(held)}
        for p in people
        if len(held := p.role_codes() & set(DESIGNATED)) > 1
    ]
    checks.append(Check("T&C 2", _("Each designated person holds one position only"), not doubled, doubled))

    supplier = [
        _("%(name)s is associated with the supplier") % {"name": p.name}
        for p in people
        if p.supplier_associated and p.role_codes() & set(DESIGNATED)
    ]
    checks.append(
        Check("T&C 2", _("Designated persons are not associated with the registered supplier"), not supplier, supplier)
    )

    young = [
        _("%(name)s is %(age)s") % {"name": p.name, "age": p.age_on(event.first_day)}
        for p in people
        if underage(p, event)
    ]
    checks.append(
        Check("T&C 1.5.2", _("Nobody under %(age)s works at the event") % {"age": ADULT_AGE}, not young, young)
    )

    barred = [
        _("%(name)s: registration %(registration)s")
        % {"name": p.name, "registration": p.get_registration_display().lower()}
        for p in people
        if p.registration != Person.Registration.GOOD
    ]
    checks.append(
        Check(
            "T&C 2.3",
            _("Nobody whose registration was refused, revoked or suspended takes part"),
            not barred,
            barred,
        )
    )

    unregistered = [
        _("%(name)s has no gaming-assistant registration number") % {"name": p.name}
        for p in people
        if p.supplier_associated and Role.DEALER in p.role_codes() and not p.gaming_assistant_number
    ]
    checks.append(
        Check(
            "T&C 4.2",
            _("Supplier employees who deal are registered Gaming Assistants"),
            not unregistered,
            unregistered,
        )
    )

    for day in event.days.all():
        rule = _("%(date)s: each position present continuously") % {"date": moment(day.date)}
        if day.opening_hours() is None:
            checks.append(Check("T&C 2", rule, None, [_("No opening hours scheduled")]))
            continue
        gaps = roster_gaps(day)
        problems = [describe_gap(role, s, e) for role, spans in gaps.items() for s, e in spans]
        checks.append(Check("T&C 2", rule, not problems, problems))
    return checks
