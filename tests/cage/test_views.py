"""The cage window: slips entered with each signer's own password, refusals shown, roles enforced."""

import json
import uuid

import pytest
from django.urls import reverse

from cage.models import Slip
from tests.cage.helpers import COUNT_SIGNED, open_table, stock
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def login(client, cast, persona):
    person = getattr(cast, persona)
    assert client.login(username=person.user.username, password=PASSWORD)
    return person


def sale_form(cast, **extra):
    data = {
        "request_key": uuid.uuid4().hex,
        "chips_5": "10",
        "cash": "50.00",
        "tender": "cad_cash",
        "sign_sold_by": cast.chip_cashier.pk,
        "sign_authorized_by": cast.dric.pk,
        "password_authorized_by": PASSWORD,
    }
    data.update(extra)
    return data


def test_the_chip_cashier_records_a_sale_the_dric_authorizes_with_their_own_password(client, cast):
    stock(cast)
    login(client, cast, "chip_cashier")
    response = client.post(reverse("cage:slip_new", args=[cast.event.slug, "sale"]), sale_form(cast))
    slip = Slip.objects.get(slip_type="sale")
    assert response.status_code == 302 and response.url == reverse("cage:slip", args=[cast.event.slug, slip.pk])
    assert {s.capacity: s.person for s in slip.signatures.all()} == {
        "sold_by": cast.chip_cashier,
        "authorized_by": cast.dric,
    }
    assert slip.created_by == cast.chip_cashier.user


def test_a_second_signer_without_their_password_is_refused(client, cast):
    stock(cast)
    login(client, cast, "chip_cashier")
    response = client.post(
        reverse("cage:slip_new", args=[cast.event.slug, "sale"]), sale_form(cast, password_authorized_by="wrong")
    )
    assert response.status_code == 200
    assert "Dric must sign with their own password." in response.content.decode()
    assert not Slip.objects.filter(slip_type="sale").exists()


def test_a_debit_card_sale_is_refused_at_the_window_with_the_rule(client, cast):
    stock(cast)
    login(client, cast, "chip_cashier")
    response = client.post(reverse("cage:slip_new", args=[cast.event.slug, "sale"]), sale_form(cast, tender="debit"))
    assert "T&amp;C 3.7" in response.content.decode()
    assert not Slip.objects.filter(slip_type="sale").exists()


def test_a_fill_to_a_closed_table_is_refused_at_the_window(client, cast):
    stock(cast)
    login(client, cast, "chip_cashier")
    data = {
        "request_key": "fill-1",
        "table": cast.bj.pk,
        "chips_5": "4",
        "sign_issued_by": cast.chip_cashier.pk,
        "sign_carried_by": cast.runner.pk,
        "password_carried_by": PASSWORD,
        "sign_received_by": cast.dealer.pk,
        "password_received_by": PASSWORD,
        "sign_authorized_by": cast.dric.pk,
        "password_authorized_by": PASSWORD,
    }
    response = client.post(reverse("cage:slip_new", args=[cast.event.slug, "fill"]), data)
    assert "table BJ-1 is closed; a fill needs it open (table state)" in response.content.decode()
    open_table(cast)
    response = client.post(reverse("cage:slip_new", args=[cast.event.slug, "fill"]), data)
    assert response.status_code == 302 and Slip.objects.filter(slip_type="fill").count() == 1


def test_the_signature_list_offers_only_people_holding_the_role(client, cast):
    login(client, cast, "chip_cashier")
    page = client.get(reverse("cage:slip_new", args=[cast.event.slug, "sale"])).content.decode()
    authorized = page.split('name="sign_authorized_by"')[1].split("</select>")[0]
    assert "Dric" in authorized and "Runner" not in authorized and "General Cashier" not in authorized


@pytest.mark.parametrize("persona", ["runner", "dealer", "auditor"])
def test_only_the_designated_persons_enter_slips(client, cast, persona):
    stock(cast)
    login(client, cast, persona)
    assert client.post(reverse("cage:slip_new", args=[cast.event.slug, "sale"]), sale_form(cast)).status_code == 403
    assert not Slip.objects.filter(slip_type="sale").exists()


@pytest.mark.parametrize(
    "persona,status",
    [
        ("dric", 200),
        ("general_cashier", 200),
        ("chip_cashier", 200),
        ("auditor", 200),
        ("runner", 403),
        ("dealer", 403),
    ],
)
def test_the_cage_and_report_pages_are_for_the_designated_persons_and_the_auditor(client, cast, persona, status):
    login(client, cast, persona)
    assert client.get(reverse("cage:home", args=[cast.event.slug])).status_code == status
    assert client.get(reverse("reports:event", args=[cast.event.slug])).status_code == status


