"""Every page of the product, with every HTTP method, as every kind of user: each answer is the one
events/permissions.py declares, and a request that is refused, or only reads, changes nothing.

The pages are found by walking the URL resolver, so a page added without its line in the matrix
fails here. Path parameters are filled with a real event's objects: its slug, a slip that names
the runner and the dealer and one that does not, the gaming day's date, every slip type.
"""

import hashlib
import uuid
from dataclasses import dataclass

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.test import Client
from django.urls import URLResolver, get_resolver, reverse

from cage import services
from cage.models import Slip
from cage.slip_types import ENTRY_KINDS
from events import services as event_services
from events.models import Role
from events.permissions import (
    ADMIN,
    ANONYMOUS,
    MATRIX,
    METHODS,
    OUTSIDER,
    SAFE_METHODS,
    STAFF,
    WHO,
    entry_for,
)
from tests.cage.helpers import open_table, stock
from tests.conftest import DAY, PASSWORD, PIN, add_person, make_cast, make_event

pytestmark = pytest.mark.django_db

# A person on the event whose registration is suspended holds no role there: an outsider.
SUSPENDED = "suspended"
COLUMNS = (*WHO, SUSPENDED)


def url_patterns(resolver=None, prefix="", namespace=()):
    """(view name, route) of every URL pattern; an unnamed pattern is named by its route."""
    for pattern in (resolver or get_resolver()).url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from url_patterns(pattern, route, namespace + ((pattern.namespace,) if pattern.namespace else ()))
        else:
            yield ":".join(namespace + (pattern.name or f"<unnamed {route.replace(':', ' ')}>",)), pattern, route


PATTERNS = list(url_patterns())


def test_every_url_pattern_is_declared_in_the_matrix():
    undeclared = [f"{name} ({route})" for name, _pattern, route in PATTERNS if entry_for(name) is None]
    assert not undeclared, "pages missing from events/permissions.py MATRIX:\n" + "\n".join(undeclared)


def test_every_line_of_the_matrix_is_a_page():
    names = {name for name, _pattern, _route in PATTERNS}
    namespaces = {name.rpartition(":")[0] for name in names}
    stale = [
        key for key in MATRIX if key.split("[")[0] not in names and not (key.endswith(":*") and key[:-2] in namespaces)
    ]
    assert not stale, f"lines of the matrix for pages that do not exist: {stale}"


def test_a_page_left_out_of_the_matrix_is_caught(monkeypatch):
    monkeypatch.delitem(MATRIX, "cage:voids")
    assert entry_for("cage:voids") is None
    assert entry_for("cage:voids", {"slug": "x"}) is None


# --- the world the pages are asked about ---------------------------------------------------


@dataclass
class World:
    cast: object
    users: dict  # column → user (None: anonymous)
    involved: Slip  # a fill carried by the runner, waiting for the dealer
    uninvolved: Slip  # a float in: no runner, no dealer


def make_world() -> World:
    cast = make_cast()
    stock(cast)
    open_table(cast)
    involved = services.fill(
        day=cast.day,
        table=cast.bj,
        chips={"5": 10},
        signed=cast.signed(issued_by="chip_cashier", carried_by="runner"),
        allow_pending=True,
    )
    uninvolved = Slip.objects.filter(event=cast.event, slip_type="float_in").get()
    suspended = add_person(cast.event, "sam", Role.GENERAL_CASHIER)
    event_services.registration_change(person=suspended, registration="suspended")
    User = get_user_model()
    users = {
        ANONYMOUS: None,
        OUTSIDER: User.objects.create_user("outsider", password=PASSWORD),
        STAFF: User.objects.create_user("admin", password=PASSWORD, is_staff=True),
        SUSPENDED: suspended.user,
        **{role: getattr(cast, role).user for role in Role.values},
    }
    # The outsider is somebody: the DRIC of another event.
    other = add_person(make_event("other-fair"), "olga", Role.DRIC, login=False)
    other.user = users[OUTSIDER]
    other.save()
    return World(cast, users, involved, uninvolved)


