"""The cage home page's inventory grid and tables panel: real slips in, counts and dollars out."""

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cage import services
from cage.models import Account, Slip
from cage.selectors.inventory import inventory, table_states
from core.reading import one_reading
from events import services as event_services
from events.models import Role
from tests.cage.helpers import (
    CREDIT_SIGNED,
    FILL_SIGNED,
    SALE_SIGNED,
    count_tip_pool,
    open_table,
    roster_dealers,
    stock,
)
from tests.conftest import PASSWORD, add_person, login, make_cast

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]


def a_busy_day(cast):
    """Stock, open BJ-1, fill it twice (one voided), credit it, a runner sells, the cage sells, tips."""
    stock(cast)
    open_table(cast)  # 100 × $1 and 80 × $5 to BJ-1: a $500.00 opener
    services.fill(day=cast.day, table=cast.bj, chips={"5": 40}, signed=cast.signed(**FILL_SIGNED))
    wrong = services.fill(day=cast.day, table=cast.bj, chips={"25": 4}, signed=cast.signed(**FILL_SIGNED))
    services.void(
        day=cast.day,
        target=wrong,
        reason="wrong table",
        signed=cast.signed(requested_by="chip_cashier", authorized_by="dric"),
    )
    services.credit(day=cast.day, table=cast.bj, chips={"1": 10}, signed=cast.signed(**CREDIT_SIGNED))
    services.runner_issue(
        day=cast.day,
        runner=cast.runner,
        chips={"5": 20},
        signed=cast.signed(issued_by="chip_cashier", received_by="runner"),
    )
    services.sale(
        day=cast.day,
        runner=cast.runner,
        chips={"5": 4},
        cash=2_000,
        signed=cast.signed(sold_by="runner", authorized_by="dric"),
    )
    services.sale(day=cast.day, chips={"25": 2}, cash=5_000, signed=cast.signed(**SALE_SIGNED))
    services.tips(
        day=cast.day, table=cast.bj, chips={"5": 1}, signed=cast.signed(counted_by="dealer", verified_by="chip_cashier")
    )


def grid(event):
    """{row key: ([(count, dollars) per denomination], cash dollars, total dollars)}."""
    inv = inventory(event)
    return {
        r.key: ([(c.count, c.dollars) for c in r.chips], r.cash_dollars, r.total_dollars)
        for r in [*inv.rows, inv.totals]
    }


def test_the_grid_counts_chips_and_dollars_in_every_custody_place(cast):
    a_busy_day(cast)
    rows = grid(cast.event)
    assert list(rows) == [
        "bank_cash",
        "chip_bank",
        "runner:runner",
        "runner:runner2",
        "table:BJ-1",
        "table:WOF-1",
        "tip_pool",
        "total",
    ]
    nothing = (0, "$0.00")
    assert rows["bank_cash"] == ([nothing] * 3, "$1,050.00", "$1,050.00")
    # 1000 − 100 issued + 10 credited; 400 − 80 − 40 filled − 20 to the runner; 40 − 2 sold. The
    # voided fill of 4 × $25 left and came back.
    assert rows["chip_bank"] == ([(910, "$910.00"), (260, "$1,300.00"), (38, "$950.00")], "$0.00", "$3,160.00")
    assert rows["runner:runner"] == ([nothing, (16, "$80.00"), nothing], "$20.00", "$100.00")
    assert rows["runner:runner2"] == ([nothing] * 3, "$0.00", "$0.00")
    assert rows["table:BJ-1"] == ([(90, "$90.00"), (120, "$600.00"), nothing], "$0.00", "$690.00")
    assert rows["table:WOF-1"] == ([nothing] * 3, "$0.00", "$0.00")
    assert rows["tip_pool"] == ([nothing, (1, "$5.00"), nothing], "$0.00", "$5.00")
    assert rows["total"] == ([(1000, "$1,000.00"), (397, "$1,985.00"), (38, "$950.00")], "$1,070.00", "$5,005.00")


