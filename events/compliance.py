"""The licence's staffing rules, checked against an event as it stands.

Each check names its section. The event page lists them all; the services refuse the changes
that would break the ones that must always hold, and a gaming day cannot open while any fails.
"""

import datetime
from dataclasses import dataclass, field

from django.utils import timezone

from .models import DESIGNATED, Event, GamingDay, Person, Role

ADULT_AGE = 18


@dataclass
class Check:
    section: str
    rule: str
    holds: bool | None  # None: cannot be judged yet (no opening hours scheduled)
    problems: list[str] = field(default_factory=list)


def underage(person: Person, event: Event) -> bool:
    return person.age_on(event.first_day) < ADULT_AGE


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
    shifts = list(day.shifts.select_related("person").order_by("starts_at"))
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
    return f"{Role(role).label}: nobody from {start:%Y-%m-%d %H:%M} to {end:%Y-%m-%d %H:%M}"


def event_compliance(event: Event) -> list[Check]:
    people = list(event.people.prefetch_related("assignments"))
    checks = []

    missing = []
    for role in DESIGNATED:
        if not any(role in p.role_codes() and p.registration == Person.Registration.GOOD for p in people):
            missing.append(f"No {Role(role).label}")
    checks.append(
        Check("T&C 2", "At least three designated persons: DRIC, General Cashier, Chip Cashier", not missing, missing)
    )

    doubled = [
        f"{p.name} holds {len(held)} positions" for p in people if len(held := p.role_codes() & set(DESIGNATED)) > 1
    ]
    checks.append(Check("T&C 2", "Each designated person holds one position only", not doubled, doubled))

    supplier = [
        f"{p.name} is associated with the supplier"
        for p in people
        if p.supplier_associated and p.role_codes() & set(DESIGNATED)
    ]
    checks.append(
        Check("T&C 2", "Designated persons are not associated with the registered supplier", not supplier, supplier)
    )

    young = [f"{p.name} is {p.age_on(event.first_day)}" for p in people if underage(p, event)]
    checks.append(Check("T&C 1.5.2", "Nobody under 18 works at the event", not young, young))

    barred = [
        f"{p.name}: registration {p.get_registration_display().lower()}"
        for p in people
        if p.registration != Person.Registration.GOOD
    ]
    checks.append(
        Check("T&C 2.3", "Nobody whose registration was refused, revoked or suspended takes part", not barred, barred)
    )

    unregistered = [
        f"{p.name} has no gaming-assistant registration number"
        for p in people
        if p.supplier_associated and Role.DEALER in p.role_codes() and not p.gaming_assistant_number
    ]
    checks.append(
        Check("T&C 4.2", "Supplier employees who deal are registered Gaming Assistants", not unregistered, unregistered)
    )

    for day in event.days.all():
        if day.opening_hours() is None:
            checks.append(
                Check("T&C 2", f"{day.date}: each position present continuously", None, ["No opening hours scheduled"])
            )
            continue
        gaps = roster_gaps(day)
        problems = [describe_gap(role, s, e) for role, spans in gaps.items() for s, e in spans]
        checks.append(Check("T&C 2", f"{day.date}: each position present continuously", not problems, problems))
    return checks
