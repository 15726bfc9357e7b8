"""What an event still lacks before its first gaming day opens: one list of checks, which the day's
opening refuses by (events.services.opening_refusal) and the checklist page shows, so that the two
never disagree.

Each check has a stable code (its refusal's), the rule it applies (a T&C section, cited in the
reader's numbering), what it asks for in a few words, the page that fixes it (its URL name), and
finds what is missing as a sentence kept as its values (core.rules.Words), said in each reader's
language. They come in the order an administrator sets an event up, page by page; the first one
missing is what the first day's opening is refused with.

Two of them hold for every gaming day: three designated persons, and the designated positions
present continuously on the day's roster. The others are the first day's: a later day opens on the
setup the first one opened with. On the first day the roster must also list each designated
position when the day has no opening hours to check it against: a roster that lists nobody leaves
the on-duty rule (cage.services.ledger.check_on_duty) and the tips' hours (T&C 2.6) nothing to read.
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from django.db.models import prefetch_related_objects
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop as N_

from core.compiled import Compiled
from core.rules import When, Words, cite

from . import game_rules
from .compliance import describe_gap, roster_gaps
from .models import DESIGNATED, Assignment, Event, GamingDay, Person, Role, game_name


@dataclass
class Setup:
    """What the checks read: the event, the gaming day to open (None before one is added), and
    whether it is the event's first."""

    event: Event
    day: GamingDay | None
    first: bool = True

    @cached_property
    def designated(self) -> list[Person]:
        """The designated persons in good standing, by name."""
        people = _DESIGNATED.objects(self.event.pk)
        prefetch_related_objects(people, "assignments")
        return people

    @cached_property
    def positions_held(self) -> set[str]:
        """The designated positions someone in good standing holds."""
        return {role for (role,) in _POSITIONS_HELD.rows(self.event.pk)}


# Compiled once (core.compiled): an import opens every gaming day of its event, and each opening
# checks its designated persons.
_POSITIONS_HELD = Compiled(
    lambda event_id: (
        Assignment.objects.filter(
            person__event_id=event_id, person__registration=Person.Registration.GOOD, role__in=DESIGNATED
        )
        .order_by("role")
        .values_list("role")
        .distinct()
    )
)
_DESIGNATED = Compiled(
    lambda event_id: (
        Person.objects.filter(
            event_id=event_id, registration=Person.Registration.GOOD, assignments__role__in=DESIGNATED
        )
        .distinct()
        .select_related("user")
        .order_by("name")
    )
)


@dataclass(frozen=True)
class Check:
    code: str
    rule: object  # a T&C section ("T&C 4.1"), cited in the reader's numbering
    what: object  # what it asks for, in a few words (lazily translated)
    page: str  # the URL name of the page that fixes it
    page_name: object
    # What is missing, or None: a sentence, or (a sentence, the sections it names) where what is
    # missing narrows the rule (a person's declarations).
    find: Callable[[Setup], object]
    every_day: bool = False  # held to every gaming day, not only the first


@dataclass(frozen=True)
class Line:
    """A check as the event stands."""

    check: Check
    missing: Words | None
    rule: object
    page: str  # the URL name of the page that fixes it, and its arguments
    args: tuple
    page_name: object

    @property
    def url(self) -> str:
        # Reversed when a page shows it, not when a day's opening asks what is missing: an import
        # opens every day of an event, and reversed every check's page for none of them.
        return reverse(self.page, args=self.args)

    @property
    def code(self) -> str:
        return self.check.code

    @property
    def what(self):
        return self.check.what

    @property
    def done(self) -> bool:
        return self.missing is None

    @property
    def anchor(self) -> str:
        """The line's id on the page: its code, with dashes ("check-day-chips_missing")."""
        return "check-" + self.code.replace(".", "-")

    @property
    def citation(self) -> str:
        return cite(self.rule)

    @property
    def refusal(self) -> tuple[Words, object, str]:
        """What the day's opening is refused with: (message, rule, code)."""
        return self.missing, self.rule, self.code


# --- the checks, in the order of the pages ------------------------------------------------------


