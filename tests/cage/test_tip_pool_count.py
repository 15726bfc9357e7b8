"""The tip pool is counted in the nightly reconciliation like bank cash, the chip bank and each
runner: chips by denomination, a variance to over/short with its reason, and the day waits for it.
The variance sheets and the report's chip over/short read it like any other count's."""

import copy

import pytest

from cage import services
from cage.importer import import_records
from cage.models import Account
from cage.services import balance
from core.rules import RuleViolation
from reports.daily import day_figures, day_sheets
from reports.figures import event_figures
from tests.cage.helpers import CLOSE_SIGNED, COUNT_SIGNED, SALE_SIGNED, open_table, roster_dealers, stock
from tests.refusals import refuses
from tests.reports.test_figures import EXAMPLE

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]
PAYOUT_SIGNED = {"paid_by": "general_cashier", "verified_by": "chip_cashier", "authorized_by": "dric"}


def tipped_and_closed(cast, tips=None):
    """A table opened, tipped and closed, the bank counted: only the tip pool is left to count."""
    roster_dealers(cast)
    stock(cast, chips={"1": 200, "5": 80}, cash=10_000)
    open_table(cast)
    services.sale(day=cast.day, chips={"1": 45}, cash=4_500, signed=cast.signed(**SALE_SIGNED))
    services.tips(
        day=cast.day,
        table=cast.bj,
        chips=tips or {"1": 30},
        signed=cast.signed(counted_by="dealer", verified_by="chip_cashier"),
    )
    services.table_close(
        day=cast.day,
        table=cast.bj,
        chips={"1": 110, "5": 80},
        signed=cast.signed(counted_by="dealer", verified_by="chip_cashier"),
    )
    count_bank(cast)


