"""Every page of the product, with every HTTP method, as every kind of user: each answer is the one
events/permissions.py declares, and a request that is refused, or only reads, changes nothing.

The pages are found by walking the URL resolver, so a page added without its line in the matrix
fails here. Path parameters are filled with a real event's objects: its slug, a slip that names
the runner and the dealer and one that does not, the gaming day's date, every slip type.
"""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.test import Client
from django.urls import URLResolver, get_resolver, reverse

from cage.models import FillRequest
from cage.slip_types import ENTRY_KINDS
from events import local_ca
from events.models import Appointment, Role
from events.permissions import (
    ANONYMOUS,
    MATRIX,
    METHODS,
    OUTSIDER,
    SAFE_METHODS,
    STAFF,
    WHO,
    entry_for,
)
from tests.conftest import DAY, built_once
from tests.world import SUSPENDED, World, make_world, payload, snapshot

pytestmark = pytest.mark.django_db

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


def groups():
    """One test per page (every value of its path parameters inside it)."""
    return list(dict.fromkeys(name for name, _p, _r in PATTERNS))


def variants(name: str):
    """(case, view name, pattern, path values, which slip) for every pattern of a group: one per
    value worth asking (every slip type; a slip that names the runner and dealer, one that does not)."""
    for view_name, pattern, _route in PATTERNS:
        if view_name != name:
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
        "book": world.paper_book.book_id,
        "printing": world.paper_book.pk,
        "number": world.paper_book.book.first,
        "signature": world.paper_signature.pk,
        # a person of the event whose login is in use, but by none of the users asking
        # (setup_code_new: staff's new code clears that login's password)
        "code": world.cast.dealer2.code,
        "table": world.cast.wheel.code,  # a wheel: it has a layout and a poster
        "object_id": str(world.users[STAFF].pk),
        "id": str(world.users[STAFF].pk),
        "content_type_id": str(user_type.pk),
        "app_label": "auth",
        "url": "nowhere/",
        # The General Cashier the administrator designated during the day (tests/world.py).
        "person_id": world.cast.event.people.get(code="newcashier").pk,
        "appointment_id": Appointment.objects.filter(person__code="newcashier").first().pk,
        "request_id": FillRequest.objects.get(event=world.cast.event).pk,
        "deposit": world.deposit.pk,
        "bank_slip": world.bank_slip.pk,
        "expense": world.expense.pk,
        "cheque": world.disbursement.pk,
        "purpose": world.disbursement.purpose_id,
    }
    keys = list(pattern.pattern.converters) + list(pattern.pattern.regex.groupindex)
    return {key: extra[key] if key in extra else values[key] for key in dict.fromkeys(keys)}


# Pages whose payload the first allowed user's POST applies: proof that the payload is real.
APPLIED_BY_FIRST_WRITER = {
    "events:my_pin",
    "events:create",
    "events:tables",
    "events:chips",
    "events:people",
    "events:role_add",
    "events:login_give",
    "events:setup_code_new",
    "events:registration_change",
    "events:days",
    "events:roster",
    "cage:slip_new[float_in]",
    "cage:slip_new[fill]",
    "cage:slip_print[involved]",
    "cage:slip_print[uninvolved]",
    "cage:slip_sign[involved]",
    "cage:queue_approve[involved]",
    "cage:queue_batch",
    "cage:queue_void[involved]",
    "reports:trust_account",
    "reports:bank_slip",
    "reports:bank_slip_check",
    "reports:report_due",
    "reports:cheque",
    "reports:purpose",
    "reports:purpose_correct",
    "reports:disbursement",
    "reports:disbursement_correct",
}

# --- what the matrix says each answer is ---------------------------------------------------

OK, LOGIN, REFUSED, NOT_ALLOWED = "ok", "login", "403", "405"


def expected(entry, method: str, who: str, which) -> set[str]:
    """The one answer the matrix allows."""
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
    return {OK}


def outcome(response) -> str:
    status = response.status_code
    location = response.get("Location", "") if 300 <= status < 400 else ""
    if location.startswith(reverse("login")) and "next=" in location:
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


@pytest.fixture(autouse=True)
def certificate_authority(settings, tmp_path):
    """The event's authority exists, as after the first `make serve`: its certificate is a page."""
    settings.TLS_DIR = tmp_path
    local_ca.ensure_authority(tmp_path)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """One world for every page's test, built once (tests.conftest.built_once): what a test's
    requests write is rolled back, and the next test asks the same world."""
    with built_once(django_db_blocker):
        yield make_world()


@pytest.mark.parametrize("group", groups())
def test_every_answer_is_the_one_the_matrix_declares(group, world):
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
    return reverse(name, kwargs=kwargs)


def test_the_navigation_and_the_buttons_read_the_matrix(world):
    c = world.cast
    client = Client()
    client.force_login(world.users[STAFF])
    page = client.get(reverse("cage:home", args=[c.event.slug])).content.decode()
    # The licensee's administrator reads the cage but writes no slip: no slip buttons.
    assert reverse("cage:slip_new", args=[c.event.slug, "fill"]) not in page
    client.force_login(world.users[Role.CHIP_CASHIER])
    page = client.get(reverse("cage:home", args=[c.event.slug])).content.decode()
    assert reverse("cage:slip_new", args=[c.event.slug, "fill"]) in page


def test_a_view_that_disagrees_with_the_matrix_is_refused_loudly(rf, world):
    from django.core.exceptions import ImproperlyConfigured
    from django.urls import resolve

    from events.access import READ_ALL, event_access

    request = rf.get(reverse("events:tables", args=[world.cast.event.slug]))
    request.resolver_match = resolve(request.path)
    request.user = world.users[Role.DRIC]
    with pytest.raises(ImproperlyConfigured, match="events/permissions.py"):
        event_access(request, world.cast.event.slug, read=READ_ALL)
    assert event_access(request, world.cast.event.slug).event == world.cast.event


def test_staff_refused_at_the_cage_are_told_why(world):
    client = Client()
    client.force_login(world.users[STAFF])
    response = client.post(reverse("cage:queue_approve", args=[world.cast.event.slug, world.involved.pk]))
    assert response.status_code == 403
    assert "licensee&#x27;s administrator and hold no role on this event" in response.content.decode()