def _supplier(setup: Setup):
    if setup.event.supplier_registration_number.strip():
        return None
    return Words(
        N_(
            "the registered supplier's registration number is not entered: equipment is rented only from a supplier registered under the Gaming Control Act, 1992"
        )
    )


def _tables_licensed(setup: Setup):
    for game in setup.event.games:
        if game not in setup.event.tables_licensed:
            return Words(
                N_(
                    "the number of %(game)s tables the licence allows is not entered: the licence approves the "
                    "number of tables of each game it authorizes, and the licensee's administrator enters it on "
                    "the Games page"
                ),
                game=game_name(game),
            )
    return None


def _game_settings(setup: Setup):
    for game in setup.event.games:
        figures = game_rules.missing_in_a_sentence(setup.event, game)
        if figures:
            return Words(
                N_(
                    "the licence's settings of %(game)s are not entered (%(figures)s): its rules of play state "
                    "none, so the licensee's administrator enters them on the Games page as the licence sets "
                    "them, and every table of the game posts them"
                ),
                game=game_name(game),
                figures=figures,
            )
    return None


def _designated(setup: Setup):
    held = setup.positions_held
    for role in DESIGNATED:
        if role not in held:
            return Words(
                N_("The event has no %(position)s; three designated persons are required"),
                position=Role(role).label,
            )
    return None


def _named_first(setup: Setup):
    """Before the three positions are filled, what is asked of the designated persons is not done
    yet, whatever those already named have done (never a refusal: _designated's comes first)."""
    if _designated(setup) is None:
        return None
    return Words(N_("the three designated persons are named first, on the People page"))


def _declarations(setup: Setup):
    from .services import declarations_refusal  # the services open the day through this module

    if (named_first := _named_first(setup)) is not None:
        return named_first
    for person in setup.designated:
        refusal = declarations_refusal(person)
        if refusal is not None:
            message, rule, _code = refusal
            return message, rule
    return None


def _logins(setup: Setup):
    from .services import login_pending

    if (named_first := _named_first(setup)) is not None:
        return named_first
    waiting = [p.name for p in setup.designated if p.user_id is None or login_pending(p.user)]
    if not waiting:
        return None
    return Words(
        N_(
            "%(names)s cannot sign yet: each designated person signs with a login of their own, given by the "
            "licensee's administrator on the People page and set up by its owner with the setup code"
        ),
        names=", ".join(waiting),
    )


def _chips(setup: Setup):
    if setup.event.denominations.exists():
        return None
    return Words(
        N_(
            "the chip set is empty: chips are the only betting medium at the tables, and the cage counts "
            "them by denomination"
        )
    )


def _tables(setup: Setup):
    if setup.event.tables.exists():
        return None
    return Words(
        N_("no table is set up: the cage opens, fills and credits only a table set up for a game of the licence")
    )


def _gaming_day(setup: Setup):
    if setup.day is not None:
        return None
    return Words(
        N_("no gaming day is added yet: the first one is added on the Gaming days page, from %(first)s to %(last)s"),
        first=When(setup.event.first_day),
        last=When(setup.event.last_day),
    )


def _roster(setup: Setup):
    day = setup.day
    if day is None:
        # Never a refusal: a day being opened is there. The line waits for the one before it.
        return Words(N_("the first gaming day is not added yet: its roster comes once it is"))
    gaps = [describe_gap(role, start, end) for role, spans in roster_gaps(day).items() for start, end in spans]
    if setup.first and day.opening_hours() is None:
        rostered = set(day.shifts.filter(person__registration=Person.Registration.GOOD).values_list("role", flat=True))
        gaps += [
            _("%(role)s: nobody on the roster") % {"role": Role(role).label}
            for role in DESIGNATED
            if role not in rostered
        ]
    if not gaps:
        return None
    return Words(
        N_("The roster leaves designated positions empty: %(gaps)s; each must be present continuously"),
        gaps="; ".join(gaps),
    )


