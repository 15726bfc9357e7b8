"""No one alone, not even the administrator (T&C 2): the administrator signs nothing, a designated
person holds no floor role and signs only while on duty, money leaves the cage for the trust account
and is paid out of it on two signatures, and a role or a login given during the day stands out until
a second designated person acknowledges it. Each refusal names its rule and changes nothing."""

import datetime
import json
import re
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from cage import services
from cage.importer import ImportFailed, import_bytes
from cage.models import Account, Slip
from events import services as event_services
from events.models import Appointment, Assignment, LoginSetup, Role, SigningPin
from reports.figures import event_figures
from reports.services import report_sign
from tests.cage.helpers import COUNT_SIGNED, stock
from tests.cage.test_views import form, login, new_slip, signed_by
from tests.conftest import EXAMPLES, PASSWORD, add_person
from tests.refusals import refuses

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]


def example(slug):
    data = json.loads((EXAMPLES / "lakeside-one-day.json").read_text())
    data["event"]["slug"] = slug
    return data


def problems(data) -> str:
    with pytest.raises(ImportFailed) as failed:
        import_bytes(json.dumps(data).encode())
    return "\n".join(failed.value.problems)


def held(cast, kind):
    return services.balance(services.account_get(cast.event, kind))


# --- the administrator signs nothing ----------------------------------------------------------------


def test_a_staff_login_is_never_a_person_of_an_event(cast, admin_user):
    with refuses("role.administrator_login"):
        event_services.person_add(
            event=cast.event, code="boss", name="Boss", born_on=datetime.date(1970, 1, 1), user=admin_user
        )
    walkin = add_person(cast.event, "walkin", None, login=False)
    with refuses("role.administrator_login"):
        event_services.login_link(person=walkin, username="admin", by=admin_user)
    walkin.refresh_from_db()
    assert walkin.user_id is None and not cast.event.people.filter(code="boss").exists()


def test_a_login_made_staff_later_signs_nothing_holds_no_role_and_certifies_nothing(cast):
    stock(cast)
    get_user_model().objects.filter(pk=cast.chip_cashier.user_id).update(is_staff=True)
    cast.chip_cashier.user.refresh_from_db()
    with refuses("role.administrator_login"):
        services.sale(
            day=cast.day, chips={"5": 2}, cash=1000, signed=cast.signed(sold_by="chip_cashier"), allow_pending=True
        )
    with refuses("role.administrator_login"):
        event_services.role_assign(person=cast.chip_cashier, role=Role.AUDITOR, by=None)
    with refuses("role.administrator_login"):
        report_sign(event=cast.event, person=cast.chip_cashier)
    assert not Slip.objects.filter(slip_type="sale").exists()


def test_the_administrator_cannot_link_their_own_login_on_the_people_page(client, cast, admin_user):
    add_person(cast.event, "walkin", Role.RUNNER, login=False)
    client.force_login(admin_user)
    page = client.post(
        reverse("events:login_give", args=[cast.event.slug]),
        {"person": cast.event.people.get(code="walkin").pk, "username": "admin", "link_existing": "on"},
        follow=True,
    ).content.decode()
    assert "the administrator sets events up and signs nothing" in page
    assert cast.event.people.get(code="walkin").user_id is None


# --- one hat ----------------------------------------------------------------------------------------------


def test_a_records_file_person_with_two_hats_is_refused(db):
    data = example("two-hats")
    data["people"][0]["roles"] = ["dric", "dealer"]
    assert "a designated person holds no floor role" in problems(data)
    assert "T&C 2, 2.5, 2.6" in problems(data)


def test_a_designated_person_who_deals_is_not_rostered_as_a_dealer_and_takes_no_tips(cast):
    # An event set up before the rule: the DRIC also holds the dealer's role.
    Assignment.objects.create(person=cast.dric, role=Role.DEALER)
    start = timezone.make_aware(datetime.datetime.combine(cast.day.date, datetime.time(12)))
    with refuses("role.designated_then_floor"):
        event_services.shift_add(
            day=cast.day,
            person=cast.dric,
            role=Role.DEALER,
            starts_at=start,
            ends_at=start + datetime.timedelta(hours=4),
        )
    with refuses("tip_payout.designated_person", name="Dric"):
        services.tip_payout(
            day=cast.day,
            hours=[(cast.dric, Decimal("4"))],
            signed=cast.signed(paid_by="general_cashier", verified_by="chip_cashier", authorized_by="dric"),
            records_file=True,
        )


