"""Every form of the product, sent malformed values through the test client: each answer is the
form with its error shown (or the page's refusal message), never a traceback or a 500, and
nothing in the database changes.

Each form starts from a submission its page accepts (tests.world), and one field at a time gets
a value no person types: out-of-range and exponent numbers, NaN and Infinity, full-width and
other scripts' digits, a leading + or a negative zero, NUL and control characters, bytes that are
not UTF-8, 100,000 characters. A check first proves that the untouched submission is accepted,
so that every refusal below is the malformed value's doing.
"""

import uuid
from urllib.parse import urlencode

import pytest
from django import forms
from django.contrib.messages import get_messages
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils.html import escape
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cage.fields import CashField, CountField
from cage.slip_types import ENTRY_KINDS
from events.models import Role
from events.permissions import STAFF
from tests.conftest import built_once
from tests.world import ACCEPTED_SLIP_FORMS, make_world, payload, slip_form, snapshot

pytestmark = pytest.mark.django_db

FORM, MESSAGE = "form", "message"


def pages(world):
    """(name, url, who posts, the accepted submission, how a refusal shows)."""
    c = world.cast
    slug = c.event.slug
    yield "events:create", reverse("events:create"), STAFF, payload(world, "events:create", None), FORM
    for name in ("events:tables", "events:chips", "events:people", "events:days"):
        yield name, reverse(name, args=[slug]), Role.DRIC, payload(world, name, None), FORM
    url = reverse("events:roster", args=[slug, c.day.date.isoformat()])
    yield "events:roster", url, Role.DRIC, payload(world, "events:roster", None), FORM
    yield "events:my_pin", reverse("events:my_pin"), Role.DRIC, payload(world, "events:my_pin", None), FORM
    for name in ("events:role_add", "events:registration_change"):
        yield name, reverse(name, args=[slug]), Role.DRIC, payload(world, name, None), MESSAGE
    for kind in ENTRY_KINDS:
        who = Role.GENERAL_CASHIER if kind.type == "expense" else Role.DRIC
        url = reverse("cage:slip_new", args=[slug, kind.type])
        yield f"cage:slip_new[{kind.type}]", url, who, slip_form(world, kind.type), FORM
    url = reverse("cage:slip_sign", args=[slug, world.involved.pk])
    yield "cage:slip_sign", url, Role.RUNNER, payload(world, "cage:slip_sign", "involved"), MESSAGE
    url = reverse("cage:queue_void", args=[slug, world.involved.pk])
    yield "cage:queue_void", url, Role.DRIC, payload(world, "cage:queue_void", None), MESSAGE


def page_names():
    # The names alone, without a database: the same list as pages() yields.
    names = ["events:create", "events:tables", "events:chips", "events:people", "events:days", "events:roster"]
    names += ["events:my_pin", "events:role_add", "events:registration_change"]
    names += [f"cage:slip_new[{kind.type}]" for kind in ENTRY_KINDS]
    return names + ["cage:slip_sign", "cage:queue_void"]


# --- what is sent -------------------------------------------------------------------------

# Refused in any field: what no person types.
ANYWHERE = st.one_of(
    st.sampled_from(["\x00", "4\x00", "a\x00b", "\x1b[2J", "\x7f", "x" * 100_000, "9" * 100_000]),
    # Bytes that are not UTF-8: the request's decoding turns them into U+FFFD.
    st.sampled_from([b"\xff\xfe", b"caf\xe9", b"\xc3\x28", b"\xed\xa0\x80", b"4\xff"]),
    st.text(st.characters(codec="utf-8", categories=["Cc"], exclude_characters="\t\n\r"), min_size=1, max_size=3),
)
# Refused in a number, a date, a time, a PIN or a choice from a list.
OTHER_DIGITS = st.characters(categories=["Nd", "No"]).filter(lambda c: not "0" <= c <= "9")
NUMBERLIKE = st.one_of(
    ANYWHERE,
    st.sampled_from(
        ["1e30", "1E3", "NaN", "nan", "Infinity", "-Infinity", "inf", "１２３", "٣", "²", "½", "+5", "-0", "-1"]
        + ["1_000", "0x10", "1 2", "--1", "9" * 40, "4e-2"]
    ),
    st.text(OTHER_DIGITS, min_size=1, max_size=4),
)


