"""The demo event: loaded through import_records, a login per role, loading twice changes nothing."""

import io

import pytest
from django.apps import apps
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import Client, RequestFactory
from django.urls import reverse

from cage import services as cage_services
from cage.selectors.handovers import custodians
from events import services
from events.compliance import event_compliance
from events.models import Event, Role
from events.roster import rostered
from reports.figures import event_figures

pytestmark = pytest.mark.django_db
# A login goes through the lockout check, which needs the request (as the login page gives it).
LOGIN_REQUEST = RequestFactory().post("/login/")


def counts():
    return {
        m._meta.label: m.objects.count() for m in apps.get_models() if m._meta.app_label in ("events", "cage", "auth")
    }


def test_the_demo_loads_once_and_a_second_load_changes_nothing():
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    assert "Imported lakeside-fair-2026: 1 day(s), 30 slip(s)." in out.getvalue()
    first = counts()
    again = io.StringIO()
    call_command("load_demo", stdout=again)
    assert "already loaded" in again.getvalue() and counts() == first
    for username in ("admin", "ann", "gus", "cora", "rita", "dana", "audrey"):
        assert f"  {username} " in again.getvalue()


def test_each_role_can_log_in_with_the_printed_password():
    call_command("load_demo", stdout=io.StringIO())
    event = Event.objects.get(slug="lakeside-fair-2026")
    for username, role in (
        ("ann", "dric"),
        ("gus", "general_cashier"),
        ("cora", "chip_cashier"),
        ("rita", "runner"),
        ("dana", "dealer"),
        ("audrey", "auditor"),
    ):
        user = authenticate(LOGIN_REQUEST, username=username, password="demo-pass-2026")
        assert user is not None and role in event.people.get(user=user).role_codes()
    assert authenticate(LOGIN_REQUEST, username="admin", password="demo-pass-2026").is_staff


def test_the_demo_day_reports_as_the_worked_example_and_its_next_day_is_fully_rostered():
    call_command("load_demo", stdout=io.StringIO())
    event = Event.objects.get(slug="lakeside-fair-2026")
    assert event_figures(event)["event_totals"]["net_proceeds"] == "95.00"
    assert all(check.holds for check in event_compliance(event)), [c for c in event_compliance(event) if not c.holds]
    # What the licence asks before a first day, recorded as it would have been (T&C 1.3, 1.4.4, 1.4.6, 2).
    assert services.first_day_refusal(event) is None
    assert event.tables_licensed == {"blackjack": 2, "wheel_of_fortune": 1}
    second = event.days.get(date="2026-09-12")
    assert services.day_open(day=second).status == "open"


def test_the_demo_wheel_has_a_layout_and_a_poster(tmp_path):
    """Its wheel table gets the default layout (a new wheel's), which keeps Wheel of Fortune rules
    2 to 5, so its poster prints."""
    from events.games import wheel_of_fortune

    call_command("load_demo", stdout=io.StringIO())
    wheel = Event.objects.get(slug="lakeside-fair-2026").tables.get(code="WOF-1")
    assert wheel.wheel_layout["segments"] and wheel_of_fortune.check_layout(wheel.wheel_layout) == []
    out = tmp_path / "wof.pdf"
    call_command("poster", "lakeside-fair-2026", "WOF-1", "--lang", "fr", "--out", str(out))
    assert out.read_bytes().startswith(b"%PDF")


def test_the_demo_day_changes_cashiers_and_a_shift_handover_can_be_tried():
    """The second day rosters a second General Cashier and a second Chip Cashier, who take bank
    cash and the chip bank over at 18:00; each position stays covered, and the handover goes
    through on the opened day, by the services and on the form the incoming cashier is offered on."""
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    for username in ("gwen", "cal"):
        assert f"  {username} " in out.getvalue()
    event = Event.objects.get(slug="lakeside-fair-2026")
    second = services.day_open(day=event.days.get(date="2026-09-12"))
    people = {p.code: p for p in event.people.all()}
    on = {role: set(rostered(second, role)) for role in (Role.GENERAL_CASHIER, Role.CHIP_CASHIER)}
    assert on[Role.GENERAL_CASHIER] == {people["gus"].pk, people["gwen"].pk}
    assert on[Role.CHIP_CASHIER] == {people["cora"].pk, people["cal"].pk}
    for code, role in (("gwen", "general_cashier"), ("cal", "chip_cashier")):
        user = authenticate(LOGIN_REQUEST, username=code, password="demo-pass-2026")
        assert user is not None and event.people.get(user=user).role_codes() == {role}

    # Gus logs in and finds Gwen, not Cal, offered to take bank cash over.
    client = Client()
    client.post(reverse("login"), {"username": "gus", "password": "demo-pass-2026"})
    page = client.get(reverse("cage:slip_new", args=[event.slug, "handover"])).content.decode()
    assert f'<option value="{people["gwen"].pk}" data-place="bank_cash">' in page
    assert f'<option value="{people["cal"].pk}" data-place="chip_bank" hidden disabled>' in page

    bank_cash = cage_services.account_get(event, "bank_cash")
    slip = cage_services.handover(
        day=second,
        place="bank_cash",
        cash=cage_services.balance(bank_cash).get(None, 0),
        signed={"handed_over_by": people["gus"], "taken_over_by": people["gwen"]},
    )
    assert slip.details["differences"] == []
    chip_bank = cage_services.account_get(event, "chip_bank")
    # The chip bank's books are by denomination, in cents: counted as chips of each.
    values = {d.key: d.value_cents for d in event.denominations.all()}
    keys = {d.pk: d.key for d in event.denominations.all()}
    held = {keys[pk]: cents for pk, cents in cage_services.balance(chip_bank).items() if pk and cents}
    cage_services.handover(
        day=second,
        place="chip_bank",
        chips={key: cents // values[key] for key, cents in held.items()},
        signed={"handed_over_by": people["cora"], "taken_over_by": people["cal"]},
    )
    assert custodians(second) == {Role.GENERAL_CASHIER: people["gwen"].pk, Role.CHIP_CASHIER: people["cal"].pk}