# --- money out of the cage and out of the trust account takes two ------------------------------------


def test_a_deposit_moves_only_once_the_dric_has_signed_too(cast):
    stock(cast, cash=50_000)
    deposit = services.deposit(
        day=cast.day, cash=20_000, signed=cast.signed(deposited_by="general_cashier"), allow_pending=True
    )
    assert not deposit.postings.exists() and held(cast, Account.Kind.BANK_CASH) == {None: 50_000}
    services.approve(slip=deposit, person=cast.dric)
    assert held(cast, Account.Kind.BANK_CASH) == {None: 30_000}
    with refuses("signing.missing"):
        services.deposit(day=cast.day, cash=1_000, signed=cast.signed(deposited_by="general_cashier"))


def test_an_expense_is_prepared_by_the_general_cashier_and_approved_by_the_dric(cast):
    expense = services.expense(
        day=cast.day,
        category="licence_fee",
        description="Licence fee",
        cash=2_500,
        invoice="LIC-1",
        signed=cast.signed(prepared_by="general_cashier"),
        allow_pending=True,
    )
    assert not expense.postings.exists()
    assert event_figures(cast.event)["event_totals"]["expenses"] == "0.00"  # nothing paid yet
    with refuses("signing.role_not_held"):
        services.sign(slip=expense, capacity="approved_by", person=cast.chip_cashier)
    services.approve(slip=expense, person=cast.dric)
    assert held(cast, Account.Kind.EXPENSES) == {None: 2_500}
    assert event_figures(cast.event)["event_totals"]["expenses"] == "25.00"
    # The DRIC alone at the window: it waits for the General Cashier's preparation.
    alone = services.expense(
        day=cast.day,
        category="bank_charges",
        description="Bank charges",
        cash=500,
        invoice="",
        signed=cast.signed(approved_by="dric"),
        allow_pending=True,
    )
    assert not alone.postings.exists()


def test_a_records_files_expense_stands_on_the_formats_signature_and_may_add_the_preparer(db):
    event = import_bytes(json.dumps(example("expenses-as-the-format-says")).encode())
    assert event_figures(event)["event_totals"]["expenses"] == "85.00"
    assert all(s.details.get("waived") == ["prepared_by"] for s in event.slips.filter(slip_type="expense"))
    data = example("expenses-prepared")
    for record in data["days"][0]["records"]:
        if record["type"] == "expense":
            record["signed"]["prepared_by"] = "gus"
    event = import_bytes(json.dumps(data).encode())
    assert {s.signatures.count() for s in event.slips.filter(slip_type="expense")} == {2}
    data = example("expenses-wrong-preparer")
    next(r for r in data["days"][0]["records"] if r["type"] == "expense")["signed"]["prepared_by"] = "cora"
    assert "Prepared by must be signed by the General Cashier; Cora Singh does not hold that role" in problems(data)


def test_the_general_cashier_records_a_deposit_that_waits_for_the_dric(client, cast):
    stock(cast, cash=50_000)
    login(client, cast, "general_cashier")
    response = client.post(
        new_slip(cast.event.slug, "deposit"),
        form(cash="200", **signed_by(cast, deposited_by="general_cashier")),
        follow=True,
    )
    assert "Deposit 1 recorded. Still to sign: “witnessed by” (DRIC)." in response.content.decode()
    assert held(cast, Account.Kind.BANK_CASH) == {None: 50_000}
    login(client, cast, "dric")
    deposit = Slip.objects.get(slip_type="deposit")
    client.post(reverse("cage:queue_approve", args=[cast.event.slug, deposit.pk]))
    assert held(cast, Account.Kind.BANK_CASH) == {None: 30_000}


# --- on duty --------------------------------------------------------------------------------------------


def on_roster(cast, persona, role, start, hours):
    begins = timezone.make_aware(datetime.datetime.combine(cast.day.date, datetime.time(start)))
    event_services.shift_add(
        day=cast.day,
        person=getattr(cast, persona),
        role=role,
        starts_at=begins,
        ends_at=begins + datetime.timedelta(hours=hours),
    )
    return begins