def groups():
    """One test per page (every value of its path parameters inside it), one for the admin site."""
    names = list(dict.fromkeys("admin:*" if name.startswith("admin:") else name for name, _p, _r in PATTERNS))
    return names


def variants(name: str):
    """(case, view name, pattern, path values, which slip) for every pattern of a group: one per
    value worth asking (every slip type; a slip that names the runner and dealer, one that does not)."""
    for view_name, pattern, _route in PATTERNS:
        if view_name != name and not (name == "admin:*" and view_name.startswith("admin:")):
            continue
        keys = set(pattern.pattern.converters) | set(pattern.pattern.regex.groupindex)
        if "slip_type" in keys:
            for kind in ENTRY_KINDS:
                yield f"{view_name}[{kind.type}]", view_name, pattern, {"slip_type": kind.type}, None
        elif "pk" in keys:
            for which in ("involved", "uninvolved"):
                yield f"{view_name}[{which}]", view_name, pattern, {}, which
        else:
            yield view_name, view_name, pattern, {}, None


def fill_kwargs(world: World, pattern, extra: dict, which) -> dict:
    user_type = ContentType.objects.get_for_model(get_user_model())
    values = {
        "slug": world.cast.event.slug,
        "pk": getattr(world, which).pk if which else None,
        "date": DAY.isoformat(),
        "object_id": str(world.users[STAFF].pk),
        "id": str(world.users[STAFF].pk),
        "content_type_id": str(user_type.pk),
        "app_label": "auth",
        "url": "nowhere/",
    }
    keys = list(pattern.pattern.converters) + list(pattern.pattern.regex.groupindex)
    return {key: extra[key] if key in extra else values[key] for key in dict.fromkeys(keys)}


# What a POST carries: a form an allowed user's POST would apply, so that a refusal is a real one.
def payload(world: World, case: str, which) -> dict:
    c = world.cast
    name, _bracket, variant = case.partition("[")
    if name == "cage:slip_new":
        return slip_form(c, variant.rstrip("]"))
    if name == "cage:slip_sign":
        slip = getattr(world, which)
        signer = {"capacity": "received_by", "person": c.dealer.pk, "pin": PIN}
        if which == "uninvolved":
            signer = {"capacity": "witnessed_by", "person": c.dric.pk, "pin": PIN}
        return {**signer, "next": reverse("cage:slip", args=[c.event.slug, slip.pk])}
    forms = {
        "login": {"username": "admin", "password": "not-the-password"},
        "events:my_pin": {"password": PASSWORD, "pin": "8642", "pin_again": "8642"},
        "events:create": {
            "licensee": "Lakeside Agricultural Society",
            "slug": "spring-fair",
            "name": "Spring Fair Casino",
            "licence_number": "F-2027-0001",
            "licensing_authority": "Alcohol and Gaming Commission of Ontario",
            "venue": "Hall A",
            "first_day": "2027-05-01",
            "last_day": "2027-05-02",
            "supplier": "Northern Gaming Supply Ltd.",
            "games": ["blackjack"],
        },
        "events:tables": {"code": "BJ-9", "game": "blackjack"},
        "events:chips": {"value": "100", "colour": "black"},
        "events:people": {"code": "newbie", "name": "New Person", "born_on": "1990-01-01", "registration": "good"},
        "events:role_add": {"person": c.runner2.pk, "role": Role.DEALER},
        "events:registration_change": {"person": c.dealer2.pk, "registration": "suspended"},
        "events:days": {"date": "2026-09-12", "opens_at": "12:00", "closes_at": "23:00"},
        "events:roster": {
            "person": c.dealer2.pk,
            "role": Role.DEALER,
            "starts_at": f"{DAY}T12:00",
            "ends_at": f"{DAY}T18:00",
        },
        "cage:queue_void": {"reason": "written in error", "request_key": uuid.uuid4().hex},
    }
    return forms.get(name, {})


