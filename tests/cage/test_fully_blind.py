"""Fully blind reconciliation (issue 7): while bank cash, the chip bank or the tip pool waits for
its blind count, no page a counter opens shows the day's totals that would give their books away
(sales, redemptions, trays, fills and credits, win, patrons' chips, deposits), nor any export of
them; once the counts are in, the DRIC approves with every figure in front of her. And the close
page says what was counted, and no over/short before anything was."""

import re

import pytest
from django.urls import reverse

from cage import services
from tests.cage.helpers import COUNT_SIGNED, SALE_SIGNED, stock
from tests.cage.test_blind_counts import count, login, place_row, reconciling
from tests.cage.test_close_gaps import element, page, row_with, sheet_html
from tests.conftest import Client

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]

HIDDEN = "Hidden until the counts are in (blind count)"
# The day's totals after reconciled() below; none of them is the amount of a slip the counter keeps.
SALES = "$51.00"  # $45.00 at the cage and $6.00 by the runner
REDEEMED = "$7.00"
TRAY = "$530.00"  # BJ-1's closer: 130 × $1 and 80 × $5
OPENER = "$500.00"
WIN = "$30.00"
OUTSTANDING = "$5.00"  # 51 $1 chips sold, 9 to the tips, 30 lost at BJ-1, 7 redeemed
FIGURES = (SALES, REDEEMED, TRAY, OPENER, WIN)


def reconciled(cast):
    reconciling(cast)
    # A late redemption while the day reconciles moves bank cash and the chip bank once more.
    services.redemption(
        day=cast.day, chips={"1": 7}, cash=700, signed=cast.signed(paid_by="general_cashier", authorized_by="dric")
    )


def count_the_bank(cast):
    count(cast, "bank_cash", cash=103_800)  # $1,000.00 float + $45.00 sold − $7.00 redeemed
    count(cast, "chip_bank", chips={"1": 842, "5": 320})
    count(cast, "tip_pool", chips={"1": 9})


def test_the_cage_home_and_its_refresh_show_no_total_until_the_bank_is_counted(client, cast):
    reconciled(cast)
    login(client, cast, "chip_cashier")
    home = page(client, "cage:home", cast)
    panels = client.get(reverse("cage:home_panels", args=[cast.event.slug])).content.decode()
    for html in (home, panels):
        tray = place_row(html, "table:BJ-1")
        assert HIDDEN in tray and "130" not in tray and TRAY not in tray
        outstanding = element(html, "chips-outstanding")
        assert HIDDEN in outstanding and OUTSTANDING not in outstanding and "× $1" not in outstanding
        tables = row_with(element(html, "table-states"), 'data-table="BJ-1"')
        assert HIDDEN in tables and OPENER not in tables
        for figure in FIGURES:
            assert figure not in html, figure
    # The day's slips are listed, their amounts not: added up they are the sales and redemptions.
    slips = element(home, "slips")
    assert "Chip sale 1" in slips and "Redemption 1" in slips and "$45.00" not in slips
    assert "hidden until the counts are in" in element(home, "amounts-hidden")
    # Nor does "Find a slip" find them by their amount.
    assert "Chip sale 1" not in element(found_by(client, cast, "$45.00"), "slips")

    # Bank cash counted, the chip bank not yet: still hidden.
    count(cast, "bank_cash", cash=103_800)
    assert HIDDEN in place_row(page(client, "cage:home", cast), "table:BJ-1")

    count(cast, "chip_bank", chips={"1": 842, "5": 320})
    count(cast, "tip_pool", chips={"1": 9})
    home = page(client, "cage:home", cast)
    assert "130" in place_row(home, "table:BJ-1") and TRAY in place_row(home, "table:BJ-1")
    assert f"total {OUTSTANDING}" in element(home, "chips-outstanding")
    assert OPENER in row_with(element(home, "table-states"), 'data-table="BJ-1"')
    assert "$45.00" in element(home, "slips") and "amounts-hidden" not in home
    assert HIDDEN not in home
    assert "Chip sale 1" in element(found_by(client, cast, "$45.00"), "slips")


def found_by(client, cast, query):
    return client.get(reverse("cage:home", args=[cast.event.slug]), {"q": query}).content.decode()


