"""A DRIC sets up a table and a Chip Cashier records a fill, in a real browser."""

import pytest

from cage.models import Slip
from events.models import GameTable
from tests.browser.conftest import log_in, screenshot
from tests.cage.helpers import open_table, stock
from tests.conftest import PASSWORD, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_dric_logs_in_and_creates_a_table(page):
    cast = make_cast()
    log_in(page, cast.dric.user.username, PASSWORD)
    page.click("text=Lakeside Fall Fair Casino")
    page.click("nav.event >> text=Tables")
    page.fill("#table-form input[name=code]", "CR-1")
    page.select_option("#table-form select[name=game]", "craps")
    page.click("#table-form button[type=submit]")
    page.wait_for_selector("text=The licence does not authorize Craps")
    assert "(T&C 1.5.1)" in page.inner_text(".errorlist")
    page.fill("#table-form input[name=code]", "BJ-2")
    page.select_option("#table-form select[name=game]", "blackjack")
    page.click("#table-form button[type=submit]")
    page.wait_for_selector("text=Table BJ-2 set up.")
    assert "BJ-2" in page.inner_text("table#tables")
    screenshot(page, "dric-tables")
    assert GameTable.objects.filter(event=cast.event, code="BJ-2", game="blackjack").exists()
    assert not GameTable.objects.filter(code="CR-1").exists()


def test_the_chip_cashier_records_a_fill_signed_by_runner_dealer_and_dric_on_one_screen(page):
    cast = make_cast()
    stock(cast)
    open_table(cast)
    log_in(page, cast.chip_cashier.user.username, PASSWORD)
    page.goto(f"/cage/{cast.event.slug}/")
    page.click("#slip-types >> text=Fill")
    page.select_option("select[name=table]", label="BJ-1")
    page.fill("input[name=chips_5]", "40")
    page.select_option("select[name=sign_issued_by]", label="Chip Cashier")
    for capacity, name in (("carried_by", "Runner"), ("received_by", "Dealer"), ("authorized_by", "Dric")):
        page.select_option(f"select[name=sign_{capacity}]", label=name)
        page.fill(f"input[name=password_{capacity}]", PASSWORD)
    screenshot(page, "cc-fill-form")
    page.click("#slip-form button[type=submit]")
    page.wait_for_selector("text=FILL-00001 recorded.")
    screenshot(page, "cc-fill-slip")
    signatures = page.inner_text("table#signatures")
    assert "authorized_by" in signatures and "Dric" in signatures
    slip = Slip.objects.get(slip_type="fill")
    assert {s.capacity for s in slip.signatures.all()} == {"issued_by", "carried_by", "received_by", "authorized_by"}


def test_a_sale_fills_in_its_cash_from_the_chips_and_a_debit_card_is_refused(page):
    cast = make_cast()
    stock(cast)
    log_in(page, cast.chip_cashier.user.username, PASSWORD)
    page.goto(f"/cage/{cast.event.slug}/slips/new/sale/")
    page.fill("input[name=chips_5]", "3")
    page.fill("input[name=chips_25]", "2")
    assert page.input_value("input[name=cash]") == "65.00"
    page.select_option("select[name=tender]", label="Debit card")
    page.select_option("select[name=sign_authorized_by]", label="Dric")
    page.fill("input[name=password_authorized_by]", PASSWORD)
    page.click("#slip-form button[type=submit]")
    page.wait_for_selector("text=no credit of any kind, debit or credit cards or cheques (T&C 3.7)")
    screenshot(page, "cc-sale-debit-refused")
    assert not Slip.objects.filter(slip_type="sale").exists()
    page.select_option("select[name=tender]", label="Canadian cash")
    page.fill("input[name=password_authorized_by]", PASSWORD)
    page.click("#slip-form button[type=submit]")
    page.wait_for_selector("text=SALE-00001 recorded.")
    assert Slip.objects.get(slip_type="sale").details["chips"] == {"5": 3, "25": 2}