def slip_form(c, slip_type: str) -> dict:
    """A slip form as the cage fills it in; every signer but the logged-in one types their PIN."""
    fields = {
        "float_in": {"cash": "100", "received_by": c.general_cashier, "witnessed_by": c.dric},
        "sale": {"chips_5": "2", "cash": "10", "tender": "cad_cash", "sold_by": c.chip_cashier},
        "fill": {
            "table": c.bj.pk,
            "runner": c.runner.pk,
            "chips_5": "4",
            "issued_by": c.chip_cashier,
            "carried_by": c.runner,
        },
    }.get(slip_type, {})
    data = {"request_key": uuid.uuid4().hex}
    for field, value in fields.items():
        if hasattr(value, "pk"):
            data[f"sign_{field}"], data[f"pin_{field}"] = value.pk, PIN
        else:
            data[field] = value
    return data


# Pages whose payload the first allowed user's POST applies: proof that the payload is real.
APPLIED_BY_FIRST_WRITER = {
    "events:my_pin",
    "events:create",
    "events:tables",
    "events:chips",
    "events:people",
    "events:role_add",
    "events:registration_change",
    "events:days",
    "events:roster",
    "cage:slip_new[float_in]",
    "cage:slip_new[fill]",
    "cage:slip_print[involved]",
    "cage:slip_print[uninvolved]",
    "cage:slip_sign[involved]",
    "cage:queue_approve[involved]",
    "cage:queue_void[involved]",
}

# What "changes nothing" looks at: every row of the setup and ledger tables, and the logins.
SNAPSHOT_APPS = ("events", "cage", "reports")


def snapshot() -> str:
    """A digest of every row of those tables, read with plain SQL: it runs after most requests."""
    digest = hashlib.sha256()
    models = [m for label in SNAPSHOT_APPS for m in apps.get_app_config(label).get_models()]
    with connection.cursor() as cursor:
        for model in [*models, get_user_model()]:
            meta = model._meta
            columns = ", ".join(
                connection.ops.quote_name(f.column) for f in meta.concrete_fields if f.attname != "last_login"
            )
            cursor.execute(f"SELECT {columns} FROM {connection.ops.quote_name(meta.db_table)} ORDER BY 1")
            digest.update(repr((meta.db_table, cursor.fetchall())).encode())
    return digest.hexdigest()


# --- what the matrix says each answer is ---------------------------------------------------

OK, LOGIN, REFUSED, NOT_ALLOWED = "ok", "login", "403", "405"


def expected(entry, method: str, who: str, which) -> set[str]:
    """The answers the matrix allows: one, but for staff in Django's admin site, where their
    model permissions decide the rest (a page, a redirect, 403, 405, or 404 for no such page)."""
    if who == SUSPENDED:
        who = OUTSIDER
    if who == ANONYMOUS and ANONYMOUS not in entry.read | entry.write:
        return {LOGIN}
    if method not in entry.methods:
        return {NOT_ALLOWED}
    if who not in entry.allowed(method):
        return {REFUSED}
    if who in entry.own_slips and which == "uninvolved":
        return {REFUSED}
    if entry.scope == ADMIN and who == STAFF:
        return {OK, REFUSED, NOT_ALLOWED, "404"}
    return {OK}


def outcome(response) -> str:
    status = response.status_code
    location = response.get("Location", "") if 300 <= status < 400 else ""
    if location.startswith((reverse("login"), reverse("admin:login"))) and "next=" in location:
        return LOGIN
    if status == 403:
        return REFUSED
    if status == 405:
        return NOT_ALLOWED
    if 200 <= status < 400:
        return OK
    return str(status)


def logged_in(world, who):
    client = Client(raise_request_exception=False)
    if world.users[who] is not None:
        client.force_login(world.users[who])
    return client


