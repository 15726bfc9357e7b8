"""A user's standing on an event, and the refusal of what the page's declaration does not allow.

Who may use which page is declared once, in events/permissions.py (MATRIX); this module reads it.
A user's roles on an event are the assignments of their person on it, in good standing. Staff
users (the licensee's administrators) set events up and read them. An auditor reads everything
and changes nothing.
"""

from dataclasses import dataclass

from django.core.exceptions import ImproperlyConfigured, PermissionDenied
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from core.compiled import Compiled

from . import permissions
from .models import Event, Person, Role
from .permissions import ANY_ROLE, EVENT, MATRIX, SAFE_METHODS, STAFF, declared, entry_for
from .selectors import with_assignments

# The role sets, where the views have always found them.
SETUP, CAGE_WRITE, READ_ALL = permissions.SETUP, permissions.CAGE_WRITE, permissions.READ_ALL
AUDIT_READ = permissions.AUDIT_READ

# The names people use for the roles, in the order they are listed.
ROLE_NAMES = {
    Role.DRIC: _("DRIC"),
    Role.GENERAL_CASHIER: _("General Cashier"),
    Role.CHIP_CASHIER: _("Chip Cashier"),
    Role.RUNNER: _("Runner"),
    Role.DEALER: _("Dealer"),
    Role.AUDITOR: _("Auditor"),
}
# One person in a role, as a sentence names them after "the": the positions keep their capitals,
# the dealer and the runner do not ("the dealer signs it as …", not "the Dealer").
ROLE_IN_A_SENTENCE = {
    Role.DRIC: _("DRIC"),
    Role.GENERAL_CASHIER: _("General Cashier"),
    Role.CHIP_CASHIER: _("Chip Cashier"),
    Role.RUNNER: pgettext_lazy("one person in a role, in a sentence", "runner"),
    Role.DEALER: pgettext_lazy("one person in a role, in a sentence", "dealer"),
    Role.AUDITOR: pgettext_lazy("one person in a role, in a sentence", "auditor"),
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

# The event's pages in its navigation: URL name and link text; who sees the link is who may open
# the page (events.permissions). The event's own page (events:detail) leads the navigation.
EVENT_PAGES = (
    ("cage:mine", _("My slips")),
    ("events:days", _("Gaming days")),
    ("events:tables", _("Tables")),
    # The games' limits, odds and posters, and for the administrator the licence's figures.
    ("events:games", _("Games")),
    ("events:chips", _("Chip set")),
    ("events:people", _("People")),
    ("events:compliance", _("Compliance")),
    ("cage:home", _("Cage")),
    ("cage:queue", _("DRIC's queue")),
    ("events:calculators", _("Disputes")),
    ("cage:register", _("Register")),
    ("reports:event", _("Report")),
    ("audit:event", _("Audit trail")),
)


def in_role_order(roles) -> list[str]:
    return [r for r in ROLE_NAMES if r in roles]


@dataclass
class Access:
    event: Event
    person: Person | None
    roles: set[str]
    admin: bool

    def has(self, allowed) -> bool:
        """One of the user's roles is allowed, or they are staff and STAFF is (events.permissions)."""
        return bool(self.roles & allowed) or (self.admin and STAFF in allowed)

    def may(self, url_name: str, method: str = "GET", **kwargs) -> bool:
        """Whether the matrix lets this user use an event's page with this method."""
        entry = entry_for(url_name, kwargs)
        return method in entry.methods and self.has(entry.allowed(method))

    @property
    def can_setup(self) -> bool:
        return self.may("events:tables", "POST")

    @property
    def can_cage(self) -> bool:
        return self.may("cage:slip_new", "POST")

    @property
    def reads_all(self) -> bool:
        return self.may("cage:home")

    @property
    def on_event(self) -> bool:
        """A role on the event, or the licensee's administrator."""
        return self.may("events:detail")

    @property
    def reads_slips(self) -> bool:
        """Every slip of the event, not only the slips that name them."""
        entry = MATRIX["cage:slip"]
        return self.has(entry.read - entry.own_slips)

    @property
    def prints_original(self) -> bool:
        """Whether a slip this user may read comes out of their print as the cage's copy (the
        original, then reprints) rather than a copy for reading. The same people who sign slips
        (MATRIX["cage:slip_sign"]): the cage, and the runners and dealers on the slips that name
        them, which are the only slips they reach. Not the auditor, who reads everything and
        changes nothing, nor the licensee's administrator, who holds no custody and signs nothing."""
        return self.person is not None and self.may("cage:slip_sign", "POST")

    @property
    def role_names(self) -> list[str]:
        return [ROLE_NAMES[r] for r in in_role_order(self.roles)]

    @property
    def pages(self) -> list[dict]:
        """The event's pages this user may open, for the navigation: [{name, url, label}]."""
        return [
            {"name": name, "url": reverse(name, args=[self.event.slug]), "label": label}
            for name, label in EVENT_PAGES
            if self.may(name)
        ]


class RoleRefused(PermissionDenied):
    """A request the user's standing on the event does not allow; the refusal page explains it."""

    def __init__(self, access: Access, allowed: set[str], *, write: bool):
        self.access = access
        self.allowed = allowed
        self.write = write
        super().__init__(gettext("Your role on this event does not allow this."))


def standing(request, event: Event) -> Access:
    """The user's standing on the event, refusing nothing."""
    user = request.user
    person = None
    if user.is_authenticated:
        person = Person.objects.filter(event=event, user=user).prefetch_related("assignments").first()
    return _access(event, person, user)


def _access(event: Event, person: Person | None, user) -> Access:
    roles = person.role_codes() if person and person.registration == Person.Registration.GOOD else set()
    return Access(event=event, person=person, roles=roles, admin=user.is_staff)


# The user's person on the event of the address, with the event: compiled once (core.compiled).
_PERSON_ON = Compiled(
    lambda slug, user_id: (
        Person.objects.filter(event__slug=slug, user_id=user_id).select_related("event").order_by("pk")
    ),
    texts=("slug",),
)


def _event_standing(request, slug: str) -> Access:
    """The event of the address and the user's standing on it: for a person on the event, the
    event read with their person (every page of a working night asks this first; one query
    less than reading the event apart)."""
    user = request.user
    if user.is_authenticated:
        person = _PERSON_ON.first(slug, user.pk)
        if person is not None:
            with_assignments(person)
            return _access(person.event, person, user)
    return _access(get_object_or_404(Event, slug=slug), None, user)


_UNSET = object()


def event_access(request, slug: str, *, read=_UNSET, write=_UNSET) -> Access:
    """The event and the user's standing on it; RoleRefused unless the page's entry in
    events.permissions.MATRIX allows this user this method (GET and HEAD read; POST writes).

    `read` and `write` are for a page not declared yet (staff pass, as they did before the
    matrix); on a declared page they must say what its entry says, or they are refused as a
    second, diverging copy.
    """
    entry = declared(request)
    if entry is None:
        if read is _UNSET and write is _UNSET:
            raise ImproperlyConfigured(f"{_view_name(request)} is not declared in events/permissions.py MATRIX")
        readers = set(ANY_ROLE if read is _UNSET else read) | {STAFF}
        writers = set(() if write in (_UNSET, None) else write) | {STAFF}
    elif entry.scope != EVENT:
        raise ImproperlyConfigured(f"{_view_name(request)} is declared as a {entry.scope} page, not an event's")
    else:
        for given, declared_set in ((read, entry.read), (write, entry.write)):
            if given is not _UNSET and set(given or ()) != declared_set - {STAFF}:
                raise ImproperlyConfigured(
                    f"{_view_name(request)}: the view says {sorted(given or ())}, events/permissions.py says "
                    f"{sorted(declared_set)}; keep the declaration only"
                )
        readers, writers = entry.read, entry.write
    access = _event_standing(request, slug)
    reading = request.method in SAFE_METHODS
    allowed = readers if reading else writers
    if not access.has(allowed):
        raise RoleRefused(access, allowed, write=not reading)
    # Kept for the audit trail: who acts on this event, in which roles, without asking again.
    request.event_access = access
    return access


def _view_name(request) -> str:
    match = getattr(request, "resolver_match", None)
    return match.view_name if match is not None else request.path


# Where each role's work starts, in this order of precedence, for the login's landing (a dealer
# saw her slips three page loads after logging in, through the events list and the event's page).
LANDING = (
    (Role.DRIC, "cage:queue"),
    (Role.GENERAL_CASHIER, "cage:home"),
    (Role.CHIP_CASHIER, "cage:home"),
    (Role.AUDITOR, "cage:home"),
    (Role.RUNNER, "cage:mine"),
    (Role.DEALER, "cage:mine"),
)


def landing_url(user, today) -> str:
    """Where a login lands: for someone on one event running today (or on one event at all), the
    page their role works from; the events list for the licensee's administrator and for someone
    on several events, who chooses. Reads only."""
    if user.is_staff:
        return reverse("events:home")
    people = list(
        Person.objects.filter(user=user, registration=Person.Registration.GOOD)
        .select_related("event")
        .prefetch_related("assignments")
    )
    running = [p for p in people if p.event.first_day <= today <= p.event.last_day]
    chosen = running or people
    if len(chosen) != 1:
        return reverse("events:home")
    person = chosen[0]
    access = Access(event=person.event, person=person, roles=person.role_codes(), admin=False)
    for role, page in LANDING:
        if role in access.roles and access.may(page):
            return reverse(page, args=[person.event.slug])
    return reverse("events:detail", args=[person.event.slug])


def visible_events(user):
    if user.is_staff:
        return Event.objects.all()
    return Event.objects.filter(people__user=user).distinct()