def test_the_close_page_and_the_daily_sheets_wait_for_the_counts_then_the_dric_sees_every_figure(client, cast):
    reconciled(cast)
    login(client, cast, "general_cashier")
    date = cast.day.date.isoformat()
    close = page(client, "cage:day_close", cast)
    sheets = page(client, "reports:day", cast, date)
    for html in (close, sheets):
        totals = sheet_html(html, "totals")
        for label in ("Chip sales", "Redemptions", "Win", "Chips outstanding", "Deposits"):
            assert "hidden until the counts are in (blind count)" in row_with(totals, label), label
        for figure in FIGURES:
            assert figure not in html, figure
    assert "Hidden until the counts are in" in sheet_html(close, "tables")
    assert "Hidden until the counts are in" in sheet_html(sheets, "master_game_report")
    assert "Hidden until the counts are in" in sheet_html(sheets, "fill_credit_register")
    exported = page(client, "reports:day", cast, date, format="csv")
    assert "51.00" not in exported and "530.00" not in exported and "30.00" not in exported

    count_the_bank(cast)
    client.logout()
    login(client, cast, "dric")
    close = page(client, "cage:day_close", cast)
    totals = sheet_html(close, "totals")
    assert SALES in row_with(totals, "Chip sales") and REDEEMED in row_with(totals, "Redemptions")
    assert WIN in row_with(totals, "Win") and OUTSTANDING in row_with(totals, "Chips outstanding")
    assert TRAY in sheet_html(close, "tables") and "hidden until" not in close.lower()
    assert "51.00" in page(client, "reports:day", cast, date, format="csv")


def test_the_event_report_and_its_exports_wait_for_the_counts(client, cast):
    reconciled(cast)
    login(client, cast, "general_cashier")
    report = page(client, "reports:event", cast)
    assert "counts-awaited" in report and SALES not in report and WIN not in report and "$9.00" not in report
    for name in ("reports:event_json", "reports:event_csv", "reports:event_pdf"):
        response = client.get(reverse(name, args=[cast.event.slug]), follow=True)
        assert response.redirect_chain == [(reverse("reports:event", args=[cast.event.slug]), 302)]
        assert "wait until tonight&#x27;s counts are in" in response.content.decode()

    count_the_bank(cast)
    report = page(client, "reports:event", cast)
    assert "counts-awaited" not in report and SALES in report
    response = client.get(reverse("reports:event_json", args=[cast.event.slug]))
    assert response.status_code == 200 and response.json()["event_totals"]["chip_sales"] == "51.00"


def test_nothing_is_hidden_while_the_day_is_open(client, cast):
    stock(cast, chips={"1": 1000}, cash=10_000)  # the floor still open: the totals are the cage's to see
    services.sale(
        day=cast.day, chips={"1": 51}, cash=5_100, signed=cast.signed(sold_by="chip_cashier", authorized_by="dric")
    )
    login(client, cast, "chip_cashier")
    home = page(client, "cage:home", cast)
    assert HIDDEN not in home and "$51.00" in element(home, "slips")
    assert "$51.00" in element(home, "chips-outstanding")


# --- 2. the close page's words -------------------------------------------------------------


def ready_without_tips(cast):
    """A day ready to close with nothing ever put in the tip pool."""
    stock(cast, chips={"1": 10}, cash=1000)
    for where, counted in (("bank_cash", {"cash": 1000}), ("chip_bank", {"chips": {"1": 10}})):
        services.count(
            day=cast.day,
            account=services.account_get(cast.event, where),
            signed=cast.signed(**COUNT_SIGNED),
            **counted,
        )


def test_a_day_without_tips_does_not_claim_the_tip_pool_was_counted(client, cast):
    ready_without_tips(cast)
    login(client, cast, "general_cashier")
    close = page(client, "cage:day_close", cast)
    ready = element(close, "close-ready")
    assert "there was nothing in the tip pool to count" in ready and "the tip pool counted" not in ready
    home = page(client, "cage:home", cast)
    assert "the bank counted; there was nothing in the tip pool to count" in home
    assert "the bank and the tip pool counted" not in home


