"""Event setup services: each happy path and each refusal, with the rule it cites."""

import datetime

import pytest
from django.utils import timezone

from events import services
from events.models import Assignment, Authority, Event, GamingDay, Person, Role, game_name
from tests.conftest import DAY, add_person, make_event
from tests.refusals import refuses

pytestmark = pytest.mark.django_db


def test_an_event_is_created_with_its_authorized_games():
    event = make_event(games=["blackjack", "wheel_of_fortune"])
    assert event.games == ["blackjack", "wheel_of_fortune"] and event.game_names() == ["Blackjack", "Wheel of Fortune"]
    assert event.authority == "agco" and event.licensing_authority == "Alcohol and Gaming Commission of Ontario"
    quebec = make_event("quebec", games=["baccarat", "craps"])
    assert quebec.authority == "racj" and quebec.licensing_authority == "Régie des alcools, des courses et des jeux"


@pytest.mark.parametrize(
    "authority, games, refused",
    [
        ("agco", ["blackjack", "craps"], "craps"),
        ("agco", ["baccarat"], "baccarat"),
        ("racj", ["blackjack"], "blackjack"),
        ("racj", ["baccarat", "wheel_of_fortune"], "wheel_of_fortune"),
    ],
)
def test_a_licence_authorizes_only_games_of_its_authoritys_rules(authority, games, refused):
    with refuses("event.game_not_of_authority", game=game_name(refused), authority=Authority(authority).label):
        make_event(games=games, authority=authority)
    assert not Event.objects.exists()


def test_the_licences_number_of_tables_of_a_game_is_held_to(db):
    event = make_event(tables_licensed={})
    services.tables_licensed_set(event=event, game="blackjack", count=2)
    services.table_create(event=event, code="BJ-1", game="blackjack")
    services.table_create(event=event, code="BJ-2", game="blackjack")
    with refuses("table.licence_full", n=2):
        services.table_create(event=event, code="BJ-3", game="blackjack")
    with refuses("event.tables_licensed_below_tables", have=2):
        services.tables_licensed_set(event=event, game="blackjack", count=1)
    with refuses("event.game_not_licensed"):
        services.tables_licensed_set(event=event, game="craps", count=1)
    services.table_create(event=event, code="WOF-1", game="wheel_of_fortune")  # no number entered: not held
    assert event.tables.count() == 3 and event.tables_licensed == {"blackjack": 2}


def test_an_event_with_an_unknown_game_is_refused():
    with refuses("event.game_unknown", unknown="roulette"):
        make_event(games=["roulette"])


def test_a_second_event_with_the_same_slug_is_refused():
    make_event("fair")
    with refuses("event.slug_taken"):
        make_event("fair")


def test_a_table_is_created_for_an_authorized_game():
    event = make_event()
    table = services.table_create(event=event, code="BJ-1", game="blackjack")
    assert table.state == "closed" and table.game_module.name_en == "Blackjack"


@pytest.mark.parametrize("code", ["BAC 2", " BAC-2", "BAC_2", "BAC/2", "BAC-É", "", "BAC\t2"])
def test_a_table_code_holds_only_letters_digits_and_hyphens(code):
    # "BAC 2" was taken, and its poster file named BAC-2: another table's name.
    event = make_event()
    with refuses("table.code_invalid") as refused:
        services.table_create(event=event, code=code, game="blackjack")
    assert refused.value.rule == "table codes" and refused.value.field == "code"
    assert not event.tables.exists()


@pytest.mark.parametrize("again", ["BJ-1", "bj-1", "Bj-1"])
def test_a_table_code_differing_only_in_case_is_the_same_table_and_refused(again):
    event = make_event()
    services.table_create(event=event, code="BJ-1", game="blackjack")
    with refuses("table.code_taken" if again == "BJ-1" else "table.code_confusable", table=again) as refused:
        services.table_create(event=event, code=again, game="wheel_of_fortune")
    assert refused.value.rule == "each table code used once"
    assert [t.code for t in event.tables.all()] == ["BJ-1"]
    # Another event may use the code, and another code is another table.
    services.table_create(event=make_event("other"), code="bj-1", game="blackjack")
    services.table_create(event=event, code="BJ-2", game="blackjack")