def test_a_designated_person_signs_only_while_on_duty(cast):
    begins = on_roster(cast, "chip_cashier", Role.CHIP_CASHIER, 12, 6)
    at = begins + datetime.timedelta(hours=7)  # 19:00: her shift ended at 18:00
    with refuses("signing.off_duty"):
        services.chips_received(
            day=cast.day, chips={"5": 10}, signed=cast.signed(received_by="chip_cashier", witnessed_by="dric"), at=at
        )
    services.chips_received(
        day=cast.day,
        chips={"5": 10},
        signed=cast.signed(received_by="chip_cashier", witnessed_by="dric"),
        at=begins + datetime.timedelta(hours=1),
    )
    # A second Chip Cashier the roster does not list signs nothing as Chip Cashier that day.
    relief = add_person(cast.event, "relief", Role.CHIP_CASHIER)
    with refuses("signing.not_on_roster"):
        services.chips_received(
            day=cast.day,
            chips={"5": 10},
            signed={"received_by": relief, "witnessed_by": cast.dric},
            at=begins + datetime.timedelta(hours=2),
        )
    assert Slip.objects.filter(slip_type="chips_received").count() == 1


def test_a_records_files_signature_off_duty_is_refused(db):
    data = example("off-duty")
    day = data["days"][0]
    day["shifts"] = [
        {"person": "ann", "role": "dric", "starts_at": "2026-09-11T10:00", "ends_at": "2026-09-12T01:00"},
        {"person": "gus", "role": "general_cashier", "starts_at": "2026-09-11T10:00", "ends_at": "2026-09-11T20:00"},
        {"person": "cora", "role": "chip_cashier", "starts_at": "2026-09-11T10:00", "ends_at": "2026-09-12T01:00"},
    ]
    found = problems(data)
    assert "(2026-09-11, deposit): Gus Tremblay is not on duty as General Cashier at 23:40" in found


# --- four eyes on logins, and roles given during the day ------------------------------------------------


def test_a_designated_persons_new_login_works_once_a_second_designated_person_confirms_it(cast, admin_user):
    newcomer = add_person(cast.event, "nadia", None, login=False)
    event_services.role_assign(person=newcomer, role=Role.GENERAL_CASHIER, by=admin_user)
    setup = event_services.login_create(person=newcomer, username="nadia", by=admin_user)
    # The login is flagged once it can sign, so nobody acknowledges it before it has.
    assert not Appointment.objects.filter(person=newcomer, given="login").exists()
    with refuses("setup_code.unconfirmed"):
        event_services.login_setup_complete(
            request=None, username="nadia", code=setup.code, password=PASSWORD, pin="60917"
        )
    with refuses("designation.own_confirmation"):
        event_services.login_confirm(person=newcomer, by=newcomer)
    with refuses("designation.not_designated"):
        event_services.login_confirm(person=newcomer, by=cast.runner)
    event_services.login_confirm(person=newcomer, by=cast.chip_cashier)
    event_services.login_setup_complete(request=None, username="nadia", code=setup.code, password=PASSWORD, pin="60917")
    # Given during the open day: flagged with what she signs, until a second designated person acknowledges.
    flagged = Appointment.objects.filter(person=newcomer, acknowledged_by=None)
    assert {(a.given, a.role) for a in flagged} == {("role", "general_cashier"), ("login", "")}
    assert any("Nadia was given" in p for p in services.close_problems(cast.day))
    with refuses("designation.own_confirmation"):
        event_services.appointment_acknowledge(appointment=flagged.first(), by=newcomer)
    for appointment in flagged:
        event_services.appointment_acknowledge(appointment=appointment, by=cast.dric)
    assert not any("Nadia was given" in p for p in services.close_problems(cast.day))


def test_a_designated_position_given_once_opened_waits_for_the_persons_declarations(cast, admin_user):
    newcomer = add_person(cast.event, "nadia", None, login=False, identification="", terms_acknowledged=False)
    # Every declaration missing at once: the rule cited names each one's section.
    with refuses("person.declarations_incomplete") as refused:
        event_services.role_assign(person=newcomer, role=Role.GENERAL_CASHIER, by=admin_user)
    assert refused.value.rule == "T&C 1.4.4, 1.4.6" and refused.value.arguments["name"] == "Nadia"
    newcomer = event_services.person_declarations_set(person=newcomer, identification="Health card")
    with refuses("person.declarations_incomplete") as refused:
        event_services.role_assign(person=newcomer, role=Role.GENERAL_CASHIER, by=admin_user)
    assert refused.value.rule == "T&C 1.4.6"
    assert not newcomer.role_codes()
    newcomer = event_services.person_declarations_set(person=newcomer, terms_acknowledged=True)
    event_services.role_assign(person=newcomer, role=Role.GENERAL_CASHIER, by=admin_user)
    assert newcomer.role_codes() == {"general_cashier"}


