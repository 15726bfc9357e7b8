"""A slip form the server refused comes back showing exactly what the cashier typed: its script
fills the cash from the chips only on a fresh form and only until she types a cash amount, so a
second Record never sends a figure she did not type."""

import pytest
from playwright.sync_api import expect

from cage.models import Slip
from tests.browser.conftest import at_both_widths, log_in
from tests.cage.helpers import stock
from tests.conftest import PASSWORD, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("kind", "cashier", "refusal"),
    [
        ("sale", "chip_cashier", "a sale of $50.00 in chips for $40.00 cash would give $10.00 of chips on credit"),
        ("redemption", "general_cashier", "must be for $50.00 cash, not $40.00"),
    ],
)
def test_a_refused_form_keeps_the_cash_typed(page, kind, cashier, refusal):
    cast = make_cast()
    stock(cast)
    log_in(page, getattr(cast, cashier).user.username, PASSWORD)
    page.goto(f"/cage/{cast.event.slug}/slips/new/{kind}/")
    page.fill("input[name=chips_5]", "10")
    expect(page.locator("input[name=cash]")).to_have_value("50.00")  # a fresh form: the cash follows the chips
    page.fill("input[name=cash]", "40")
    page.fill("input[name=chips_5]", "10")
    assert page.input_value("input[name=cash]") == "40"  # once typed, it is hers
    page.click("#slip-form button[type=submit]")
    page.wait_for_selector(".errorlist")
    assert refusal in page.inner_text("#slip-form")
    # The server's page has her 40; its script leaves it, even after a chip line is touched again.
    assert page.input_value("input[name=cash]") in ("40", "40.00")
    assert page.input_value("input[name=chips_5]") == "10"
    page.fill("input[name=chips_5]", "10")
    page.dispatch_event("input[name=chips_5]", "input")
    assert page.input_value("input[name=cash]") in ("40", "40.00")
    assert not Slip.objects.filter(slip_type=kind).exists()
    at_both_widths(page, f"refused-{kind}")