CHECKS = (
    Check(
        "day.supplier_unregistered",
        "T&C 4.1",
        gettext_lazy("The registered supplier's registration number"),
        "events:supplier",
        gettext_lazy("Registered supplier"),
        _supplier,
    ),
    Check(
        "day.tables_licensed_missing",
        "T&C 1.3",
        gettext_lazy("The number of tables of each game the licence allows"),
        "events:games",
        gettext_lazy("Games"),
        _tables_licensed,
    ),
    Check(
        "day.game_settings_missing",
        "T&C 1.3, 3.5",
        gettext_lazy("The licence's settings of each game whose rules of play state none"),
        "events:games",
        gettext_lazy("Games"),
        _game_settings,
    ),
    Check(
        "day.designated_missing",
        "T&C 2",
        gettext_lazy("A DRIC, a General Cashier and a Chip Cashier"),
        "events:people",
        gettext_lazy("People"),
        _designated,
        every_day=True,
    ),
    Check(
        "person.declarations_incomplete",
        "T&C 1.4.4, 1.4.6, 2",
        gettext_lazy("What each designated person shows and declares"),
        "events:people",
        gettext_lazy("People"),
        _declarations,
    ),
    Check(
        "day.logins_missing",
        "T&C 2",
        gettext_lazy("A login of their own for each designated person, set up by its owner"),
        "events:people",
        gettext_lazy("People"),
        _logins,
    ),
    Check(
        "day.chips_missing", "T&C 3.4.1", gettext_lazy("The chip set"), "events:chips", gettext_lazy("Chip set"), _chips
    ),
    Check(
        "day.tables_missing",
        "T&C 1.3",
        gettext_lazy("At least one table"),
        "events:tables",
        gettext_lazy("Tables"),
        _tables,
    ),
    Check(
        "day.gaming_day_missing",
        "T&C 1.3",
        gettext_lazy("The first gaming day, within the licence's dates"),
        "events:days",
        gettext_lazy("Gaming days"),
        _gaming_day,
    ),
    Check(
        "day.roster_gaps",
        "T&C 2",
        gettext_lazy("Its roster: each designated position present continuously"),
        "events:roster",
        gettext_lazy("Roster"),
        _roster,
        every_day=True,
    ),
)


def _line(check: Check, setup: Setup) -> Line:
    found = check.find(setup)
    missing, rule = found if isinstance(found, tuple) else (found, check.rule)
    page, page_name, args = check.page, check.page_name, [setup.event.slug]
    if page == "events:roster":
        if setup.day is None:  # no day to roster yet: the page that adds one
            page, page_name = "events:days", gettext_lazy("Gaming days")
        else:
            args.append(setup.day.date.isoformat())
    return Line(check, missing, rule, page, tuple(args), page_name)


def first_day(event: Event) -> GamingDay | None:
    """The gaming day the checklist is about: the earliest still in setup."""
    return event.days.filter(status=GamingDay.Status.SETUP).order_by("date").first()


def first_opened(event: Event) -> GamingDay | None:
    """The event's first gaming day that opened (whatever it is now), or None before any has."""
    return event.days.exclude(status=GamingDay.Status.SETUP).order_by("date").first()


def first_missing(event: Event, day: GamingDay | None = None, *, first: bool = True) -> Line | None:
    """The first check missing before `day` opens (the earliest day in setup, by default): for the
    event's first gaming day every check, for a later one those of every day. Reads only."""
    setup = Setup(event, day if day is not None else first_day(event), first)
    for check in CHECKS:
        if first or check.every_day:
            line = _line(check, setup)
            if not line.done:
                return line
    return None


@dataclass
class Checklist:
    """The event's checklist as its page shows it."""

    event: Event
    day: GamingDay | None  # the first gaming day, once added
    opened: GamingDay | None  # the first day that opened: then there is nothing left to check
    lines: list[Line]

    @property
    def left(self) -> int:
        return sum(not line.done for line in self.lines)

    @property
    def ready(self) -> bool:
        """The first gaming day may open: nothing is missing."""
        return self.opened is None and self.day is not None and self.left == 0


def checklist(event: Event) -> Checklist:
    """Every check, done or missing, for the event's first gaming day. Reads only."""
    opened = first_opened(event)
    if opened is not None:
        return Checklist(event, None, opened, [])
    setup = Setup(event, first_day(event))
    return Checklist(event, setup.day, None, [_line(check, setup) for check in CHECKS])
