"""Table issue, opener, fill, credit, tips, closer and return."""

import contextlib

import pytest

from cage import services
from cage.models import Account, Slip
from cage.services import balance
from core.rules import Money, RuleViolation
from events.models import GameTable
from tests.cage.helpers import CREDIT_SIGNED, FILL_SIGNED, SALE_SIGNED, open_table, stock
from tests.refusals import refuses

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]

OPEN_SIGNED = {"counted_by": "dealer", "verified_by": "chip_cashier"}


def tray(cast, table=None):
    account = services.account_get(cast.event, Account.Kind.TABLE, table=table or cast.bj)
    keys = {d.pk: d.key for d in cast.event.denominations.all()}
    return {keys[k]: v for k, v in balance(account).items()}


def test_an_issue_stocks_a_closed_tray_and_the_opener_opens_the_table(cast):
    stock(cast)
    table = open_table(cast, chips={"1": 100, "5": 80})
    assert table.state == GameTable.State.OPEN
    assert tray(cast) == {"1": 10_000, "5": 40_000}
    opener = Slip.objects.get(slip_type="table_open")
    assert opener.details["total"] == 50_000 and opener.details["variances"] == []


def test_an_issue_to_an_open_table_is_refused(cast):
    stock(cast)
    open_table(cast)
    with refuses("table.needs_closed", table="BJ-1"):
        services.table_issue(
            day=cast.day,
            table=cast.bj,
            chips={"1": 1},
            signed=cast.signed(issued_by="chip_cashier", received_by="dealer"),
        )


def test_an_opener_that_differs_from_the_tray_needs_a_reason(cast):
    stock(cast)
    services.table_issue(
        day=cast.day,
        table=cast.bj,
        chips={"1": 100},
        signed=cast.signed(issued_by="chip_cashier", received_by="dealer"),
    )
    with pytest.raises(
        RuleViolation,
        match=r"differs from table BJ-1's tray by -\$2\.00 in \$1 chips \(2 chips short\); a variance needs a reason",
    ):
        services.table_open(day=cast.day, table=cast.bj, chips={"1": 98}, signed=cast.signed(**OPEN_SIGNED))
    cast.bj.refresh_from_db()
    assert cast.bj.state == "closed"
    slip = services.table_open(
        day=cast.day, table=cast.bj, chips={"1": 98}, reason="two chips dropped", signed=cast.signed(**OPEN_SIGNED)
    )
    assert slip.details["variances"] == [{"account": "table:BJ-1", "instrument": "chips:1", "amount": -200}]
    assert tray(cast) == {"1": 9_800}


def test_a_table_opens_at_most_once_a_day(cast):
    stock(cast)
    open_table(cast)
    services.table_close(day=cast.day, table=cast.bj, chips={"1": 100, "5": 80}, signed=cast.signed(**OPEN_SIGNED))
    with refuses("opener.already_opened"):
        services.table_open(day=cast.day, table=cast.bj, chips={"1": 100, "5": 80}, signed=cast.signed(**OPEN_SIGNED))


def test_a_fill_moves_chips_from_the_chip_bank_to_an_open_tray(cast):
    stock(cast)
    open_table(cast)
    services.fill(day=cast.day, table=cast.bj, chips={"5": 40}, signed=cast.signed(**FILL_SIGNED))
    assert tray(cast)["5"] == 60_000


def test_a_fill_to_a_closed_table_is_refused(cast):
    stock(cast)
    with refuses("table.needs_open", table="BJ-1"):
        services.fill(day=cast.day, table=cast.bj, chips={"5": 4}, signed=cast.signed(**FILL_SIGNED))
    assert not Slip.objects.filter(slip_type="fill").exists()


def test_a_fill_the_chip_bank_cannot_cover_is_refused(cast):
    stock(cast, chips={"1": 100, "5": 80})
    open_table(cast)
    with refuses("custody.short", held=Money(0)):
        services.fill(day=cast.day, table=cast.bj, chips={"5": 1}, signed=cast.signed(**FILL_SIGNED))


def test_a_fill_needs_the_dric_runner_dealer_and_chip_cashier(cast):
    stock(cast)
    open_table(cast)
    with refuses("person.not_a_runner", name="Dealer2"):
        services.fill(
            day=cast.day,
            table=cast.bj,
            chips={"5": 1},
            signed=cast.signed(
                issued_by="chip_cashier", carried_by="dealer2", received_by="dealer", authorized_by="dric"
            ),
        )


def test_a_credit_cannot_take_more_than_the_tray_holds(cast):
    stock(cast)
    open_table(cast, chips={"5": 10})
    services.credit(day=cast.day, table=cast.bj, chips={"5": 4}, signed=cast.signed(**CREDIT_SIGNED))
    with refuses("custody.short", held=Money(30_00), wanted=Money(35_00)):
        services.credit(day=cast.day, table=cast.bj, chips={"5": 7}, signed=cast.signed(**CREDIT_SIGNED))


def test_tips_go_to_the_tip_pool_never_the_tray(cast):
    stock(cast)
    open_table(cast)
    services.tips(
        day=cast.day,
        table=cast.bj,
        chips={"1": 40},
        signed=cast.signed(counted_by="dealer", verified_by="chip_cashier"),
    )
    assert balance(services.account_get(cast.event, Account.Kind.TIP_POOL)) != {}
    assert tray(cast) == {"1": 10_000, "5": 40_000}


