"""The licence's own limits: the games of its authority's rules and the number of tables it approves
(T&C 1.3, 1.5.1, 3.3); the registered supplier and what each designated person shows and declares
before the event's first day opens (T&C 1.4.4, 1.4.6, 2, 4.1, 4.2)."""

import datetime
import json
import re

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from cage.importer import ImportFailed, import_bytes
from events import services
from events.models import Person, Role
from tests.conftest import DAY, EXAMPLES, add_person, make_event
from tests.refusals import refuses

pytestmark = pytest.mark.django_db


def designated_event(**declared):
    """An event in setup with its three designated persons, each declared as `declared` says."""
    event = make_event()
    people = {
        role: add_person(event, role, role, login=False, **declared)
        for role in (Role.DRIC, Role.GENERAL_CASHIER, Role.CHIP_CASHIER)
    }
    return event, people, services.day_add(event=event, date=DAY)


def refused_opening(day, code, **arguments):
    """The day does not open, refused with `code`; the refusal, for what it cites."""
    with refuses(code, **arguments) as refused:
        services.day_open(day=day)
    day.refresh_from_db()
    assert day.status == "setup"
    return refused.value


def test_the_first_day_waits_for_the_suppliers_registration_and_each_designated_persons_declarations(db):
    event, people, day = designated_event(identification="", other_activities=None, terms_acknowledged=False)
    event.supplier_registration_number = ""
    event.tables_licensed = {}
    event.save()
    assert refused_opening(day, "day.supplier_unregistered").rule == "T&C 4.1"
    event.supplier_registration_number = "GS-44120"
    event.save()
    refused_opening(day, "day.tables_licensed_missing", game="Blackjack")
    services.tables_licensed_set(event=event, game="blackjack", count=2)
    refused_opening(day, "day.tables_licensed_missing", game="Wheel of Fortune")
    services.tables_licensed_set(event=event, game="wheel_of_fortune", count=1)
    # Every declaration missing at once, of the first designated person by name: the rule cited
    # names each one's section.
    missing = refused_opening(day, "person.declarations_incomplete", name="Chip Cashier")
    assert missing.rule == "T&C 1.4.4, 1.4.6, 2"
    for person in people.values():
        services.person_declarations_set(person=person, identification="Driver's licence")
    assert refused_opening(day, "person.declarations_incomplete", name="Chip Cashier").rule == "T&C 1.4.6, 2"
    for person in people.values():
        services.person_declarations_set(person=person, terms_acknowledged=True)
    assert refused_opening(day, "person.declarations_incomplete").rule == "T&C 2"
    for person in people.values():
        services.person_declarations_set(person=person, other_activities=True)
    # Declared: what the day waits for next is the rest of its checklist (tests/events/test_checklist.py).
    refused_opening(day, "day.logins_missing")
    assert AuditEntry.objects.filter(action="person_declared").count() == 9


def test_a_records_file_from_paper_opens_its_days_as_its_format_carries_them(db):
    data = json.loads((EXAMPLES / "lakeside-one-day.json").read_text())
    event = import_bytes(json.dumps(data).encode())
    assert event.days.get().status == "closed" and event.supplier_registration_number == ""


@pytest.mark.parametrize(
    "declared, refusal",
    [
        ({"supplier_related": True}, "role.supplier_related"),
        ({"supplier_associated": True}, "role.supplier_associated"),
        ({"other_activities": False}, "role.no_other_activities"),
    ],
)
def test_a_designated_person_is_neither_related_to_the_supplier_nor_only_in_its_lotteries(db, declared, refusal):
    event = make_event()
    person = add_person(event, "pat", None, login=False, **declared)
    with refuses(refusal):
        services.role_assign(person=person, role=Role.GENERAL_CASHIER, by=None)
    assert person.role_codes() == set()


def test_a_declaration_a_held_role_forbids_is_refused_and_changes_nothing(db):
    event = make_event()
    person = add_person(event, "pat", Role.CHIP_CASHIER, login=False)
    with refuses("role.supplier_related"):
        services.person_declarations_set(person=person, supplier_related=True)
    person.refresh_from_db()
    assert person.supplier_related is False


@pytest.mark.parametrize("role", [Role.DEALER, Role.RUNNER])
def test_everyone_the_supplier_employs_on_the_floor_is_a_registered_gaming_assistant(db, role):
    event = make_event()
    worker = add_person(event, "sam", None, login=False, supplier_associated=True)
    with refuses("role.supplier_staff_unregistered"):
        services.role_assign(person=worker, role=role, by=None)
    worker = services.person_declarations_set(person=worker, gaming_assistant_number="GA-1203")
    services.role_assign(person=worker, role=role, by=None)
    assert worker.role_codes() == {role}


