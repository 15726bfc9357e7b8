"""Who may see and do what on an event: decided here, in one place, for every app's views.

A user's roles on an event are the assignments of their person on it. Staff users (the
licensee's administrators) set events up. An auditor reads everything and changes nothing.
"""

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from .models import Event, Person, Role

SETUP = {Role.DRIC}
CAGE_WRITE = {Role.DRIC, Role.GENERAL_CASHIER, Role.CHIP_CASHIER}
READ_ALL = {Role.DRIC, Role.GENERAL_CASHIER, Role.CHIP_CASHIER, Role.AUDITOR}
ANY_ROLE = set(Role.values)


@dataclass
class Access:
    event: Event
    person: Person | None
    roles: set[str]
    admin: bool

    def has(self, allowed: set[str]) -> bool:
        return self.admin or bool(self.roles & allowed)

    @property
    def can_setup(self) -> bool:
        return self.has(SETUP)

    @property
    def can_cage(self) -> bool:
        return self.has(CAGE_WRITE)

    @property
    def reads_all(self) -> bool:
        return self.has(READ_ALL)


def event_access(request, slug: str, *, read: set[str] = ANY_ROLE, write: set[str] | None = None) -> Access:
    """The event and the user's standing on it; PermissionDenied unless a role allows the request.

    `read` roles may GET; a POST needs one of `write` (None: nobody but staff). Auditors are
    never in `write`: they change nothing.
    """
    event = get_object_or_404(Event, slug=slug)
    user = request.user
    person = Person.objects.filter(event=event, user=user).prefetch_related("assignments").first()
    roles = person.role_codes() if person and person.registration == Person.Registration.GOOD else set()
    access = Access(event=event, person=person, roles=roles, admin=user.is_staff)
    allowed = read if request.method in ("GET", "HEAD") else (write or set())
    if not access.has(allowed):
        raise PermissionDenied("Your role on this event does not allow this.")
    return access


def visible_events(user):
    if user.is_staff:
        return Event.objects.all()
    return Event.objects.filter(people__user=user).distinct()