def test_the_database_keeps_table_codes_unique_whatever_the_case():
    from django.db import IntegrityError, transaction

    from events.models import GameTable

    event = make_event()
    GameTable.objects.create(event=event, code="BJ-1", game="blackjack")
    with pytest.raises(IntegrityError), transaction.atomic():
        GameTable.objects.create(event=event, code="bj-1", game="blackjack")


def test_a_table_for_an_unauthorized_game_is_refused_and_nothing_is_created():
    event = make_event(games=["blackjack"])
    with refuses("table.game_not_licensed", game="Baccarat", games="Blackjack") as refused:
        services.table_create(event=event, code="BAC-1", game="baccarat")
    assert refused.value.rule == "T&C 1.5.1"
    assert not event.tables.exists()


def test_a_chip_set_takes_each_value_once():
    event = make_event()
    chip = services.denomination_add(event=event, value="0.50", colour="yellow")
    assert (chip.key, chip.value_cents) == ("0.50", 50)
    assert services.denomination_add(event=event, value="5").key == "5"
    with refuses("chip_set.value_taken"):
        services.denomination_add(event=event, value="5.00")
    with refuses("chip_set.value_not_positive"):
        services.denomination_add(event=event, value="0")
    with refuses("dollars.too_many_decimals"):
        services.denomination_add(event=event, value="0.125")


def test_a_person_under_18_on_the_first_day_is_refused():
    event = make_event(first_day=datetime.date(2026, 9, 11))
    with refuses("person.under_age", age=17) as refused:
        services.person_add(event=event, code="kid", name="Kid", born_on=datetime.date(2008, 9, 12))
    assert refused.value.rule == "T&C 1.5.2"
    assert not Person.objects.exists()


def test_a_person_turning_18_on_the_first_day_may_work():
    event = make_event(first_day=datetime.date(2026, 9, 11))
    person = services.person_add(event=event, code="teen", name="Teen", born_on=datetime.date(2008, 9, 11))
    assert person.age_on(event.first_day) == 18


@pytest.mark.parametrize("status", ["refused", "revoked", "suspended"])
def test_a_person_whose_registration_is_not_good_takes_no_part(status):
    event = make_event()
    with refuses("person.registration_barred"):
        services.person_add(event=event, code="x", name="X", born_on=datetime.date(1980, 1, 1), registration=status)


def test_a_supplier_associated_person_cannot_be_a_designated_person():
    event = make_event()
    person = add_person(event, "sam", None, supplier_associated=True, gaming_assistant_number="GA-1")
    with refuses("role.supplier_associated") as refused:
        services.role_assign(person=person, role=Role.CHIP_CASHIER, by=None)
    assert refused.value.rule == "T&C 2"
    assert not Assignment.objects.exists()


def test_one_person_cannot_hold_two_designated_positions():
    event = make_event()
    person = add_person(event, "ann", Role.DRIC)
    with refuses("role.one_position"):
        services.role_assign(person=person, role=Role.GENERAL_CASHIER, by=None)
    assert person.role_codes() == {"dric"}


@pytest.mark.parametrize("designated", [Role.DRIC, Role.GENERAL_CASHIER, Role.CHIP_CASHIER])
@pytest.mark.parametrize("floor", [Role.RUNNER, Role.DEALER])
def test_a_designated_person_holds_no_floor_role(designated, floor):
    event = make_event()
    person = add_person(event, "ann", designated)
    with refuses("role.designated_then_floor"):
        services.role_assign(person=person, role=floor, by=None)
    worker = add_person(event, "flo", floor)
    with refuses("role.floor_then_designated"):
        services.role_assign(person=worker, role=designated, by=None)
    assert person.role_codes() == {designated} and worker.role_codes() == {floor}