def test_chips_outstanding_are_those_sold_and_not_yet_back(cast):
    a_busy_day(cast)
    inv = inventory(cast.event)
    # 4 × $5 sold by the runner, one of them tipped into the pool; 2 × $25 sold at the cage.
    assert [(d.key, c.count, c.dollars) for d, c in inv.outstanding_items] == [("5", 3, "$15.00"), ("25", 2, "$50.00")]
    assert inv.outstanding_dollars == "$65.00"
    # What the supplier delivered is in the grid or in patrons' hands, chip for chip.
    assert [t.count + o.count for t, o in zip(inv.totals.chips, inv.outstanding, strict=True)] == [1000, 400, 40]


def test_a_redemption_brings_chips_back_from_patrons(cast):
    a_busy_day(cast)
    services.redemption(
        day=cast.day, chips={"25": 2}, cash=5_000, signed=cast.signed(paid_by="general_cashier", authorized_by="dric")
    )
    inv = inventory(cast.event)
    assert [(d.key, c.count) for d, c in inv.outstanding_items] == [("5", 3)]
    assert grid(cast.event)["bank_cash"][1] == "$1,000.00"


def test_an_empty_event_lists_its_places_without_creating_any_account(cast):
    add_person(cast.event, "rita", Role.RUNNER, login=False)
    inv = inventory(cast.event)
    assert [r.label for r in inv.rows] == [
        "bank cash",
        "chip bank",
        "runner Rita",
        "runner Runner",
        "runner Runner2",
        "table BJ-1",
        "table WOF-1",
        "tip pool",
    ]
    assert all(r.total == 0 for r in inv.rows) and inv.outstanding_items == []
    assert not Account.objects.exists()
    assert [s.table.code for s in table_states(cast.day)] == ["BJ-1", "WOF-1"]
    assert not Account.objects.exists()


def test_the_dealers_tips_paid_and_the_outside_world_are_not_places_in_the_grid(cast):
    a_busy_day(cast)
    roster_dealers(cast)
    count_tip_pool(cast)
    services.tip_payout(
        day=cast.day,
        hours=[(cast.dealer, Decimal("4"))],
        signed=cast.signed(paid_by="general_cashier", verified_by="chip_cashier", authorized_by="dric"),
    )
    keys = [r.key for r in inventory(cast.event).rows]
    assert not [k for k in keys if k.startswith(("dealer", "patrons", "supplier", "over_short"))]
    rows = grid(cast.event)
    # The $5 tip went to the chip bank and $5.00 of bank cash to the dealer.
    assert rows["tip_pool"][2] == "$0.00" and rows["bank_cash"][1] == "$1,045.00"
    assert rows["chip_bank"][0][1] == (261, "$1,305.00")


def test_table_states_show_the_opener_and_fills_and_credits_not_voided(cast):
    a_busy_day(cast)
    states = {s.table.code: s for s in table_states(cast.day)}
    bj, wheel = states["BJ-1"], states["WOF-1"]
    assert (bj.game, bj.is_open, bj.opener_dollars) == ("Blackjack", True, "$500.00")
    assert (bj.fills.count, bj.fills.dollars) == (1, "$200.00")
    assert (bj.credits.count, bj.credits.dollars) == (1, "$10.00")
    assert Slip.objects.filter(slip_type="fill").count() == 2  # the voided one is on file, not counted
    assert (wheel.game, wheel.is_open, wheel.opener, wheel.fills.count, wheel.credits.count) == (
        "Wheel of Fortune",
        False,
        None,
        0,
        0,
    )


def test_a_closed_table_keeps_its_days_figures(cast):
    a_busy_day(cast)
    services.table_close(
        day=cast.day,
        table=cast.bj,
        chips={"1": 90, "5": 120},
        signed=cast.signed(counted_by="dealer", verified_by="chip_cashier"),
    )
    bj = table_states(cast.day)[0]
    assert (bj.is_open, bj.opener_dollars, bj.fills.dollars, bj.credits.dollars) == (
        False,
        "$500.00",
        "$200.00",
        "$10.00",
    )


