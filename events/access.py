"""Who may see and do what on an event: decided here, in one place, for every app's views.

A user's roles on an event are the assignments of their person on it. Staff users (the
licensee's administrators) set events up. An auditor reads everything and changes nothing.
"""

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .models import Event, Person, Role

SETUP = {Role.DRIC}
CAGE_WRITE = {Role.DRIC, Role.GENERAL_CASHIER, Role.CHIP_CASHIER}
READ_ALL = {Role.DRIC, Role.GENERAL_CASHIER, Role.CHIP_CASHIER, Role.AUDITOR}
ANY_ROLE = set(Role.values)
# Who reads every slip's own page (cage:slip); runners and dealers read the slips that name them,
# that they signed, or that wait for their signature.
SLIP_READ = READ_ALL
# Who reads the event's audit trail (audit:event): the DRIC, who supervises the cage, and the
# auditor. Not the cashiers, runners or dealers: the trail watches them, their failed logins and
# refused attempts included, and nobody reads the watch kept on their colleagues.
AUDIT_READ = {Role.DRIC, Role.AUDITOR}

# The names people use for the roles, in the order they are listed.
ROLE_NAMES = {
    Role.DRIC: _("DRIC"),
    Role.GENERAL_CASHIER: _("General Cashier"),
    Role.CHIP_CASHIER: _("Chip Cashier"),
    Role.RUNNER: _("Runner"),
    Role.DEALER: _("Dealer"),
    Role.AUDITOR: _("Auditor"),
}
# The same, as a sentence names them: "the DRIC, the General Cashier and the Chip Cashier".
ROLE_PHRASES = {
    Role.DRIC: _("the DRIC"),
    Role.GENERAL_CASHIER: _("the General Cashier"),
    Role.CHIP_CASHIER: _("the Chip Cashier"),
    Role.RUNNER: _("the runners"),
    Role.DEALER: _("the dealers"),
    Role.AUDITOR: _("the auditor"),
}

# The event's pages in its navigation: URL name, the roles that may open it, its link text.
# The event's own page (events:detail) is open to every role and leads the navigation.
EVENT_PAGES = (
    ("cage:mine", ANY_ROLE, _("My slips")),
    ("events:days", ANY_ROLE, _("Gaming days")),
    ("events:tables", ANY_ROLE, _("Tables")),
    ("events:chips", ANY_ROLE, _("Chip set")),
    ("events:people", READ_ALL, _("People")),
    ("events:compliance", READ_ALL, _("Compliance")),
    ("cage:home", READ_ALL, _("Cage")),
    ("cage:queue", READ_ALL, _("DRIC's queue")),
    ("cage:register", READ_ALL, _("Register")),
    ("reports:event", READ_ALL, _("Report")),
    ("audit:event", AUDIT_READ, _("Audit trail")),
)


def in_role_order(roles) -> list[str]:
    return [r for r in ROLE_NAMES if r in roles]


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

    @property
    def on_event(self) -> bool:
        """A role on the event, or the licensee's administrator."""
        return self.has(ANY_ROLE)

    @property
    def reads_slips(self) -> bool:
        return self.has(SLIP_READ)

    @property
    def role_names(self) -> list[str]:
        return [ROLE_NAMES[r] for r in in_role_order(self.roles)]

    @property
    def pages(self) -> list[dict]:
        """The event's pages this user may open, for the navigation: [{name, url, label}]."""
        return [
            {"name": name, "url": reverse(name, args=[self.event.slug]), "label": label}
            for name, allowed, label in EVENT_PAGES
            if self.has(allowed)
        ]


class RoleRefused(PermissionDenied):
    """A request the user's standing on the event does not allow; the refusal page explains it."""

    def __init__(self, access: Access, allowed: set[str], *, write: bool):
        self.access = access
        self.allowed = allowed
        self.write = write
        super().__init__("Your role on this event does not allow this.")


def standing(request, event: Event) -> Access:
    """The user's standing on the event, refusing nothing."""
    user = request.user
    person = None
    if user.is_authenticated:
        person = Person.objects.filter(event=event, user=user).prefetch_related("assignments").first()
    roles = person.role_codes() if person and person.registration == Person.Registration.GOOD else set()
    return Access(event=event, person=person, roles=roles, admin=user.is_staff)


def event_access(request, slug: str, *, read: set[str] = ANY_ROLE, write: set[str] | None = None) -> Access:
    """The event and the user's standing on it; PermissionDenied unless a role allows the request.

    `read` roles may GET; a POST needs one of `write` (None: nobody but staff). Auditors are
    never in `write`: they change nothing.
    """
    access = standing(request, get_object_or_404(Event, slug=slug))
    reading = request.method in ("GET", "HEAD")
    allowed = read if reading else (write or set())
    if not access.has(allowed):
        raise RoleRefused(access, allowed, write=not reading)
    # Kept for the audit trail: who acts on this event, in which roles, without asking again.
    request.event_access = access
    return access


def visible_events(user):
    if user.is_staff:
        return Event.objects.all()
    return Event.objects.filter(people__user=user).distinct()
