"""Tip payout, counts and variances, voids, expenses, and the day close."""

from decimal import Decimal

import pytest

from cage import services
from cage.models import Account, Slip
from cage.services import balance
from core.money import largest_remainder_split
from core.rules import Money, RuleViolation
from tests.cage.helpers import (
    CLOSE_SIGNED,
    COUNT_SIGNED,
    CREDIT_SIGNED,
    FILL_SIGNED,
    SALE_SIGNED,
    count_tip_pool,
    open_table,
    roster_dealers,
    stock,
)
from tests.refusals import refuses

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]
PAYOUT_SIGNED = {"paid_by": "general_cashier", "verified_by": "chip_cashier", "authorized_by": "dric"}


def pool_tips(cast, chips):
    roster_dealers(cast)
    open_table(cast)
    services.tips(
        day=cast.day, table=cast.bj, chips=chips, signed=cast.signed(counted_by="dealer", verified_by="chip_cashier")
    )


def test_largest_remainder_gives_leftover_cents_to_the_largest_remainders_first_listed_on_ties():
    assert largest_remainder_split(100, [Decimal(1)] * 3) == [34, 33, 33]
    assert largest_remainder_split(4000, [Decimal(4), Decimal(4), Decimal(2)]) == [1600, 1600, 800]
    assert largest_remainder_split(101, [Decimal("2.5"), Decimal("7.5")]) == [25, 76]
    assert sum(largest_remainder_split(99_999, [Decimal(3), Decimal(7), Decimal(11)])) == 99_999


def test_the_tip_pool_is_paid_pro_rata_to_hours(cast):
    stock(cast)
    pool_tips(cast, {"1": 100})
    count_tip_pool(cast)
    slip = services.tip_payout(
        day=cast.day,
        hours=[
            (cast.dealer, Decimal(3)),
            (cast.dealer2, Decimal(3)),
        ],
        signed=cast.signed(**PAYOUT_SIGNED),
    )
    assert [s["amount"] for s in slip.details["shares"]] == [5_000, 5_000]
    tip_pool = services.account_get(cast.event, Account.Kind.TIP_POOL)
    assert balance(tip_pool) == {}
    paid = services.account_get(cast.event, Account.Kind.DEALER, person=cast.dealer)
    assert balance(paid) == {None: 5_000}


def test_odd_cents_go_to_the_dealer_listed_first(cast):
    stock(cast)
    pool_tips(cast, {"1": 1})
    count_tip_pool(cast)
    slip = services.tip_payout(
        day=cast.day, hours=[(cast.dealer2, Decimal(1)), (cast.dealer, Decimal(1))], signed=cast.signed(**PAYOUT_SIGNED)
    )
    assert [(s["person"], s["amount"]) for s in slip.details["shares"]] == [("dealer2", 50), ("dealer", 50)]
    pool_tips_again = services.tips(
        day=cast.day, table=cast.bj, chips={"1": 1}, signed=cast.signed(counted_by="dealer", verified_by="chip_cashier")
    )
    assert pool_tips_again
    count_tip_pool(cast)
    slip = services.tip_payout(
        day=cast.day, hours=[(cast.dealer2, Decimal(2)), (cast.dealer, Decimal(1))], signed=cast.signed(**PAYOUT_SIGNED)
    )
    assert [s["amount"] for s in slip.details["shares"]] == [67, 33]


def test_only_dealers_share_tips(cast):
    stock(cast)
    pool_tips(cast, {"1": 10})
    with refuses("tip_payout.not_a_dealer"):
        services.tip_payout(day=cast.day, hours=[(cast.runner, Decimal(4))], signed=cast.signed(**PAYOUT_SIGNED))


def test_an_empty_tip_pool_is_not_paid_out(cast):
    roster_dealers(cast)
    stock(cast)
    with refuses("tip_payout.pool_empty"):
        services.tip_payout(day=cast.day, hours=[(cast.dealer, Decimal(4))], signed=cast.signed(**PAYOUT_SIGNED))


