"""Shared fixtures: an event set up through the services, with one named persona per role."""

import contextlib
import copy
import datetime
import os
from dataclasses import dataclass
from pathlib import Path

import django.test
import pytest
from django.contrib.auth import get_user_model
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from config.catalogues import compile_all
from events import services
from events.models import Authority, Event, GameTable, GamingDay, Person, Role

PASSWORD = "correct-horse-42"
PIN = "2468"  # every persona with a login has this signing PIN, set by themselves through pin_set
EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
DAY = datetime.date(2026, 9, 11)


def pytest_configure(config):
    # The French pages need the compiled catalogue; `make test` compiles it too, but a bare
    # `pytest` must not test against a stale or missing one. Compiled once, before the workers
    # start (pytest-xdist: a worker has `workerinput`), never by two processes at once.
    if not hasattr(config, "workerinput"):
        compile_all()


# The files that take longest go first among their equals. With each file on one worker (`--dist
# loadfile`), pytest-xdist hands out the files with the most tests first and keeps this order only
# among files of as many tests: the one-test walks (a whole day in a browser, the outage drill, the
# bench's smoke test, the ledger's property test) then start before the quick one-test files.
# Handing every file out in this order instead (--no-loadscope-reorder) was measured no faster:
# 13:06 against 12:15, the two long walks then running side by side at the start.
SLOW_FIRST = (
    "tests/browser/test_whole_day.py",
    "tests/browser/test_outage_drill.py",
    "tests/test_bench.py",
    "tests/cage/test_ledger_properties.py",
    "tests/cage/test_backup_restore.py",
    "tests/browser/test_page_widths.py",
    "tests/faults/",
    "tests/cage/test_import_while_cage_works.py",
    "tests/reports/test_pages_by_event_size.py",
    "tests/test_permission_matrix.py",
    "tests/browser/",
)


def pytest_collection_modifyitems(items):
    def rank(item):
        return next((i for i, start in enumerate(SLOW_FIRST) if item.nodeid.startswith(start)), len(SLOW_FIRST))

    items.sort(key=rank)  # stable: each file's tests keep their order


@pytest.fixture(scope="session", autouse=True)
def application_role(request):
    """With APP_ROLE set (.ci/run's PostgreSQL run), every test runs as the application's own role
    (cage.db_roles): the test database is made and migrated by its owner, the role is granted what
    `migrate` grants it, and every connection then acts as that role (SET ROLE at connect), so that
    a privilege the product needs and the role lacks fails a test. Tests that play someone below
    the application (a superuser, the owner) say so with `as_owner`."""
    role = os.environ.get("APP_ROLE")
    if not role or not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        yield None
        return
    request.getfixturevalue("django_db_setup")
    from django.db import connection

    from cage import db_roles

    with request.getfixturevalue("django_db_blocker").unblock():
        with connection.cursor() as cursor:
            # Roles belong to the server, not to one database: the suite's workers may each try.
            cursor.execute(
                "DO $$ BEGIN CREATE ROLE " + connection.ops.quote_name(role) + " NOLOGIN; "
                "EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$"
            )
        db_roles.grant(role)
        connection.close()
        options = connection.settings_dict.setdefault("OPTIONS", {})
        options["options"] = f"-c role={role}"
    yield role
    # The owner drops the test database.
    with request.getfixturevalue("django_db_blocker").unblock():
        connection.close()
        options.pop("options", None)