def test_the_closer_posts_the_win_per_denomination(cast):
    stock(cast)
    open_table(cast, chips={"1": 100, "5": 80})
    # Patrons bought the chips they lost at the table (T&C 3.4.3).
    services.sale(day=cast.day, chips={"1": 40, "5": 16}, cash=12_000, signed=cast.signed(**SALE_SIGNED))
    services.fill(day=cast.day, table=cast.bj, chips={"5": 40}, signed=cast.signed(**FILL_SIGNED))
    slip = services.table_close(
        day=cast.day, table=cast.bj, chips={"1": 140, "5": 136}, signed=cast.signed(**OPEN_SIGNED)
    )
    assert tray(cast) == {"1": 14_000, "5": 68_000}
    assert slip.details["total"] == 82_000
    wins = {p.denomination.key: p.amount for p in slip.postings.filter(account__kind="table")}
    assert wins == {"1": 4_000, "5": 8_000}  # 820 − 500 − 200 = 120
    cast.bj.refresh_from_db()
    assert cast.bj.state == "closed"


def test_a_closer_on_a_closed_table_is_refused(cast):
    with refuses("table.needs_open"):
        services.table_close(day=cast.day, table=cast.bj, chips={"1": 1}, signed=cast.signed(**OPEN_SIGNED))


def test_a_closed_tray_returns_to_the_chip_bank(cast):
    stock(cast)
    open_table(cast, chips={"1": 100})
    services.table_close(day=cast.day, table=cast.bj, chips={"1": 90}, signed=cast.signed(**OPEN_SIGNED))
    services.table_return(
        day=cast.day,
        table=cast.bj,
        chips={"1": 90},
        signed=cast.signed(returned_by="dealer", received_by="chip_cashier"),
    )
    assert tray(cast) == {}


def test_a_table_of_another_event_is_refused(cast):
    from tests.conftest import make_cast

    other = make_cast("other")
    stock(cast)
    with refuses("table.not_on_event"):
        services.table_issue(
            day=cast.day,
            table=other.bj,
            chips={"1": 1},
            signed=cast.signed(issued_by="chip_cashier", received_by="dealer"),
        )


def test_a_closer_counting_chips_nobody_bought_is_refused_once_every_table_is_closed(cast):
    stock(cast)
    open_table(cast, chips={"1": 100})
    open_table(cast, cast.wheel, chips={"1": 100})
    services.sale(day=cast.day, chips={"1": 10}, cash=1_000, signed=cast.signed(**SALE_SIGNED))
    # While another table is open, play there is not yet posted: patrons may dip below zero.
    services.table_close(day=cast.day, table=cast.bj, chips={"1": 125}, signed=cast.signed(**OPEN_SIGNED))
    with refuses("chips.patrons_would_hold_unbought"):
        services.table_close(day=cast.day, table=cast.wheel, chips={"1": 100}, signed=cast.signed(**OPEN_SIGNED))
    cast.wheel.refresh_from_db()
    assert cast.wheel.state == "open"  # refused whole: the table stays open
    services.table_close(day=cast.day, table=cast.wheel, chips={"1": 85}, signed=cast.signed(**OPEN_SIGNED))


def test_a_redemption_of_chips_nobody_holds_is_refused_when_every_table_is_closed(cast):
    stock(cast)
    services.sale(day=cast.day, chips={"25": 2}, cash=5_000, signed=cast.signed(**SALE_SIGNED))
    services.redemption(
        day=cast.day, chips={"25": 2}, cash=5_000, signed=cast.signed(paid_by="general_cashier", authorized_by="dric")
    )
    with refuses("chips.patrons_would_hold_unbought"):
        services.redemption(
            day=cast.day,
            chips={"25": 1},
            cash=2_500,
            signed=cast.signed(paid_by="general_cashier", authorized_by="dric"),
        )


def test_amounts_beyond_the_formats_bounds_are_refused(cast):
    stock(cast)
    with refuses("chips.count_too_large"):
        services.chips_received(
            day=cast.day, chips={"1": 10**30}, signed=cast.signed(received_by="chip_cashier", witnessed_by="dric")
        )
    with refuses("amount.too_large"):
        services.float_in(
            day=cast.day,
            cash=10_000_000_01,
            signed=cast.signed(received_by="general_cashier", witnessed_by="dric"),
        )


@pytest.mark.parametrize("way", ["window", "import"])
def test_patrons_chips_are_bounded_from_the_first_slip_that_takes_them_at_the_window_and_in_an_import(cast, way):
    # The patrons' place is made by the first slip that takes chips from them, inside its own
    # transaction; within an import their balance is answered from what the import keeps.
    from cage.services import memo as remembered

    stock(cast)
    redeem = {"paid_by": "general_cashier", "authorized_by": "dric"}
    with contextlib.ExitStack() as stack:
        if way == "import":
            stack.enter_context(remembered.remembering())
        with refuses("chips.patrons_would_hold_unbought"):
            services.redemption(day=cast.day, chips={"25": 1}, cash=2_500, signed=cast.signed(**redeem))
        services.sale(day=cast.day, chips={"25": 2}, cash=5_000, signed=cast.signed(**SALE_SIGNED))
        services.redemption(day=cast.day, chips={"25": 2}, cash=5_000, signed=cast.signed(**redeem))
        with refuses("chips.patrons_would_hold_unbought"):
            services.redemption(day=cast.day, chips={"25": 1}, cash=2_500, signed=cast.signed(**redeem))