def malformed_for(field) -> st.SearchStrategy:
    """What this field must refuse. A text field takes most text, and a checkbox any value."""
    numberlike = (
        forms.DecimalField,
        forms.IntegerField,
        forms.DateField,
        forms.TimeField,
        forms.DateTimeField,
        forms.ChoiceField,
        forms.ModelChoiceField,
        CountField,
        CashField,
    )
    if isinstance(field, numberlike):
        return NUMBERLIKE
    return ANYWHERE


def is_pin(name: str) -> bool:
    return name == "pin" or name.startswith("pin_")


def encoded(data: dict) -> bytes:
    """The form as a browser sends it (x-www-form-urlencoded), bytes values as they are."""
    pairs = []
    for key, value in data.items():
        for item in value if isinstance(value, list) else [value]:
            pairs.append((key, item if isinstance(item, bytes) else str(item)))
    return urlencode(pairs).encode("ascii")


def post(client, url, data):
    return client.post(url, encoded(data), content_type="application/x-www-form-urlencoded")


def the_form(response):
    return response.context["form"] if response.context and "form" in response.context else None


# --- the accepted submissions are accepted ------------------------------------------------


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """One world for the module, built once (tests.conftest.built_once): each test, and each
    starting submission, rolls back what it wrote."""
    with built_once(django_db_blocker):
        yield make_world()


def test_every_starting_submission_is_accepted(world):
    """Each page's submission changes the database when sent as it is (each rolled back after)."""
    for name in page_names():
        refused = _accepted_or_why(world, name)
        assert refused is None, f"{name}: the starting submission is refused: {refused}"


def _accepted_or_why(world, name):
    from django.db import transaction

    with transaction.atomic():
        page = next(p for p in pages(world) if p[0] == name)
        _name, url, who, data, _shows = page
        if name.startswith("cage:slip_new[") and name[len("cage:slip_new[") : -1] not in ACCEPTED_SLIP_FORMS:
            transaction.set_rollback(True)
            return None  # no accepted form in this world (an empty tray does not open)
        client = Client()
        client.force_login(world.users[who])
        before = snapshot()
        response = post(client, url, data)
        why = None
        if snapshot() == before:
            form = the_form(response)
            why = form.errors.as_text() if form is not None else [str(m) for m in get_messages(response.wsgi_request)]
        transaction.set_rollback(True)
        return why


# --- one malformed value at a time --------------------------------------------------------


@pytest.mark.parametrize("name", page_names())
@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_a_malformed_value_is_refused_with_a_message_and_changes_nothing(world, name, data):
    _name, url, who, start, shows = next(p for p in pages(world) if p[0] == name)
    client = Client()
    client.force_login(world.users[who])
    fields = form_fields(client, url, world, name, start)
    field_name = data.draw(st.sampled_from(sorted(fields)), label="field")
    value = data.draw(malformed_for(fields[field_name]), label="value")
    sent = dict(start)
    sent[field_name] = value
    if "request_key" in sent and field_name != "request_key":
        sent["request_key"] = uuid.uuid4().hex
    before = snapshot()
    response = post(client, url, sent)
    assert snapshot() == before, f"{name}: {field_name}={value!r:.60} changed the database"
    if shows == FORM:
        assert response.status_code == 200, f"{name}: {field_name}={value!r:.60} answered {response.status_code}"
        form = the_form(response)
        assert form is not None and form.errors, f"{name}: {field_name}={value!r:.60} shows no error"
        shown = response.content.decode()
        assert any(escape(e) in shown for errors in form.errors.values() for e in errors)
    else:
        assert response.status_code == 302
        levels = [m.level_tag for m in get_messages(response.wsgi_request)]
        assert "error" in levels, f"{name}: {field_name}={value!r:.60} was not refused with a message"


def form_fields(client, url, world, name, start) -> dict:
    """The form's fields, from the page itself where it shows the form, else from its class."""
    from cage.forms import SignForm
    from cage.views import QueueVoidForm
    from events.forms import RegistrationForm, RoleForm

    event = world.cast.event
    built = {
        "events:role_add": lambda: RoleForm(event=event),
        "events:registration_change": lambda: RegistrationForm(event=event),
        "cage:slip_sign": lambda: SignForm(event=event, signer=world.cast.runner, request=RequestFactory().post("/")),
        "cage:queue_void": lambda: QueueVoidForm(),
    }
    form = built[name]() if name in built else the_form(client.get(url))
    fields = dict(form.fields)
    # A PIN field takes digits only, whatever its class.
    return {k: (forms.IntegerField() if is_pin(k) else f) for k, f in fields.items()}