def test_the_panels_run_a_fixed_number_of_queries_however_big_the_event(cast):
    a_busy_day(cast)
    # As a page reads them: once per reading (core.reading), the event's places and tables shared.
    with CaptureQueriesContext(connection) as small, one_reading():
        inventory(cast.event)
        table_states(cast.day)
    for n in range(6):
        add_person(cast.event, f"runner_{n}", Role.RUNNER, login=False)
        event_services.table_create(event=cast.event, code=f"BJ-{n + 2}", game="blackjack")
    open_table(cast, cast.wheel, chips={"1": 50})
    services.fill(day=cast.day, table=cast.wheel, chips={"1": 5}, signed=cast.signed(**FILL_SIGNED))
    with CaptureQueriesContext(connection) as big, one_reading():
        inv = inventory(cast.event)
        states = table_states(cast.day)
    assert len(inv.rows) == 2 + 8 + 8 + 1 and len(states) == 8
    assert len(big) == len(small) <= 8


def test_the_grid_takes_one_aggregate_query_for_balances(cast, django_assert_max_num_queries):
    a_busy_day(cast)
    with django_assert_max_num_queries(5), one_reading():
        inventory(cast.event)
    with django_assert_max_num_queries(3):
        table_states(cast.day)


# --- the pages ------------------------------------------------------------------------------


READERS = [
    ("dric", 200),
    ("general_cashier", 200),
    ("chip_cashier", 200),
    ("auditor", 200),
    ("runner", 403),
    ("dealer", 403),
]


@pytest.mark.parametrize("persona,status", READERS)
def test_the_home_page_and_its_panels_are_for_the_designated_persons_and_the_auditor(client, cast, persona, status):
    stock(cast)
    login(client, cast, persona)
    home = client.get(reverse("cage:home", args=[cast.event.slug]))
    panels = client.get(reverse("cage:home_panels", args=[cast.event.slug]))
    assert (home.status_code, panels.status_code) == (status, status)
    if status == 200:
        assert 'id="inventory"' in home.content.decode() and 'id="table-states"' in home.content.decode()


def test_an_outsider_sees_no_panels(client, cast, outsider):
    assert client.login(username="outsider", password=PASSWORD)
    assert client.get(reverse("cage:home_panels", args=[cast.event.slug])).status_code == 403


def test_the_panels_fragment_is_just_the_two_panels_and_never_cached(client, cast):
    a_busy_day(cast)
    login(client, cast, "auditor")
    response = client.get(reverse("cage:home_panels", args=[cast.event.slug]))
    html = response.content.decode()
    assert html.count('data-panel="inventory"') == 1 and html.count('data-panel="tables"') == 1
    assert "<html" not in html and "<nav" not in html and "slip-filter" not in html
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    assert "1,000</span>" in html and "$5 chips" in html and "runner Runner" in html and "table BJ-1" in html
    assert "1 fill · $200.00" in html and "1 credit · $10.00" in html and "$500.00" in html
    assert "Chips outstanding" in html and "total $65.00" in html


def test_the_panels_fragment_writes_nothing_and_takes_no_post(client, cast):
    login(client, cast, "chip_cashier")
    url = reverse("cage:home_panels", args=[cast.event.slug])
    client.get(url)
    client.get(reverse("cage:home", args=[cast.event.slug]))
    assert not Account.objects.exists()
    assert client.post(url).status_code == 405


def test_the_home_page_carries_the_refresh_interval_from_settings(client, cast, settings):
    settings.CAGE_REFRESH_SECONDS = 7
    login(client, cast, "general_cashier")
    page = client.get(reverse("cage:home", args=[cast.event.slug])).content.decode()
    assert 'data-refresh-seconds="7"' in page
    assert reverse("cage:home_panels", args=[cast.event.slug]) in page
    # The slots the other panels and the existing controls rely on are still there.
    assert 'id="slip-types"' in page and 'id="slips"' in page and "Nightly close" in page


def test_an_event_without_a_gaming_day_still_shows_its_places(client):
    cast = make_cast("no-day", open_day=False)
    login(client, cast, "dric")
    html = client.get(reverse("cage:home_panels", args=[cast.event.slug])).content.decode()
    assert "table WOF-1" in html and "closed" in html