def test_the_tip_pool_is_counted_before_it_is_paid_out_never_as_nothing_after(cast):
    """T&C 2.6: the dealers share what the pool holds, so the pool is counted blind first; paid out
    first, its count would be of $0. Tips put in after the count call for a count again."""
    roster_dealers(cast)
    stock(cast)
    pool_tips(cast, {"1": 10})
    with refuses("tip_payout.pool_not_counted"):
        services.tip_payout(day=cast.day, hours=[(cast.dealer, Decimal(4))], signed=cast.signed(**PAYOUT_SIGNED))
    assert not Slip.objects.filter(slip_type="tip_payout").exists()
    count_tip_pool(cast)
    services.tips(
        day=cast.day, table=cast.bj, chips={"1": 2}, signed=cast.signed(counted_by="dealer", verified_by="chip_cashier")
    )
    with refuses("tip_payout.pool_not_counted"):
        services.tip_payout(day=cast.day, hours=[(cast.dealer, Decimal(4))], signed=cast.signed(**PAYOUT_SIGNED))
    count_tip_pool(cast)
    slip = services.tip_payout(day=cast.day, hours=[(cast.dealer, Decimal(4))], signed=cast.signed(**PAYOUT_SIGNED))
    assert slip.details["total"] == 1_200
    # The pool's count stands after the payout that emptied it: the close asks no count of $0.
    assert "the tip pool has not been counted since the last tips were put in" not in services.close_problems(cast.day)


def test_a_tip_payout_needs_bank_cash_to_pay(cast):
    stock(cast, cash=0)
    pool_tips(cast, {"1": 10})
    count_tip_pool(cast)
    with refuses("custody.short", held=Money(0)):
        services.tip_payout(day=cast.day, hours=[(cast.dealer, Decimal(4))], signed=cast.signed(**PAYOUT_SIGNED))


def test_a_count_that_matches_posts_nothing(cast):
    stock(cast, cash=5_000)
    slip = services.count(
        day=cast.day,
        account=services.account_get(cast.event, "bank_cash"),
        cash=5_000,
        signed=cast.signed(**COUNT_SIGNED),
    )
    assert not slip.postings.exists() and slip.details["variances"] == []


def test_a_short_count_posts_the_variance_to_over_short_with_its_reason(cast):
    stock(cast, chips={"1": 820, "5": 10})
    bank = services.account_get(cast.event, "chip_bank")
    with pytest.raises(
        RuleViolation,
        match=r"differs from the books by -\$2\.00 in \$1 chips \(2 chips short\); a variance needs a reason",
    ):
        services.count(day=cast.day, account=bank, chips={"1": 818, "5": 10}, signed=cast.signed(**COUNT_SIGNED))
    slip = services.count(
        day=cast.day,
        account=bank,
        chips={"1": 818, "5": 10},
        reason="two $1 chips missing",
        signed=cast.signed(**COUNT_SIGNED),
    )
    assert slip.details["variances"] == [{"account": "chip_bank", "instrument": "chips:1", "amount": -200}]
    over_short = services.account_get(cast.event, Account.Kind.OVER_SHORT)
    assert sum(balance(over_short).values()) == 200


def test_a_count_with_a_denomination_left_out_counts_it_as_none(cast):
    stock(cast, chips={"1": 10, "5": 2})
    with pytest.raises(RuleViolation, match=r"-\$10\.00 in \$5 chips \(2 chips short\)"):
        services.count(
            day=cast.day,
            account=services.account_get(cast.event, "chip_bank"),
            chips={"1": 10},
            signed=cast.signed(**COUNT_SIGNED),
        )


def test_a_count_is_signed_by_the_general_cashier_and_verified_by_the_chip_cashier(cast):
    stock(cast, cash=100)
    with refuses("signing.role_not_held"):
        services.count(
            day=cast.day,
            account=services.account_get(cast.event, "bank_cash"),
            cash=100,
            signed=cast.signed(counted_by="chip_cashier", verified_by="dric"),
        )


def test_a_negative_count_is_refused(cast):
    with refuses("count.cash_negative"):
        services.count(
            day=cast.day,
            account=services.account_get(cast.event, "bank_cash"),
            cash=-1,
            signed=cast.signed(**COUNT_SIGNED),
        )


def test_a_void_reverses_a_fill_and_both_stay_on_file(cast):
    stock(cast)
    open_table(cast)
    bank = services.account_get(cast.event, "chip_bank")
    before = balance(bank)
    fill = services.fill(day=cast.day, table=cast.bj, chips={"5": 40}, signed=cast.signed(**FILL_SIGNED))
    void = services.void(
        day=cast.day,
        target=fill,
        reason="wrong table",
        signed=cast.signed(requested_by="chip_cashier", authorized_by="dric"),
    )
    assert balance(bank) == before
    assert void.voids == fill and Slip.objects.filter(pk=fill.pk).exists()
    with refuses("void.already_voided"):
        services.void(
            day=cast.day,
            target=fill,
            reason="again",
            signed=cast.signed(requested_by="chip_cashier", authorized_by="dric"),
        )