def test_an_unknown_slip_type_is_not_found(client, cast):
    login(client, cast, "chip_cashier")
    assert client.get(reverse("cage:slip_new", args=[cast.event.slug, "raffle"])).status_code == 404


def test_the_cage_page_shows_balances_and_the_days_slips(client, cast):
    stock(cast, cash=100_000)
    login(client, cast, "general_cashier")
    page = client.get(reverse("cage:home", args=[cast.event.slug])).content.decode()
    assert "$1,000.00" in page and "CHIPS_RECEIVED-00001" in page and "FLOAT_IN-00001" in page


def test_the_day_closes_from_the_window_once_reconciled(client, cast):
    stock(cast, chips={"1": 10}, cash=1_000)
    login(client, cast, "general_cashier")
    url = reverse("cage:day_close", args=[cast.event.slug])
    signatures = {
        "request_key": "close-1",
        "sign_prepared_by": cast.general_cashier.pk,
        "sign_verified_by": cast.chip_cashier.pk,
        "password_verified_by": PASSWORD,
        "sign_approved_by": cast.dric.pk,
        "password_approved_by": PASSWORD,
    }
    response = client.post(url, signatures)
    assert "bank cash has not been counted since its last movement" in response.content.decode()
    from cage import services

    services.count(
        day=cast.day,
        account=services.account_get(cast.event, "bank_cash"),
        cash=1_000,
        signed=cast.signed(**COUNT_SIGNED),
    )
    services.count(
        day=cast.day,
        account=services.account_get(cast.event, "chip_bank"),
        chips={"1": 10},
        signed=cast.signed(**COUNT_SIGNED),
    )
    assert client.post(url, signatures).status_code == 302
    cast.day.refresh_from_db()
    assert cast.day.status == "closed"


def test_the_report_downloads_as_cage_report_json(client, cast):
    login(client, cast, "auditor")
    response = client.get(reverse("reports:event_json", args=[cast.event.slug]))
    assert response["Content-Type"] == "application/json"
    assert json.loads(response.content)["format"] == "cage-report/1"


def test_a_sale_posted_twice_is_recorded_once(client, cast):
    stock(cast)
    login(client, cast, "chip_cashier")
    data = sale_form(cast)
    url = reverse("cage:slip_new", args=[cast.event.slug, "sale"])
    first = client.post(url, data)
    second = client.post(url, data, follow=True)
    slip = Slip.objects.get(slip_type="sale")
    assert first.url == reverse("cage:slip", args=[cast.event.slug, slip.pk])
    assert "This slip was already recorded as SALE-00001." in second.content.decode()
    # A new form (a new key) records a new sale.
    client.post(url, sale_form(cast))
    assert Slip.objects.filter(slip_type="sale").count() == 2


def test_each_form_shown_carries_a_fresh_request_key(client, cast):
    login(client, cast, "chip_cashier")
    url = reverse("cage:slip_new", args=[cast.event.slug, "float_in"])
    keys = {client.get(url).context["form"]["request_key"].value() for _ in range(2)}
    assert len(keys) == 2


def test_the_report_page_shows_totals_by_name_and_games_by_name(client, cast):
    from cage.importer import import_records
    from tests.reports.test_figures import EXAMPLE

    event = import_records(EXAMPLE)
    user = event.people.get(code="ann")
    from events import services as event_services

    event_services.login_create(person=user, username="ann-report", password=PASSWORD)
    assert client.login(username="ann-report", password=PASSWORD)
    page = client.get(reverse("reports:event", args=[event.slug])).content.decode()
    assert "Net proceeds" in page and "Wheel of Fortune" in page and ">95.00<" in page


def test_the_cage_page_runs_the_same_number_of_queries_however_many_slips(client, cast):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from cage import services

    def runner_sales(n):
        for _ in range(n):
            services.runner_issue(
                day=cast.day,
                runner=cast.runner,
                chips={"1": 1},
                signed=cast.signed(issued_by="chip_cashier", received_by="runner"),
            )
            services.sale(
                day=cast.day,
                runner=cast.runner,
                chips={"1": 1},
                cash=100,
                signed=cast.signed(sold_by="runner", authorized_by="dric"),
            )

    stock(cast)
    open_table(cast)
    runner_sales(1)
    login(client, cast, "general_cashier")
    url = reverse("cage:home", args=[cast.event.slug])
    client.get(url)  # warm the session
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    runner_sales(15)
    open_table(cast, cast.wheel)
    with CaptureQueriesContext(connection) as many:
        client.get(url)
    assert len(many) == len(few)