def count_bank(cast):
    for code in ("bank_cash", "chip_bank"):
        account = services.account_get(cast.event, code)
        held = balance(account)
        denominations = {d.pk: d for d in cast.event.denominations.all()}
        chips = {denominations[k].key: v // denominations[k].value_cents for k, v in held.items() if k is not None}
        services.count(
            day=cast.day,
            account=account,
            cash=held.get(None, 0) if code == "bank_cash" else None,
            chips=chips if code == "chip_bank" else None,
            signed=cast.signed(**COUNT_SIGNED),
        )


def pool(cast) -> Account:
    return services.account_get(cast.event, Account.Kind.TIP_POOL)


def test_a_tip_pool_count_that_matches_posts_nothing(cast):
    tipped_and_closed(cast)
    slip = services.count(day=cast.day, account=pool(cast), chips={"1": 30}, signed=cast.signed(**COUNT_SIGNED))
    assert not slip.postings.exists() and slip.details["variances"] == []
    assert slip.details["chips"] == {"1": 30}


def test_a_short_tip_pool_goes_to_over_short_with_its_reason_and_the_payout_shares_what_is_left(cast):
    tipped_and_closed(cast)
    with pytest.raises(RuleViolation, match=r"the count of tip pool differs from the books by -\$2\.00 in \$1 chips"):
        services.count(day=cast.day, account=pool(cast), chips={"1": 28}, signed=cast.signed(**COUNT_SIGNED))
    slip = services.count(
        day=cast.day,
        account=pool(cast),
        chips={"1": 28},
        reason="two $1 chips missing from the tip box",
        variance_reason="missing_chips",
        signed=cast.signed(**COUNT_SIGNED),
    )
    assert slip.details["variances"] == [{"account": "tip_pool", "instrument": "chips:1", "amount": -200}]
    assert slip.details["variance_reason"] == "missing_chips"
    assert balance(pool(cast)) == {cast.event.denominations.get(key="1").pk: 2_800}
    payout = services.tip_payout(
        day=cast.day,
        hours=[(cast.dealer, services.slips.Decimal("4")), (cast.dealer2, services.slips.Decimal("3"))],
        signed=cast.signed(**PAYOUT_SIGNED),
    )
    assert payout.details["total"] == 2_800  # the dealers share what the box held, not what the books said

    # The variance report and the day's and event's chip over/short read it like any count's.
    variances = day_figures(cast.day)["variances"]
    assert [(v["place"], v["chips_or_cash"], v["amount"], v["reason"], v["details"]) for v in variances] == [
        ("tip pool", "$1 chips", -200, "Missing chips", "two $1 chips missing from the tip box")
    ]
    sheet = next(s for s in day_sheets(cast.day)["sheets"] if s.key == "variances")
    assert sheet.plain()[0]["place"] == "tip pool" and sheet.plain()[0]["amount"] == "-2.00"
    figures = event_figures(cast.event)
    assert figures["days"][0]["chip_over_short"] == "-2.00"
    assert figures["event_totals"]["chip_over_short"] == "-2.00"
    assert figures["variances"] == [
        {
            "date": "2026-09-11",
            "account": "tip_pool",
            "instrument": "chips:1",
            "amount": "-2.00",
            "reason": "two $1 chips missing from the tip box",
        }
    ]


@pytest.mark.parametrize(
    "count, message",
    [
        ({"cash": 500, "chips": {"1": 30}}, "the tip pool holds the dealers' tip chips only"),
        ({"cash": 0}, "a count of the tip pool gives the chips counted"),
        ({"chips": {"1": -1}}, "0 or more"),
        ({"chips": {"2": 30}}, "the event has no $2 chip"),
    ],
)
def test_a_wrong_tip_pool_count_is_refused_and_changes_nothing(cast, count, message):
    tipped_and_closed(cast)
    before = balance(pool(cast))
    with pytest.raises(RuleViolation, match=message.replace("$", r"\$")):
        services.count(day=cast.day, account=pool(cast), signed=cast.signed(**COUNT_SIGNED), **count)
    assert balance(pool(cast)) == before
    assert not cast.event.slips.filter(slip_type="count", account=pool(cast)).exists()


def test_the_day_waits_for_the_tip_pool_count_after_the_last_tips(cast):
    tipped_and_closed(cast)
    assert services.close_problems(cast.day) == ["the tip pool has not been counted since the last tips were put in"]
    with refuses("day.cannot_close"):
        services.close_day(day=cast.day, signed=cast.signed(**CLOSE_SIGNED))
    services.count(day=cast.day, account=pool(cast), chips={"1": 30}, signed=cast.signed(**COUNT_SIGNED))
    assert services.close_problems(cast.day) == []
    # More tips after the count: counted again. The payout empties the pool: nothing is left to count.
    services.tips(
        day=cast.day,
        table=cast.bj,
        chips={"1": 5},
        signed=cast.signed(counted_by="dealer", verified_by="chip_cashier"),
    )
    assert services.close_problems(cast.day) == ["the tip pool has not been counted since the last tips were put in"]
    services.count(day=cast.day, account=pool(cast), chips={"1": 35}, signed=cast.signed(**COUNT_SIGNED))
    services.tip_payout(
        day=cast.day, hours=[(cast.dealer, services.slips.Decimal("4"))], signed=cast.signed(**PAYOUT_SIGNED)
    )
    count_bank(cast)  # the payout moved the bank
    assert services.close_problems(cast.day) == []
    services.close_day(day=cast.day, signed=cast.signed(**CLOSE_SIGNED))
    cast.day.refresh_from_db()
    assert cast.day.status == "closed"


def test_a_day_without_tips_needs_no_tip_pool_count(cast):
    stock(cast)
    count_bank(cast)
    assert services.close_problems(cast.day) == []


def test_a_records_file_closes_as_the_format_says_without_a_tip_pool_count():
    """cage-records/1 counts bank_cash, chip_bank or a runner; its close_day asks for no tip pool
    count, so the example (tips pooled and paid out, never counted) still imports and closes."""
    event = import_records(copy.deepcopy(EXAMPLE))
    assert event.days.get().status == "closed"
    data = copy.deepcopy(EXAMPLE)
    data["event"]["slug"] = "tip-pool-in-a-file"
    records = data["days"][0]["records"]
    at = records[-1]["at"]
    records.insert(
        len(records) - 1,
        {
            "type": "count",
            "at": at,
            "account": "tip_pool",
            "chips": {"1": 0},
            "signed": {"counted_by": "gus", "verified_by": "cora"},
        },
    )
    with pytest.raises(Exception) as refused:
        import_records(data)
    assert "no person with id 'tip_pool' in people" in str(refused.value)  # the format is unchanged