def test_a_fill_is_not_voided_once_its_table_has_closed(cast):
    stock(cast)
    open_table(cast)
    fill = services.fill(day=cast.day, table=cast.bj, chips={"5": 4}, signed=cast.signed(**FILL_SIGNED))
    services.table_close(
        day=cast.day,
        table=cast.bj,
        chips={"1": 100, "5": 84},
        signed=cast.signed(counted_by="dealer", verified_by="chip_cashier"),
    )
    with refuses("void.table_closed"):
        services.void(
            day=cast.day,
            target=fill,
            reason="late",
            signed=cast.signed(requested_by="chip_cashier", authorized_by="dric"),
        )


def test_a_void_needs_a_reason_and_a_voidable_slip(cast):
    stock(cast)
    sale = services.sale(day=cast.day, chips={"5": 1}, cash=500, signed=cast.signed(**SALE_SIGNED))
    with refuses("void.reason_missing"):
        services.void(
            day=cast.day,
            target=sale,
            reason=" ",
            signed=cast.signed(requested_by="general_cashier", authorized_by="dric"),
        )
    received = Slip.objects.get(slip_type="chips_received")
    with refuses("void.not_voidable"):
        services.void(
            day=cast.day,
            target=received,
            reason="x",
            signed=cast.signed(requested_by="general_cashier", authorized_by="dric"),
        )


def test_a_void_that_the_bank_cannot_reverse_is_refused(cast):
    stock(cast, cash=0)
    sale = services.sale(day=cast.day, chips={"5": 2}, cash=1_000, signed=cast.signed(**SALE_SIGNED))
    services.deposit(day=cast.day, cash=1_000, signed=cast.signed(deposited_by="general_cashier", witnessed_by="dric"))
    with refuses("custody.short", held=Money(0)):
        services.void(
            day=cast.day,
            target=sale,
            reason="x",
            signed=cast.signed(requested_by="general_cashier", authorized_by="dric"),
        )


def test_a_credit_void_returns_the_chips_to_the_tray(cast):
    stock(cast)
    open_table(cast)
    credit = services.credit(day=cast.day, table=cast.bj, chips={"5": 10}, signed=cast.signed(**CREDIT_SIGNED))
    services.void(
        day=cast.day,
        target=credit,
        reason="miscount",
        signed=cast.signed(requested_by="chip_cashier", authorized_by="dric"),
    )
    tray = services.account_get(cast.event, Account.Kind.TABLE, table=cast.bj)
    assert sum(balance(tray).values()) == 50_000


def test_an_expense_is_paid_from_the_trust_account(cast):
    slip = services.expense(
        day=cast.day,
        category="licence_fee",
        description="Licence fee",
        cash=2_500,
        invoice="LIC-1",
        signed=cast.signed(approved_by="dric"),
    )
    assert balance(services.account_get(cast.event, Account.Kind.TRUST)) == {None: -2_500}
    assert slip.details["category"] == "licence_fee"
    with refuses("expense.unknown_category"):
        services.expense(
            day=cast.day, category="party", description="x", cash=1, invoice="", signed=cast.signed(approved_by="dric")
        )


def test_the_day_does_not_close_with_an_open_table_a_runner_holding_or_an_uncounted_bank(cast):
    stock(cast)
    open_table(cast)
    services.runner_issue(
        day=cast.day,
        runner=cast.runner,
        chips={"1": 5},
        signed=cast.signed(issued_by="chip_cashier", received_by="runner"),
    )
    with pytest.raises(RuleViolation) as refused:
        services.close_day(day=cast.day, signed=cast.signed(**CLOSE_SIGNED))
    text = str(refused.value)
    assert "tables still open: BJ-1" in text and "runner Runner still holds" in text
    assert "bank cash has not been counted" in text and "chip bank has not been counted" in text
    cast.day.refresh_from_db()
    assert cast.day.status == "open"


def test_the_day_close_needs_gc_cc_and_dric(cast):
    with refuses("signing.role_not_held"):
        services.close_day(
            day=cast.day,
            signed=cast.signed(prepared_by="general_cashier", verified_by="chip_cashier", approved_by="auditor"),
        )