def test_before_the_first_day_the_administrator_sets_logins_up_alone(admin_user):
    from tests.conftest import make_cast

    cast = make_cast("setup-fair", open_day=False)  # its own event, beside the module's cast
    newcomer = add_person(cast.event, "nadia", Role.GENERAL_CASHIER, login=False)
    setup = event_services.login_create(person=newcomer, username="nadia", by=admin_user)
    event_services.login_setup_complete(request=None, username="nadia", code=setup.code, password=PASSWORD, pin="60917")
    assert not Appointment.objects.exists()


def test_once_opened_a_designated_person_is_never_linked_to_an_existing_login(cast, admin_user):
    other = get_user_model().objects.create_user("puppet", password=PASSWORD)
    newcomer = add_person(cast.event, "nadia", None, login=False)
    event_services.role_assign(person=newcomer, role=Role.CHIP_CASHIER, by=admin_user)
    with refuses("login.link_designated_after_opening"):
        event_services.login_link(person=newcomer, username=other.username, by=admin_user)


def test_the_queue_lists_logins_to_confirm_and_roles_to_acknowledge(client, cast, admin_user):
    newcomer = add_person(cast.event, "nadia", None, login=False)
    event_services.role_assign(person=newcomer, role=Role.GENERAL_CASHIER, by=admin_user)
    event_services.login_create(person=newcomer, username="nadia", by=admin_user)
    login(client, cast, "chip_cashier")
    queue = client.get(reverse("cage:queue", args=[cast.event.slug])).content.decode()
    assert 'id="logins-to-confirm"' in queue and 'id="given"' in queue and "the role of General Cashier" in queue
    page = client.post(reverse("cage:login_confirm", args=[cast.event.slug, newcomer.pk]), follow=True)
    assert "Nadia&#x27;s setup code is confirmed" in page.content.decode()
    for appointment in Appointment.objects.filter(person=newcomer):
        client.post(reverse("cage:appointment_acknowledge", args=[cast.event.slug, appointment.pk]))
    assert not Appointment.objects.filter(acknowledged_by=None).exists()
    login(client, cast, "runner")
    appointment = Appointment.objects.first()
    url = reverse("cage:appointment_acknowledge", args=[cast.event.slug, appointment.pk])
    assert client.post(url).status_code == 403


def test_the_close_waits_for_the_acknowledgement(cast, admin_user):
    stock(cast, chips={"1": 10}, cash=1000)
    newcomer = add_person(cast.event, "dean", None)
    event_services.role_assign(person=newcomer, role=Role.DEALER, by=admin_user)
    for account, figures in (("bank_cash", {"cash": 1000}), ("chip_bank", {"chips": {"1": 10}})):
        services.count(
            day=cast.day,
            account=services.account_get(cast.event, account),
            signed=cast.signed(**COUNT_SIGNED),
            **figures,
        )
    close = cast.signed(prepared_by="general_cashier", verified_by="chip_cashier", approved_by="dric")
    with refuses("day.cannot_close") as refused:
        services.close_day(day=cast.day, signed=close)
    assert "Dean was given the role of Dealer during the day" in refused.value.arguments["problems"]
    for appointment in Appointment.objects.filter(person=newcomer):  # the role, and the login add_person gave
        event_services.appointment_acknowledge(appointment=appointment, by=cast.general_cashier)
    services.close_day(day=cast.day, signed=close)


# --- the same refusals on the pages -----------------------------------------------------------------


def test_the_people_page_refuses_a_floor_role_to_a_designated_person(client, cast):
    login(client, cast, "dric")
    page = client.post(
        reverse("events:role_add", args=[cast.event.slug]),
        {"person": cast.general_cashier.pk, "role": Role.DEALER},
        follow=True,
    ).content.decode()
    assert "a designated person holds no floor role (dealer, runner) in the same event" in page
    assert cast.general_cashier.role_codes() == {Role.GENERAL_CASHIER}