@contextlib.contextmanager
def owner_for_a_moment():
    """On PostgreSQL run as the application's role: the block acts as the login (the database's
    owner), then the test goes on as the role it was (a test's own fault set up with DDL)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user, session_user")
        acting, login = cursor.fetchone()
        cursor.execute("SET ROLE NONE")
    try:
        yield
    finally:
        if acting != login:
            with connection.cursor() as cursor:
                cursor.execute(f"SET ROLE {connection.ops.quote_name(acting)}")


def as_owner() -> None:
    """On PostgreSQL run as the application's role: the rest of this test's transaction acts as
    the login (the database's owner, a superuser), as someone holding it would."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET ROLE NONE")


@pytest.fixture(autouse=True)
def english_unless_asked():
    """A request in French leaves French active in its thread (as each next request sets its own);
    a test starts in the default language, whatever the test before it asked for."""
    translation.deactivate()
    yield
    translation.deactivate()


@dataclass
class Cast:
    event: Event
    day: GamingDay
    dric: Person
    general_cashier: Person
    chip_cashier: Person
    runner: Person
    runner2: Person
    dealer: Person
    dealer2: Person
    auditor: Person
    bj: GameTable
    wheel: GameTable

    def signed(self, **capacities: str) -> dict[str, Person]:
        """signed(issued_by="chip_cashier", ...) -> {capacity: Person}."""
        return {capacity: getattr(self, persona) for capacity, persona in capacities.items()}


def event_form(**changes) -> dict:
    """What the administrator types on the new event's page, for the Riverside casino."""
    return {
        "licensee": "Riverside Lions",
        "slug": "riverside",
        "name": "Riverside Casino",
        "licence_number": "F-1",
        "authority": "agco",
        "licensing_authority": "AGCO",
        "venue": "Arena",
        "first_day": "2026-10-01",
        "last_day": "2026-10-02",
        "supplier": "Northern Gaming",
        "games": ["blackjack"],
        **changes,
    }


def make_event(
    slug="lakeside",
    *,
    games=("blackjack", "wheel_of_fortune"),
    first_day=DAY,
    last_day=None,
    authority=None,
    tables_licensed=None,
) -> Event:
    licensee = services.licensee_get_or_create(
        name="Lakeside Agricultural Society", charitable_number="10747 1234 RR0001"
    )
    return services.event_create(
        licensee=licensee,
        slug=slug,
        name="Lakeside Fall Fair Casino",
        licence_number="F-2026-0117",
        venue="Lakeside Fairgrounds, Hall B",
        first_day=first_day,
        last_day=last_day or first_day + datetime.timedelta(days=2),
        supplier="Northern Gaming Supply Ltd.",
        supplier_registration_number="GS-44120",
        games_authorized=list(games),
        # The Québec authority where every game is played under the Québec rules (T&C 1.3, 3.3).
        authority=authority or (Authority.RACJ if set(games) <= QUEBEC_GAMES else Authority.AGCO),
        # The licence's number of tables of each game (T&C 1.3), more than any test sets up.
        tables_licensed=tables_licensed if tables_licensed is not None else {game: 12 for game in games},
    )


def login(client, cast, persona: str):
    """Log `persona` of the cast (cast.dric, cast.chip_cashier, ...) in on the test client with
    the shared test password; returns the person."""
    return login_person(client, getattr(cast, persona))


def login_person(client, person):
    """Log a person with a login in on the test client with the shared test password."""
    assert client.login(username=person.user.username, password=PASSWORD)
    return person


def give_login(person, username, *, password=PASSWORD, pin=PIN):
    """A login for a person, made and set up as on the pages: the setup code goes to its owner,
    who chooses the password and signing PIN (here the shared test ones)."""
    setup = services.login_create(person=person, username=username, by=None)
    services.login_setup_complete(request=None, username=username, code=setup.code, password=password, pin=pin)
    person.user.refresh_from_db()  # the person's own copy of the login now has its password
    return person.user


# What a person shows and declares before the event's first day opens (T&C 1.4.4, 1.4.6, 2).
DECLARED = {"identification": "Ontario driver's licence", "other_activities": True, "terms_acknowledged": True}


def add_person(event, code, role, *, born_on=datetime.date(1980, 1, 1), login=True, **extra) -> Person:
    extra = {**DECLARED, **extra}
    person = services.person_add(event=event, code=code, name=code.replace("_", " ").title(), born_on=born_on, **extra)
    if role:
        services.role_assign(person=person, role=role, by=None)
    if login:
        give_login(person, f"{event.slug}-{code}")
    return person


def make_cast(slug="lakeside", *, open_day=True) -> Cast:
    event = make_event(slug)
    for value, colour in (("1", "white"), ("5", "red"), ("25", "green")):
        services.denomination_add(event=event, value=value, colour=colour)
    people = {
        "dric": add_person(event, "dric", Role.DRIC),
        "general_cashier": add_person(event, "general_cashier", Role.GENERAL_CASHIER),
        "chip_cashier": add_person(event, "chip_cashier", Role.CHIP_CASHIER),
        "runner": add_person(event, "runner", Role.RUNNER),
        "runner2": add_person(event, "runner2", Role.RUNNER),
        "dealer": add_person(event, "dealer", Role.DEALER),
        "dealer2": add_person(event, "dealer2", Role.DEALER),
        "auditor": add_person(event, "auditor", Role.AUDITOR),
    }
    day = services.day_add(event=event, date=DAY)
    if open_day:
        # Opened as a records file's day is (records_file): held to the rules of every gaming day,
        # not to the first day's checklist (events.readiness: its tables, its roster...), which
        # tests/events/test_checklist.py tries on events of its own; the cast rosters nobody.
        day = services.day_open(day=day, records_file=True)
    return Cast(
        event=event,
        day=day,
        bj=services.table_create(event=event, code="BJ-1", game="blackjack"),
        wheel=services.table_create(event=event, code="WOF-1", game="wheel_of_fortune"),
        **people,
    )


# Two events with a table of each game: one licensed by the Québec authority for baccarat and craps
# (its rules of play, seeds 002 to 004), one by the AGCO for blackjack and the wheel of fortune (seed
# 001): a licence authorizes only games played under its own authority's rules (T&C 1.3, 3.3). The
# games page, the posters and the DRIC's dispute calculators are tried on them.
QUEBEC_TABLES = (("BJ-1", "blackjack"), ("WOF-1", "wheel_of_fortune"), ("BAC-1", "baccarat"), ("CR-1", "craps"))
QUEBEC_GAMES = {"baccarat", "craps"}
QUEBEC_BACCARAT = {
    "limits": ("2", "25"),
    "player_pays": "1:1",
    "banker_pays": "1:1",
    "banker_commission": "5",
    "tie_pays": "8:1",
    "decks": "8",
}
QUEBEC_CRAPS = {"limits": ("1", "5")}


@dataclass
class Quebec:
    event: Event  # baccarat and craps, licensed by the Québec authority
    people: dict[str, Person]  # dric, auditor, dealer, chip_cashier, each with a login
    ontario: Event  # blackjack and the wheel of fortune, licensed by the AGCO
    ontario_people: dict[str, Person]

    @property
    def dric(self) -> Person:
        return self.people["dric"]

    def of(self, table: str) -> tuple[Event, dict[str, Person]]:
        """The event a table of QUEBEC_TABLES is at, and its people."""
        game = dict(QUEBEC_TABLES)[table]
        return (self.event, self.people) if game in QUEBEC_GAMES else (self.ontario, self.ontario_people)


ROLES_AT_THE_GAMES = ("dric", "auditor", "dealer", "chip_cashier")


def make_quebec(*, settings_entered: bool = True) -> Quebec:
    """The two events of QUEBEC_TABLES; with `settings_entered`, the administrator has entered the
    licence's figures for baccarat (QUEBEC_BACCARAT) and craps (QUEBEC_CRAPS). A function, not only
    a fixture, for the browser tests (whose database is the live server's)."""
    made = {}
    for slug, games in (("quebec", QUEBEC_GAMES), ("ontario", {"blackjack", "wheel_of_fortune"})):
        tables = [(code, game) for code, game in QUEBEC_TABLES if game in games]
        event = make_event(slug, games=tuple(game for _code, game in tables))
        people = {role: add_person(event, role, role) for role in ROLES_AT_THE_GAMES}
        for code, game in tables:
            services.table_create(event=event, code=code, game=game)
        made[slug] = (event, people)
    if settings_entered:
        quebec = made["quebec"][0]
        services.game_settings_set(event=quebec, game="baccarat", entered=QUEBEC_BACCARAT)
        services.game_settings_set(event=quebec, game="craps", entered=QUEBEC_CRAPS)
    return Quebec(*made["quebec"], *made["ontario"])


@pytest.fixture
def quebec(db) -> Quebec:
    return make_quebec()


@pytest.fixture
def quebec_unset(db) -> Quebec:
    """The two events before the administrator has entered any figure."""
    return make_quebec(settings_entered=False)


@contextlib.contextmanager
def built_once(django_db_blocker):
    """For a module-scoped fixture whose rows the module's tests only read: built once, in a
    transaction of its own that is rolled back after the module. Each test still runs in its own
    savepoint inside it (pytest-django's `db`), so what a test writes goes with it. Built with the
    suite's hashers (FAST_HASHERS), as a test's own logins are."""
    from django.db import transaction
    from django.test import override_settings

    with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=FAST_HASHERS), transaction.atomic():
        yield
        transaction.set_rollback(True)