@pytest.mark.parametrize("group", groups())
def test_every_answer_is_the_one_the_matrix_declares(group):
    world = make_world()
    clients = {who: logged_in(world, who) for who in COLUMNS}
    wrong = []
    for case, name, pattern, extra, which in variants(group):
        kwargs = fill_kwargs(world, pattern, extra, which)
        url = pattern_url(name, pattern, kwargs)
        entry = entry_for(name, kwargs)
        assert entry is not None, f"{name} is not declared in events/permissions.py"
        wrong += ask(world, clients, case, url, entry, which)
    assert not wrong, "\n".join(wrong)


def ask(world, clients, case, url, entry, which) -> list[str]:
    """Every method as every user; the refused first, then the allowed, as an allowed POST may
    change what the next request sees."""
    wrong = []
    state = snapshot()
    first_writer_done = False
    for method in METHODS:
        for who in sorted(COLUMNS, key=lambda who: OK in expected(entry, method, who, which)):
            want = expected(entry, method, who, which)
            client = clients[who]
            send = getattr(client, method.lower())
            response = send(url, payload(world, case, which)) if method == "POST" else send(url)
            got = outcome(response)
            if got not in want:
                wrong.append(f"{method} {url} as {who}: {got} ({response.status_code}), the matrix says {want}")
            if got in (LOGIN, NOT_ALLOWED) and want == {got}:
                continue  # answered before any view ran: nothing to compare
            after = snapshot()
            if after != state and (OK not in want or method in SAFE_METHODS):
                wrong.append(f"{method} {url} as {who} ({got}) changed the database")
            if OK in want and method == "POST" and not first_writer_done:
                first_writer_done = True
                if case in APPLIED_BY_FIRST_WRITER and after == state:
                    wrong.append(f"POST {url} as {who}: the payload changed nothing, so its refusals prove nothing")
            state = after
            if world.users[who] is not None and "_auth_user_id" not in client.session:
                clients[who] = logged_in(world, who)  # logged out by the request: log in again
    return wrong


def pattern_url(name, pattern, kwargs) -> str:
    if name.startswith("admin:<unnamed"):
        # The admin's unnamed routes: an object's bare address and the catch-all.
        route = str(pattern.pattern)
        if "object_id" in kwargs:
            return reverse("admin:index") + route.split("<")[0] + kwargs["object_id"] + "/"
        return reverse("admin:index") + kwargs.get("url", "")
    return reverse(name, kwargs=kwargs)


def test_the_navigation_and_the_buttons_read_the_matrix():
    world = make_world()
    c = world.cast
    client = Client()
    client.force_login(world.users[STAFF])
    page = client.get(reverse("cage:home", args=[c.event.slug])).content.decode()
    # The licensee's administrator reads the cage but writes no slip: no slip buttons.
    assert reverse("cage:slip_new", args=[c.event.slug, "fill"]) not in page
    client.force_login(world.users[Role.CHIP_CASHIER])
    page = client.get(reverse("cage:home", args=[c.event.slug])).content.decode()
    assert reverse("cage:slip_new", args=[c.event.slug, "fill"]) in page


def test_a_view_that_disagrees_with_the_matrix_is_refused_loudly(rf):
    from django.core.exceptions import ImproperlyConfigured
    from django.urls import resolve

    from events.access import READ_ALL, event_access

    world = make_world()
    request = rf.get(reverse("events:tables", args=[world.cast.event.slug]))
    request.resolver_match = resolve(request.path)
    request.user = world.users[Role.DRIC]
    with pytest.raises(ImproperlyConfigured, match="events/permissions.py"):
        event_access(request, world.cast.event.slug, read=READ_ALL)
    assert event_access(request, world.cast.event.slug).event == world.cast.event


def test_staff_refused_at_the_cage_are_told_why():
    world = make_world()
    client = Client()
    client.force_login(world.users[STAFF])
    response = client.post(reverse("cage:queue_approve", args=[world.cast.event.slug, world.involved.pk]))
    assert response.status_code == 403
    assert "licensee&#x27;s administrator and hold no role on this event" in response.content.decode()