def test_the_slip_form_refuses_a_designated_signer_off_duty(client, cast):
    # On duty until an hour ago (a shift of today's date: the window signs now).
    now = timezone.localtime()
    cast.day.date = now.date()
    type(cast.day).objects.filter(pk=cast.day.pk).update(date=now.date())
    event_services.shift_add(
        day=cast.day,
        person=cast.chip_cashier,
        role=Role.CHIP_CASHIER,
        starts_at=now - datetime.timedelta(hours=3),
        ends_at=now - datetime.timedelta(hours=1),
    )
    login(client, cast, "chip_cashier")
    page = client.post(
        new_slip(cast.event.slug, "chips_received"), form(chips_5="10", **signed_by(cast, received_by="chip_cashier"))
    ).content.decode()
    assert "Chip Cashier is not on duty as Chip Cashier at" in page and "(T&amp;C 2)" in page
    assert not Slip.objects.filter(slip_type="chips_received").exists()


def test_the_new_event_form_refuses_games_of_another_authoritys_rules(client, admin_user):
    client.force_login(admin_user)
    data = {
        "licensee": "Club",
        "slug": "mixed",
        "name": "Mixed",
        "licence_number": "F-9",
        "authority": "agco",
        "venue": "Hall",
        "first_day": "2026-10-01",
        "last_day": "2026-10-02",
        "supplier": "Supplier",
        "games": ["blackjack", "baccarat"],
    }
    page = client.post(reverse("events:create"), data).content.decode()
    assert "Baccarat is not played under the rules of play a licence of Alcohol and Gaming Commission" in page
    data.update(authority="racj", games=["baccarat", "craps"])
    response = client.post(reverse("events:create"), data)
    assert response.status_code == 302
    from events.models import Event

    assert Event.objects.get(slug="mixed").licensing_authority == "Régie des alcools, des courses et des jeux"


def test_the_cage_page_points_at_what_waits_for_a_second_designated_person(client, cast, admin_user):
    newcomer = add_person(cast.event, "nadia", None, login=False)
    event_services.role_assign(person=newcomer, role=Role.GENERAL_CASHIER, by=admin_user)
    event_services.login_create(person=newcomer, username="nadia", by=admin_user)
    login(client, cast, "chip_cashier")
    home = client.get(reverse("cage:home", args=[cast.event.slug])).content.decode()
    queue_url = reverse("cage:queue", args=[cast.event.slug])
    assert (
        f'2 logins or roles wait for a second designated person: see <a href="{queue_url}">the DRIC\'s queue</a>'
        in home
    )
    queue = client.get(queue_url).content.decode()
    assert "Every slip is signed; what waits is above." in queue and "Nothing waits" not in queue
    # A code that has expired waits for no one: it is neither counted nor listed.
    setup = LoginSetup.objects.get(person=newcomer)
    made = setup.expires_at
    LoginSetup.objects.filter(pk=setup.pk).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    home = client.get(reverse("cage:home", args=[cast.event.slug])).content.decode()
    assert "1 login or role waits for a second designated person" in home
    assert 'id="logins-to-confirm"' not in client.get(queue_url).content.decode()
    LoginSetup.objects.filter(pk=setup.pk).update(expires_at=made)
    client.post(reverse("cage:login_confirm", args=[cast.event.slug, newcomer.pk]))
    home = client.get(reverse("cage:home", args=[cast.event.slug])).content.decode()
    assert "1 login or role waits for a second designated person" in home
    Appointment.objects.update(acknowledged_by=cast.dric, acknowledged_at=timezone.now())
    home = client.get(reverse("cage:home", args=[cast.event.slug])).content.decode()
    assert 'id="four-eyes-waiting"' not in home
    assert "Nothing waits: every slip is signed." in client.get(queue_url).content.decode()


def test_making_someone_a_designated_person_on_the_page_tells_the_administrator_their_login_was_cleared(
    client, cast, admin_user
):
    newcomer = add_person(cast.event, "nadia", None)  # a login set up before she was designated
    client.force_login(admin_user)
    page = client.post(
        reverse("events:role_add", args=[cast.event.slug]),
        {"person": newcomer.pk, "role": "general_cashier"},
        follow=True,
    ).content.decode()
    assert "Role assigned." in page
    assert "Nadia&#x27;s login was cleared: the administrator gives them a new setup code" in page
    newcomer.user.refresh_from_db()
    assert not newcomer.user.has_usable_password()
    # No role is chosen for the administrator: the form starts blank.
    people = client.get(reverse("events:people", args=[cast.event.slug])).content.decode()
    assert '<option value="" selected>Choose a role</option>' in people


