"""Chips from and to the supplier; float in; deposit."""

import pytest

from cage import services
from cage.models import Account, Slip
from cage.services import balance
from core.rules import Money, RuleViolation
from tests.cage.helpers import stock
from tests.refusals import refuses

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]


def held(cast, kind, **kw):
    account = services.account_get(cast.event, kind, **kw)
    denominations = {d.pk: d.key for d in cast.event.denominations.all()}
    return {("cash" if k is None else denominations[k]): v for k, v in balance(account).items()}


def test_chips_received_go_from_the_supplier_to_the_chip_bank(cast):
    services.chips_received(
        day=cast.day, chips={"1": 100, "25": 4}, signed=cast.signed(received_by="chip_cashier", witnessed_by="dric")
    )
    assert held(cast, Account.Kind.CHIP_BANK) == {"1": 10_000, "25": 10_000}
    assert held(cast, Account.Kind.SUPPLIER) == {"1": -10_000, "25": -10_000}


def test_chips_of_a_denomination_the_event_lacks_are_refused(cast):
    with refuses("chips.unknown_denomination"):
        services.chips_received(
            day=cast.day, chips={"100": 1}, signed=cast.signed(received_by="chip_cashier", witnessed_by="dric")
        )
    assert not Slip.objects.exists()


@pytest.mark.parametrize("chips", [{"1": -5}, {"1": 1.5}, {"1": "3"}, {"1": 0}, {}])
def test_negative_fractional_or_empty_chip_counts_are_refused(cast, chips):
    with pytest.raises(RuleViolation):
        services.chips_received(
            day=cast.day, chips=chips, signed=cast.signed(received_by="chip_cashier", witnessed_by="dric")
        )
    assert not Slip.objects.exists()


def test_chips_returned_cannot_exceed_the_chip_bank(cast):
    stock(cast, chips={"5": 10}, cash=0)
    services.chips_returned(
        day=cast.day, chips={"5": 4}, signed=cast.signed(returned_by="chip_cashier", witnessed_by="dric")
    )
    assert held(cast, Account.Kind.CHIP_BANK) == {"5": 3000}
    with refuses("custody.short", held=Money(30_00), wanted=Money(35_00)):
        services.chips_returned(
            day=cast.day, chips={"5": 7}, signed=cast.signed(returned_by="chip_cashier", witnessed_by="dric")
        )


def test_float_in_and_deposit_move_cash_between_trust_and_bank(cast):
    services.float_in(
        day=cast.day, cash=100_000, signed=cast.signed(received_by="general_cashier", witnessed_by="dric")
    )
    services.deposit(day=cast.day, cash=40_000, signed=cast.signed(deposited_by="general_cashier", witnessed_by="dric"))
    assert held(cast, Account.Kind.BANK_CASH) == {"cash": 60_000}
    assert held(cast, Account.Kind.TRUST) == {"cash": -60_000}


def test_a_deposit_larger_than_bank_cash_is_refused(cast):
    services.float_in(day=cast.day, cash=1_000, signed=cast.signed(received_by="general_cashier", witnessed_by="dric"))
    with refuses("custody.short", held=Money(10_00)):
        services.deposit(
            day=cast.day, cash=1_001, signed=cast.signed(deposited_by="general_cashier", witnessed_by="dric")
        )


@pytest.mark.parametrize("cash", [0, -100, 1.5])
def test_cash_must_be_a_positive_number_of_cents(cast, cash):
    with refuses("cash.not_positive"):
        services.float_in(
            day=cast.day, cash=cash, signed=cast.signed(received_by="general_cashier", witnessed_by="dric")
        )