@pytest.fixture(scope="module")
def cast_built(request, django_db_setup, django_db_blocker):
    """In a module marked `cast_once` (one whose tests never commit: no live server, no
    transactional database, and no event of the cast's slug made beside it), the cast is built
    once for the module (built_once); elsewhere, None."""
    if request.node.get_closest_marker("cast_once") is None:
        yield None
        return
    with built_once(django_db_blocker):
        yield make_cast()


@pytest.fixture
def cast(cast_built, db) -> Cast:
    """The event of the test, its cast and its open gaming day: a copy of the module's, whose rows
    the test's own savepoint rolls back after it, where the module is marked `cast_once`; else
    built for the test alone."""
    return make_cast() if cast_built is None else copy.deepcopy(cast_built)


@pytest.fixture
def outsider(db):
    return get_user_model().objects.create_user("outsider", password=PASSWORD)


@pytest.fixture
def admin_user(db):
    return get_user_model().objects.create_user("admin", password=PASSWORD, is_staff=True)


# Every persona has a login; the real hasher's deliberate slowness would dominate the suite.
# tests/events/test_accounts.py checks the real hashers (argon2) on their own. Signing PINs keep
# their own hasher's algorithm and format, with argon2's least memory (tests/hashers.py).
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", "tests.hashers.CheapSigningPinHasher"]


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = FAST_HASHERS


class Client(django.test.Client):
    """The test client, logging in through the lockout check as the login page does: django-axes
    refuses an authentication without a request, so the login is given one from 127.0.0.1."""

    def login(self, **credentials):
        credentials.setdefault("request", RequestFactory().post(reverse("login")))
        return super().login(**credentials)


@pytest.fixture
def client():
    return Client()