def test_the_dric_records_declarations_on_the_people_page(client, db):
    event, people, day = designated_event(identification="", terms_acknowledged=False)
    dric = people[Role.DRIC]
    from tests.conftest import give_login

    give_login(dric, "dric-login")
    client.login(username="dric-login", password="correct-horse-42")
    page = client.get(reverse("events:people", args=[event.slug])).content.decode()
    cc = people[Role.CHIP_CASHIER]
    url = reverse("events:person_declarations", args=[event.slug, cc.code])
    assert (
        f'<a href="{url}" class="declare">Record…</a> '
        '<span class="fails">incomplete: identification, terms and conditions</span>' in page
    )
    days = client.get(reverse("events:days", args=[event.slug])).content.decode()
    assert "identification not recorded" in days
    response = client.post(
        url,
        {"identification": "Ontario photo card", "other_activities": "yes", "terms_acknowledged": "on"},
        follow=True,
    )
    assert "Chip Cashier: declarations recorded." in response.content.decode()
    assert f'<a href="{url}" class="declare">Record…</a></td>' in response.content.decode()
    cc = Person.objects.get(pk=cc.pk)
    assert cc.identification == "Ontario photo card" and cc.terms_acknowledged_at is not None
    # The form shows what is recorded: sent back as shown, it changes nothing.
    form = client.get(url).content.decode()
    assert 'value="Ontario photo card"' in form and '<option value="yes" selected>' in form
    terms = re.search(r'<input type="checkbox" name="terms_acknowledged"[^>]*>', form).group()
    assert " disabled " in terms and " checked>" in terms and "Recorded at " in form
    client.post(url, {"identification": "Ontario photo card", "other_activities": "yes"})
    assert Person.objects.get(pk=cc.pk).terms_acknowledged_at == cc.terms_acknowledged_at
    assert AuditEntry.objects.filter(action="person_declared", about_id=cc.pk).count() == 1
    response = client.post(url, {"supplier_related": "on", "other_activities": "yes"}, follow=True)
    assert "related to the registered supplier" in response.content.decode()
    assert Person.objects.get(pk=cc.pk).supplier_related is False


def test_the_games_page_says_who_licensed_the_event_and_takes_the_licences_tables(client, db, admin_user):
    event = make_event(tables_licensed={})
    client.force_login(admin_user)
    page = client.get(reverse("events:games", args=[event.slug])).content.decode()
    assert "Licensed by Alcohol and Gaming Commission of Ontario" in page
    assert "The number of tables the licence allows is not entered yet." in page
    response = client.post(reverse("events:games", args=[event.slug]), {"blackjack-tables-count": "1"}, follow=True)
    assert "Tables of Blackjack the licence allows: 1." in response.content.decode()
    client.post(reverse("events:tables", args=[event.slug]), {"code": "BJ-1", "game": "blackjack"})
    page = client.post(reverse("events:tables", args=[event.slug]), {"code": "BJ-2", "game": "blackjack"}).content
    assert "The licence allows 1 table of Blackjack, and the event has it already" in page.decode()
    assert list(event.tables.values_list("code", flat=True)) == ["BJ-1"]


def test_a_records_file_says_its_authority_and_the_licences_tables(db):
    data = json.loads((EXAMPLES / "lakeside-one-day.json").read_text())
    data["event"].update(slug="quebec-file", authority="racj")
    with pytest.raises(ImportFailed) as failed:
        import_bytes(json.dumps(data).encode())
    assert any(
        p.startswith("event.games: Blackjack is not played under the rules of play a licence of Régie")
        for p in failed.value.problems
    ), failed.value.problems
    data["event"].update(slug="two-tables", authority="agco", tables_licensed={"blackjack": 1})
    with pytest.raises(ImportFailed) as failed:
        import_bytes(json.dumps(data).encode())
    assert any("The licence allows 1 table of Blackjack" in p for p in failed.value.problems), failed.value.problems
    data["event"].update(slug="enough-tables", tables_licensed={"blackjack": 2, "wheel_of_fortune": 1})
    event = import_bytes(json.dumps(data).encode())
    assert event.tables_licensed == {"blackjack": 2, "wheel_of_fortune": 1}
    assert datetime.date(2026, 9, 11) == event.first_day