def test_the_administrator_has_no_signing_pin(client, cast, admin_user):
    client.force_login(admin_user)
    page = client.get(reverse("events:my_pin")).content.decode()
    assert 'id="pin-administrator"' in page and 'id="pin-form"' not in page and 'id="my-pin-link"' not in page
    client.post(reverse("events:my_pin"), {"password": PASSWORD, "pin": "60917", "pin_again": "60917"})
    assert not SigningPin.objects.filter(user=admin_user).exists()
    login(client, cast, "runner")
    page = client.get(reverse("events:my_pin")).content.decode()
    assert 'id="my-pin-link"' in page and "After 5 wrong PINs in a row at a terminal" in page
    login(client, cast, "auditor")
    people = client.get(reverse("events:people", args=[cast.event.slug])).content.decode()
    assert 'id="people"' in people and 'class="declare"' not in people
    url = reverse("events:person_declarations", args=[cast.event.slug, cast.dric.code])
    assert client.get(url).status_code == 403


def test_a_person_refused_on_the_people_page_is_said_at_the_top_with_everything_missing(client, cast, admin_user):
    client.force_login(admin_user)
    page = client.post(
        reverse("events:people", args=[cast.event.slug]),
        {"code": "nadia", "name": "Nadia Roy", "born_on": "1990-05-05", "registration": "good", "role": "chip_cashier"},
    ).content.decode()
    assert '<p class="fails" role="alert" id="person-refused"><a href="#person-form">' in page
    assert page.index('id="person-refused"') < page.index('id="people"')  # above the table, where it is seen
    assert (
        "Nadia Roy&#x27;s declarations are incomplete: identification not recorded, the terms and conditions not "
        "recorded as brought to their attention, no other activities in the organization beyond its lotteries "
        "declared" in page
    )
    assert not cast.event.people.filter(code="nadia").exists()


def test_the_queue_shows_the_latest_slips_of_a_login_given_during_the_day_and_the_register_every_one(
    client, cast, admin_user
):
    # A login given at noon to a cashier who then signs many slips: the queue stays the same size,
    # its row counts them all and links to the register, which lists every one.
    from cage.selectors.four_eyes import SLIPS_SHOWN

    stock(cast)
    setup = event_services.login_setup_reissue(person=cast.chip_cashier, by=admin_user)
    event_services.login_confirm(person=cast.chip_cashier, by=cast.dric)
    event_services.login_setup_complete(
        request=None, username=cast.chip_cashier.user.username, code=setup.code, password=PASSWORD, pin="2468"
    )
    count = SLIPS_SHOWN + 2
    sales = [
        services.sale(
            day=cast.day, chips={"1": n}, cash=100 * n, signed=cast.signed(sold_by="chip_cashier"), allow_pending=True
        )
        for n in range(1, count + 1)
    ]
    login(client, cast, "dric")
    queue = client.get(reverse("cage:queue", args=[cast.event.slug])).content.decode()
    given = queue[queue.index('id="given"') : queue.index("</table>", queue.index('id="given"'))]
    register = f"{reverse('cage:register', args=[cast.event.slug])}?day={cast.day.pk}&amp;person={cast.chip_cashier.pk}"
    signed = Slip.objects.filter(day=cast.day, signatures__person=cast.chip_cashier).count()
    assert signed == count + 1  # the sales, and the stock's chips received
    assert f'<a href="{register}">{signed} slips in all</a>; the latest {SLIPS_SHOWN}:' in given
    shown = [s.number for s in sales[-SLIPS_SHOWN:]]
    assert all(f">{number}</a>" in given for number in shown)
    assert not any(f">{s.number}</a>" in given for s in sales[: count - SLIPS_SHOWN])
    # When it was given, on one line at a tablet's width: the date never breaks at its hyphens.
    assert re.search(r'<td><span class="unbroken">\d{4}-\d\d-\d\d [^<]+</span><br>', given)
    listed = client.get(register.replace("&amp;", "&")).content.decode()
    assert all(s.number in listed for s in sales)
    # The close says how many, not how many are shown.
    assert f"Chip Cashier was given a login during the day and signed {signed} slips" in " ".join(
        services.close_problems(cast.day)
    )
    # In French, with its no-break spaces before the semicolon and the colon.
    french = Client(HTTP_ACCEPT_LANGUAGE="fr-CA")
    french.force_login(cast.dric.user)
    queue = french.get(reverse("cage:queue", args=[cast.event.slug])).content.decode()
    assert f'<a href="{register}">{signed} fiches en tout</a>\u00a0; les {SLIPS_SHOWN} dernières\u00a0:' in queue