def test_a_day_whose_tips_were_counted_says_so(client, cast):
    stock(cast, chips={"1": 10}, cash=1000)
    services.sale(
        day=cast.day, chips={"1": 2}, cash=200, signed=cast.signed(sold_by="chip_cashier", authorized_by="dric")
    )
    services.tips(
        day=cast.day,
        table=cast.bj,
        chips={"1": 2},
        signed=cast.signed(counted_by="dealer", verified_by="chip_cashier"),
    )
    count(cast, "bank_cash", cash=1200)
    count(cast, "chip_bank", chips={"1": 8})
    count(cast, "tip_pool", chips={"1": 2})
    login(client, cast, "general_cashier")
    close = page(client, "cage:day_close", cast)
    assert "the bank and the tip pool counted" in element(close, "close-ready")
    assert "the bank and the tip pool counted" in page(client, "cage:home", cast)
    # In French too, "the bank" is bank cash and the chip bank, both counted.
    french = Client(HTTP_ACCEPT_LANGUAGE="fr-CA")
    login(french, cast, "general_cashier")
    ready = "l’encaisse, la banque de jetons et la cagnotte des pourboires comptées."
    assert ready in element(page(french, "cage:day_close", cast), "close-ready")
    assert ready in page(french, "cage:home", cast)


def test_cash_over_short_reads_not_counted_yet_before_any_cash_count(client, cast):
    stock(cast, chips={"1": 10}, cash=1000)
    login(client, cast, "general_cashier")
    totals = sheet_html(page(client, "cage:day_close", cast), "totals")
    cash = row_with(totals, "Cash over/short")
    assert "not counted yet" in cash and "$0.00" not in cash
    assert "not counted yet" in row_with(totals, "Chip over/short")

    count(cast, "bank_cash", cash=1000)
    totals = sheet_html(page(client, "cage:day_close", cast), "totals")
    assert "$0.00" in row_with(totals, "Cash over/short") and "not counted yet" not in row_with(
        totals, "Cash over/short"
    )
    assert "not counted yet" in row_with(totals, "Chip over/short")
    count(cast, "chip_bank", chips={"1": 9}, reason="one chip missing")
    totals = sheet_html(page(client, "cage:day_close", cast), "totals")
    assert "-$1.00" in row_with(totals, "Chip over/short")


def test_the_register_its_csv_and_my_slips_show_no_amount_of_the_day_until_the_bank_is_counted(client, cast):
    reconciled(cast)
    login(client, cast, "chip_cashier")
    register = page(client, "cage:register", cast)
    assert "Chip sale 1" in register and HIDDEN in register
    assert "$45.00" not in register and "45 × $1" not in register
    csv = client.get(reverse("cage:register", args=[cast.event.slug]), {"export": "csv"}).content.decode()
    assert "Chip sale 1" in csv and HIDDEN in csv and "45.00" not in csv
    mine = page(client, "cage:mine", cast)
    assert "Chip sale 1" in mine and HIDDEN in element(mine, "my-slips") and "$45.00" not in mine

    count_the_bank(cast)
    register = page(client, "cage:register", cast)
    assert "$45.00" in register and "45 × $1" in register and HIDDEN not in register
    assert "$45.00" in page(client, "cage:mine", cast)


def test_sorting_the_register_by_amount_tells_nothing_of_a_blind_day(client, cast):
    """Sorted by amount, a blind day's slips keep the order of slips with no amount (by when they
    were written): their order alone would rank the sizes the page hides."""
    reconciled(cast)
    login(client, cast, "chip_cashier")
    url = reverse("cage:register", args=[cast.event.slug])

    def slip_ids(sort):
        html = element(client.get(url, {"sort": sort}).content.decode(), "register")
        return [int(pk) for pk in re.findall(r'href="/cage/[^/]+/slips/(\d+)/"', html)]

    written = slip_ids("time")
    assert len(written) > 5
    assert slip_ids("-amount") == sorted(written, reverse=True)
    assert slip_ids("amount") == sorted(written)

    count_the_bank(cast)
    by_amount = slip_ids("-amount")
    assert sorted(by_amount) == sorted(slip_ids("time")) and by_amount != sorted(by_amount, reverse=True)


def test_the_voids_page_shows_no_amount_voided_on_a_day_counted_blind(client, cast):
    """The voids give no slip's amount of a day whose counts are still blind, as the register does."""
    stock(cast, chips={"1": 1000}, cash=100_000)
    sale = services.sale(day=cast.day, chips={"1": 13}, cash=1_300, signed=cast.signed(**SALE_SIGNED))
    services.void(
        day=cast.day,
        target=sale,
        reason="wrong chips",
        signed=cast.signed(requested_by="chip_cashier", authorized_by="dric"),
    )
    login(client, cast, "chip_cashier")
    assert "$13.00" in element(page(client, "cage:voids", cast), "voids")
    services.day_reconcile(day=cast.day)
    voids = element(page(client, "cage:voids", cast), "voids")
    assert "Void 1" in voids and HIDDEN in voids and "$13.00" not in voids
