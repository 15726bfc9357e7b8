"""The General Cashier counts bank cash by bill and coin, counts the chip bank, and the day closes,
all from the pages."""

import pytest
from playwright.sync_api import expect

from cage.models import Slip
from events.models import GamingDay
from tests.browser.conftest import log_in, screenshot
from tests.cage.helpers import stock
from tests.conftest import PASSWORD, PIN, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_bank_cash_is_counted_by_bill_and_coin_and_the_day_closes(page):
    cast = make_cast()
    stock(cast, chips={"1": 40, "5": 10}, cash=18_065)  # $180.65 in the bank
    slug = cast.event.slug
    log_in(page, cast.general_cashier.user.username, PASSWORD)

    page.goto(f"/cage/{slug}/close/")
    problems = page.inner_text("#close-problems")
    assert "bank cash has not been counted since its last movement" in problems
    assert page.locator("#close-form").count() == 0
    screenshot(page, "close-blocked")

    # Blind: the count form shows no expected figure before the count is in.
    page.click("text=Count bank cash (bills and coins)")
    assert "Expected" not in page.inner_text("main")
    assert page.input_value("select[name=account]") == "bank_cash"
    expect(page.locator("#chip-counts")).to_be_hidden()
    for field, count in (
        ("cash_10000", "1"),
        ("cash_2000", "3"),
        ("cash_1000", "2"),
        ("cash_25", "2"),
        ("cash_5", "3"),
    ):
        page.fill(f"input[name={field}]", count)
    assert page.inner_text("#cash-total") == "$180.65"
    page.select_option("select[name=sign_verified_by]", label="Chip Cashier")
    page.fill("input[name=pin_verified_by]", PIN)
    screenshot(page, "count-bank-cash")
    page.keyboard.press("Enter")
    page.wait_for_selector("text=Count 1 recorded.")
    count = Slip.objects.get(slip_type="count")
    assert count.details["cash"] == 18_065 and not count.postings.exists()  # counted as the books say
    assert "$20 bills" in page.inner_text("#cash-lines")

    page.goto(f"/cage/{slug}/close/")
    page.click("text=Count the chip bank")
    page.select_option("select[name=account]", "chip_bank")
    page.fill("input[name=chips_1]", "39")
    page.fill("input[name=chips_5]", "10")
    page.select_option("select[name=sign_verified_by]", label="Chip Cashier")
    page.fill("input[name=pin_verified_by]", PIN)
    page.click("#slip-form button[type=submit]")
    # A blind count: the books show only now, beside the count, and the variance needs a reason.
    page.wait_for_selector("text=choose a reason for the variance")
    books = page.inner_text("#expected-and-counted")
    assert "40 · $40.00" in books and "39 · $39.00" in books and "-$1.00" in books
    assert page.input_value("input[name=chips_1]") == "39"  # what was typed is kept, the PIN is not
    assert page.input_value("input[name=pin_verified_by]") == ""
    page.select_option("select[name=variance_reason]", "missing_chips")
    page.fill("textarea[name=reason]", "one $1 chip missing")
    page.fill("input[name=pin_verified_by]", PIN)
    page.click("#slip-form button[type=submit]")
    page.wait_for_selector("text=Count 2 recorded.")

    page.goto(f"/cage/{slug}/close/")
    page.select_option("select[name=sign_verified_by]", label="Chip Cashier")
    page.fill("input[name=pin_verified_by]", PIN)
    page.select_option("select[name=sign_approved_by]", label="Dric")
    page.fill("input[name=pin_approved_by]", PIN)
    screenshot(page, "close-form")
    page.click("#close-form button[type=submit]")
    page.wait_for_selector("text=closed and locked")
    assert GamingDay.objects.get(pk=cast.day.pk).status == GamingDay.Status.CLOSED
    page.set_viewport_size({"width": 768, "height": 1024})
    screenshot(page, "closed-home-768")