def test_a_supplier_dealer_must_be_a_registered_gaming_assistant():
    event = make_event()
    unregistered = add_person(event, "sid", None, supplier_associated=True)
    with refuses("role.supplier_staff_unregistered"):
        services.role_assign(person=unregistered, role=Role.DEALER, by=None)
    registered = add_person(event, "reg", None, supplier_associated=True, gaming_assistant_number="GA-778")
    assert services.role_assign(person=registered, role=Role.DEALER, by=None).role == "dealer"


def test_a_gaming_day_must_fall_within_the_licensed_dates():
    event = make_event(first_day=DAY, last_day=DAY)
    with refuses("day.outside_licence"):
        services.day_add(event=event, date=DAY + datetime.timedelta(days=1))


def _staffed_event():
    event = make_event()
    people = {role: add_person(event, role, role) for role in ("dric", "general_cashier", "chip_cashier")}
    # A chip and a table: what else the first day waits for before its roster (events.readiness).
    services.denomination_add(event=event, value="5")
    services.table_create(event=event, code="BJ-1", game="blackjack")
    return event, people


def _at(hour, minute=0):
    return timezone.make_aware(datetime.datetime.combine(DAY, datetime.time(hour, minute)))


def test_a_day_opens_when_each_position_is_covered_all_day():
    event, people = _staffed_event()
    day = services.day_add(event=event, date=DAY, opens_at=datetime.time(12), closes_at=datetime.time(23))
    for role, person in people.items():
        services.shift_add(day=day, person=person, role=role, starts_at=_at(11), ends_at=_at(17))
        services.shift_add(day=day, person=person, role=role, starts_at=_at(17), ends_at=_at(23, 30))
    assert services.day_open(day=day).status == GamingDay.Status.OPEN


def test_a_roster_gap_keeps_the_day_closed_and_names_the_gap():
    event, people = _staffed_event()
    day = services.day_add(event=event, date=DAY, opens_at=datetime.time(12), closes_at=datetime.time(23))
    for role, person in people.items():
        services.shift_add(day=day, person=person, role=role, starts_at=_at(12), ends_at=_at(23))
    relief = add_person(event, "relief", Role.CHIP_CASHIER)
    day.shifts.filter(role="chip_cashier").delete()
    services.shift_add(day=day, person=people["chip_cashier"], role="chip_cashier", starts_at=_at(12), ends_at=_at(18))
    services.shift_add(day=day, person=relief, role="chip_cashier", starts_at=_at(18, 30), ends_at=_at(23))
    with refuses("day.roster_gaps") as refused:
        services.day_open(day=day)
    assert refused.value.rule == "T&C 2"
    assert "Chip Cashier: nobody from 2026-09-11 18:00 to 2026-09-11 18:30" in refused.value.arguments["gaps"]
    day.refresh_from_db()
    assert day.status == GamingDay.Status.SETUP


def test_a_day_closing_after_midnight_must_be_covered_past_midnight():
    event, people = _staffed_event()
    day = services.day_add(event=event, date=DAY, opens_at=datetime.time(18), closes_at=datetime.time(1))
    for role, person in people.items():
        services.shift_add(day=day, person=person, role=role, starts_at=_at(18), ends_at=_at(23, 59))
    with refuses("day.roster_gaps") as refused:
        services.day_open(day=day)
    assert "2026-09-11 23:59 to 2026-09-12 01:00" in refused.value.arguments["gaps"]


def test_a_day_without_three_designated_persons_does_not_open():
    event = make_event()
    add_person(event, "ann", Role.DRIC)
    add_person(event, "gus", Role.GENERAL_CASHIER)
    day = services.day_add(event=event, date=DAY)
    with refuses("day.designated_missing", position=Role.CHIP_CASHIER.label):
        services.day_open(day=day)


def test_a_shift_is_only_for_a_role_the_person_holds():
    event, people = _staffed_event()
    day = services.day_add(event=event, date=DAY)
    with refuses("roster.role_not_held"):
        services.shift_add(day=day, person=people["dric"], role="chip_cashier", starts_at=_at(12), ends_at=_at(13))
