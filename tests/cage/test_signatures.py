"""Who signs what: every capacity, the right role, one capacity per person, runners for themselves."""

import pytest

from cage import services
from cage.models import Signature, Slip
from events.models import Assignment, Person
from tests.cage.helpers import stock
from tests.conftest import add_person
from tests.refusals import refuses

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]


def receive(cast, **signed):
    return services.chips_received(day=cast.day, chips={"1": 10}, signed=cast.signed(**signed))


def test_a_slip_records_each_signature_with_its_capacity(cast):
    slip = receive(cast, received_by="chip_cashier", witnessed_by="dric")
    assert {(s.capacity, s.person_id) for s in slip.signatures.all()} == {
        ("received_by", cast.chip_cashier.pk),
        ("witnessed_by", cast.dric.pk),
    }


def test_a_missing_capacity_is_refused(cast):
    with refuses("signing.missing"):
        receive(cast, received_by="chip_cashier")
    assert not Slip.objects.exists()


def test_an_unknown_capacity_is_refused(cast):
    with refuses("signing.unknown_capacity"):
        receive(cast, received_by="chip_cashier", witnessed_by="dric", approved_by="general_cashier")


def test_a_signature_by_the_wrong_role_is_refused(cast):
    with refuses("signing.role_not_held"):
        receive(cast, received_by="chip_cashier", witnessed_by="general_cashier")
    assert not Signature.objects.exists()


def test_one_person_never_signs_two_capacities(cast):
    # Two hats, as an event set up before a designated person held no floor role (T&C 2, 2.5, 2.6).
    dual = add_person(cast.event, "dual", "dric")
    Assignment.objects.create(person=dual, role="runner")
    stock(cast)
    services.table_issue(
        day=cast.day, table=cast.bj, chips={"1": 10}, signed=cast.signed(issued_by="chip_cashier", received_by="dealer")
    )
    services.table_open(
        day=cast.day,
        table=cast.bj,
        chips={"1": 10},
        signed=cast.signed(counted_by="dealer", verified_by="chip_cashier"),
    )
    signed = {"issued_by": cast.chip_cashier, "carried_by": dual, "received_by": cast.dealer, "authorized_by": dual}
    with refuses("signing.same_person"):
        services.fill(day=cast.day, table=cast.bj, chips={"1": 5}, signed=signed)


def test_a_person_whose_registration_was_suspended_cannot_sign(cast):
    Person.objects.filter(pk=cast.dric.pk).update(registration="suspended")
    cast.dric.refresh_from_db()
    with refuses("person.may_not_take_part"):
        receive(cast, received_by="chip_cashier", witnessed_by="dric")


def test_someone_from_another_event_cannot_sign(cast):
    from tests.conftest import make_cast

    other = make_cast("other")
    with refuses("person.not_on_event"):
        services.chips_received(
            day=cast.day, chips={"1": 1}, signed={"received_by": cast.chip_cashier, "witnessed_by": other.dric}
        )


def test_a_runner_sale_is_signed_by_that_runner(cast):
    stock(cast)
    services.runner_issue(
        day=cast.day,
        runner=cast.runner,
        chips={"1": 50},
        signed=cast.signed(issued_by="chip_cashier", received_by="runner"),
    )
    with refuses("signing.not_the_runner"):
        services.sale(
            day=cast.day,
            runner=cast.runner,
            chips={"1": 5},
            cash=500,
            signed=cast.signed(sold_by="runner2", authorized_by="dric"),
        )
    slip = services.sale(
        day=cast.day,
        runner=cast.runner,
        chips={"1": 5},
        cash=500,
        signed=cast.signed(sold_by="runner", authorized_by="dric"),
    )
    assert slip.runner == cast.runner


def test_a_cage_sale_is_sold_by_the_chip_cashier_not_a_runner(cast):
    stock(cast)
    with refuses("signing.role_not_held"):
        services.sale(
            day=cast.day, chips={"1": 5}, cash=500, signed=cast.signed(sold_by="runner", authorized_by="dric")
        )
