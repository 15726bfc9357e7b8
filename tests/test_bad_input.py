"""Each kind of bad input that reached the database, a traceback or a 500 before, now refused
with the rule it breaks (the fuzz tests, tests/test_form_fuzz.py and
tests/cage/test_import_fuzz.py, look for more of them at random)."""

import copy
import decimal

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from cage import services
from cage.importer import ImportFailed, import_records
from cage.models import Slip
from events import lockout
from events.models import ChipDenomination, Event, GamingDay, Licensee
from events.services import pin_verify
from tests.cage.test_import_fuzz import EXAMPLE
from tests.conftest import PASSWORD, PIN
from tests.refusals import refuses
from tests.world import make_world, payload, slip_form, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    return make_world()


def as_person(world, role):
    client = Client()
    client.force_login(world.users[role])
    return client


@pytest.mark.parametrize("value", ["１２３", "٣", "1e3", "1_000", "+5", "Infinity", "5\x00"])
def test_a_chip_value_is_written_with_ascii_digits(world, value):
    client = as_person(world, "dric")
    response = client.post(reverse("events:chips", args=[world.cast.event.slug]), {"value": value, "colour": "x"})
    assert response.status_code == 200
    assert "(what the forms accept)" in response.content.decode()
    assert ChipDenomination.objects.filter(event=world.cast.event).count() == 3


@pytest.mark.parametrize("value", ["+{pk}", "0{pk}", "{pk}.0", "{pk}\x00"])
def test_a_choice_from_a_list_is_its_exact_value(world, value):
    """Python's int() reads "+5", " 5" and "05" as 5: a person chosen from the list is sent as
    the list sends them."""
    client = as_person(world, "dric")
    runner2 = world.cast.runner2
    data = {"person": value.format(pk=runner2.pk), "role": "dealer"}
    response = client.post(reverse("events:role_add", args=[world.cast.event.slug]), data, follow=True)
    assert "is not one of the list" in response.content.decode() or "control character" in response.content.decode()
    assert "dealer" not in runner2.role_codes()


def test_a_date_in_full_width_digits_is_refused(world):
    client = as_person(world, "dric")
    data = {"date": "２０２６-09-12", "opens_at": "12:00", "closes_at": "23:00"}
    response = client.post(reverse("events:days", args=[world.cast.event.slug]), data)
    assert "numbers, dates and times are written with the digits 0 to 9" in response.content.decode()
    assert not GamingDay.objects.filter(date="2026-09-12").exists()


def test_a_pin_typed_for_nobody_is_pointed_out(world):
    client = as_person(world, "dric")
    data = slip_form(world, "float_in") | {"pin_witnessed_by": PIN}
    response = client.post(reverse("cage:slip_new", args=[world.cast.event.slug, "float_in"]), data)
    assert "nobody is chosen to sign as “witnessed by”" in response.content.decode()
    assert Slip.objects.filter(slip_type="float_in").count() == 1


@pytest.mark.parametrize("typed", ["２４６８", "2468\x00", "24 68", "1e30", "x" * 12])
def test_what_is_not_a_pin_is_refused_without_a_try_counted(world, typed):
    request = RequestFactory().post("/")
    username = world.cast.runner.user.username
    before = lockout.tries_left(request, username)
    with refuses("pin.not_a_pin"):
        pin_verify(request=request, person=world.cast.runner, pin=typed)
    assert lockout.tries_left(request, username) == before


def test_a_long_password_is_refused_before_it_is_hashed(world):
    client = as_person(world, "dric")
    data = {"password": PASSWORD + "x" * 100_000, "pin": "8642", "pin_again": "8642"}
    response = client.post(reverse("events:my_pin"), data)
    assert "100,0" in response.content.decode() and "at most 1,000" in response.content.decode()


@pytest.mark.parametrize("body", [b"code=BJ-\xff&game=blackjack", b"code=%ED%A0%80&game=blackjack"])
def test_a_form_sent_in_bytes_that_are_not_utf8_is_refused(world, body):
    client = as_person(world, "dric")
    url = reverse("events:tables", args=[world.cast.event.slug])
    response = client.post(url, body, content_type="application/x-www-form-urlencoded")
    assert "not UTF-8 text" in response.content.decode()
    assert not world.cast.event.tables.filter(code__startswith="BJ-\ufffd").exists()


