"""Chip sales, redemptions, runner issues and returns."""

import pytest

from cage import services
from cage.models import Account, Slip
from cage.services import balance
from core.rules import Money, RuleViolation
from tests.cage.helpers import SALE_SIGNED, stock
from tests.refusals import refuses

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]


def cash_in(cast, kind, **kw):
    return balance(services.account_get(cast.event, kind, **kw)).get(None, 0)


def test_a_cage_sale_takes_cash_and_gives_chips(cast):
    stock(cast, cash=0)
    services.sale(day=cast.day, chips={"5": 200, "25": 20}, cash=150_000, signed=cast.signed(**SALE_SIGNED))
    assert cash_in(cast, Account.Kind.BANK_CASH) == 150_000
    patrons = balance(services.account_get(cast.event, Account.Kind.PATRONS))
    assert sum(v for k, v in patrons.items() if k is not None) == 150_000 and patrons[None] == -150_000


def test_a_sale_whose_cash_does_not_match_the_chips_is_refused(cast):
    stock(cast)
    with refuses("sale.cash_differs", chips=Money(2_500), cash=Money(3_000)):
        services.sale(day=cast.day, chips={"5": 5}, cash=3_000, signed=cast.signed(**SALE_SIGNED))
    with refuses("sale.chips_on_credit"):
        services.sale(day=cast.day, chips={"5": 5}, cash=2_000, signed=cast.signed(**SALE_SIGNED))


@pytest.mark.parametrize(
    "currency,tender,rule",
    [
        ("USD", "cash", "T&C 3.6"),
        ("CAD", "debit card", "T&C 3.7"),
        ("CAD", "credit card", "T&C 3.7"),
        ("CAD", "cheque", "T&C 3.7"),
    ],
)
def test_a_sale_paid_other_than_in_canadian_cash_is_refused(cast, currency, tender, rule):
    stock(cast)
    with pytest.raises(RuleViolation) as refused:
        services.sale(
            day=cast.day, chips={"5": 1}, cash=500, currency=currency, tender=tender, signed=cast.signed(**SALE_SIGNED)
        )
    assert refused.value.rule == rule
    assert not Slip.objects.filter(slip_type="sale").exists()


def test_a_redemption_pays_cash_for_chips(cast):
    stock(cast, cash=10_000)
    services.sale(day=cast.day, chips={"5": 10}, cash=5_000, signed=cast.signed(**SALE_SIGNED))
    services.redemption(
        day=cast.day, chips={"5": 10}, cash=5_000, signed=cast.signed(paid_by="general_cashier", authorized_by="dric")
    )
    assert cash_in(cast, Account.Kind.BANK_CASH) == 10_000


def test_a_redemption_larger_than_bank_cash_is_refused(cast):
    stock(cast, cash=0)
    services.sale(day=cast.day, chips={"25": 4}, cash=10_000, signed=cast.signed(**SALE_SIGNED))
    services.deposit(day=cast.day, cash=5_000, signed=cast.signed(deposited_by="general_cashier", witnessed_by="dric"))
    with refuses("custody.short", held=Money(50_00), wanted=Money(100_00)):
        services.redemption(
            day=cast.day,
            chips={"25": 4},
            cash=10_000,
            signed=cast.signed(paid_by="general_cashier", authorized_by="dric"),
        )


def test_a_redemption_by_cheque_is_refused(cast):
    stock(cast)
    with refuses("tender.credit_refused"):
        services.redemption(
            day=cast.day,
            chips={"5": 1},
            cash=500,
            tender="cheque",
            signed=cast.signed(paid_by="general_cashier", authorized_by="dric"),
        )


def test_a_runner_sells_from_what_they_were_issued_and_returns_the_rest(cast):
    stock(cast)
    services.runner_issue(
        day=cast.day,
        runner=cast.runner,
        chips={"1": 200, "5": 40},
        signed=cast.signed(issued_by="chip_cashier", received_by="runner"),
    )
    services.sale(
        day=cast.day,
        runner=cast.runner,
        chips={"1": 150, "5": 30},
        cash=30_000,
        signed=cast.signed(sold_by="runner", authorized_by="dric"),
    )
    runner = services.account_get(cast.event, Account.Kind.RUNNER, person=cast.runner)
    assert balance(runner)[None] == 30_000
    with refuses("custody.short", held=Money(50_00), wanted=Money(60_00)):
        services.sale(
            day=cast.day,
            runner=cast.runner,
            chips={"1": 60},
            cash=6_000,
            signed=cast.signed(sold_by="runner", authorized_by="dric"),
        )
    services.runner_return(
        day=cast.day,
        runner=cast.runner,
        chips={"1": 50, "5": 10},
        cash=30_000,
        signed=cast.signed(returned_by="runner", received_by="chip_cashier"),
    )
    assert balance(runner) == {}


def test_a_runner_cannot_return_more_cash_than_they_hold(cast):
    stock(cast)
    services.runner_issue(
        day=cast.day,
        runner=cast.runner,
        chips={"1": 10},
        signed=cast.signed(issued_by="chip_cashier", received_by="runner"),
    )
    with refuses("custody.short", held=Money(0)):
        services.runner_return(
            day=cast.day,
            runner=cast.runner,
            chips={},
            cash=100,
            signed=cast.signed(returned_by="runner", received_by="chip_cashier"),
        )


def test_chips_issued_to_a_non_runner_are_refused(cast):
    stock(cast)
    with refuses("person.not_a_runner"):
        services.runner_issue(
            day=cast.day,
            runner=cast.dealer,
            chips={"1": 10},
            signed={"issued_by": cast.chip_cashier, "received_by": cast.dealer},
        )


def test_a_runner_issue_is_received_by_that_runner(cast):
    stock(cast)
    with refuses("signing.not_the_runner"):
        services.runner_issue(
            day=cast.day,
            runner=cast.runner,
            chips={"1": 10},
            signed=cast.signed(issued_by="chip_cashier", received_by="runner2"),
        )