def test_a_multipart_form_with_bytes_that_are_not_utf8_is_refused(world):
    client = as_person(world, "dric")
    boundary = "XyZ"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="code"\r\n\r\n'.encode()
        + b"BJ-\xc3\x28\r\n"
        + f'--{boundary}\r\nContent-Disposition: form-data; name="game"\r\n\r\nblackjack\r\n--{boundary}--\r\n'.encode()
    )
    url = reverse("events:tables", args=[world.cast.event.slug])
    response = client.post(url, body, content_type=f"multipart/form-data; boundary={boundary}")
    assert response.status_code == 200 and "not UTF-8 text" in response.content.decode()
    assert world.cast.event.tables.count() == 2


@pytest.mark.parametrize("query", ["²", "٣", "9" * 30, "-1", "1e3", "\x00"])
def test_an_id_in_a_query_string_is_read_or_ignored_never_a_500(world, query):
    client = as_person(world, "dric")
    slug, slip = world.cast.event.slug, world.involved.pk
    before = snapshot()
    for url, name in (
        (reverse("cage:slip_new", args=[slug, "table_open"]), "table"),
        (reverse("cage:slip_new", args=[slug, "table_close"]), "table"),
        (reverse("cage:slip_new", args=[slug, "runner_return"]), "runner"),
        (reverse("cage:slip_pdf", args=[slug, slip]), "copy"),
        (reverse("cage:register", args=[slug]), "page"),
    ):
        assert client.get(url, {name: query}).status_code == 200
    # A register's filter sent with a choice not in its list lists nothing and says so (400).
    for url, name, refusal in (
        (reverse("cage:register", args=[slug]), "table", 'id="register-refused"'),
        (reverse("cage:voids", args=[slug]), "day", 'id="voids-refused"'),
    ):
        response = client.get(url, {name: query})
        assert response.status_code == 400 and refusal in response.content.decode()
    assert snapshot() == before


@pytest.mark.parametrize("pk", ["9" * 30, "0"])
def test_an_id_in_the_address_that_names_nothing_is_404(world, pk):
    client = as_person(world, "dric")
    slug = world.cast.event.slug
    assert client.get(f"/cage/{slug}/slips/{pk}/").status_code == 404
    assert client.post(f"/cage/{slug}/queue/{pk}/approve/").status_code == 404


def test_a_void_with_a_damaged_reason_says_what_is_wrong(world):
    client = as_person(world, "dric")
    data = payload(world, "cage:queue_void", None) | {"reason": "typed\x00"}
    url = reverse("cage:queue_void", args=[world.cast.event.slug, world.involved.pk])
    response = client.post(url, data, follow=True)
    assert "Reason: This contains the control character U+0000" in response.content.decode()
    assert not Slip.objects.filter(slip_type="void").exists()


def test_a_dealer_works_at_most_a_day_of_hours(world):
    c = world.cast
    services.tips(
        day=c.day, table=c.bj, chips={"1": 10}, signed=c.signed(counted_by="dealer", verified_by="chip_cashier")
    )
    with refuses("tip_payout.hours_over_a_day"):
        services.tip_payout(
            day=c.day,
            hours=[(c.dealer, decimal.Decimal("25"))],
            signed=c.signed(paid_by="general_cashier", verified_by="chip_cashier", authorized_by="dric"),
        )


@pytest.mark.parametrize("length", [201, 1000])
def test_a_licensee_name_too_long_for_its_column_is_refused_by_the_importer(db, length):
    data = copy.deepcopy(EXAMPLE)
    data["event"]["licensee"] = "L" * length
    with pytest.raises(ImportFailed) as failed:
        import_records(data)
    assert any(line.startswith("event.licensee: name:") for line in failed.value.problems), failed.value.problems
    assert not Event.objects.exists() and not Licensee.objects.exists()


@pytest.mark.parametrize("worked", ["4.125", "NaN", "４", 1e-05, True, "+4", 99])
def test_hours_in_a_records_file_are_a_number_of_hours(db, worked):
    data = copy.deepcopy(EXAMPLE)
    record = next(r for r in data["days"][0]["records"] if r["type"] == "tip_payout")
    record["hours"]["dana"] = worked
    with pytest.raises(ImportFailed) as failed:
        import_records(data)
    assert any("(T&C 2.6" in line for line in failed.value.problems), failed.value.problems
