"""The auditor's Print on a slip's page prints a copy for reading; the cashier's first print after
it is still the original (cage.models.SlipPrint)."""

import time

import pytest

from cage.models import SlipPrint
from tests.browser.conftest import at_both_widths, person_page
from tests.cage.test_views import fill_in_transit
from tests.conftest import make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def printed(count: int) -> list[bool]:
    for _ in range(50):
        copies = list(SlipPrint.objects.values_list("for_reading", flat=True))
        if len(copies) >= count:
            return copies
        time.sleep(0.1)
    return copies


def test_the_auditor_prints_a_copy_for_reading_and_the_cashier_the_original(client, browser, live_server):
    cast = make_cast()
    slip = fill_in_transit(client, cast)
    url = f"/cage/{cast.event.slug}/slips/{slip.pk}/"

    auditor = person_page(browser, live_server, cast.auditor)
    try:
        auditor.goto(url)
        button = auditor.locator(".slip-actions button")
        assert button.inner_text() == "Print a copy for reading"
        assert "never the original, which is the cage's to print" in auditor.inner_text("#copy-for-reading")
        at_both_widths(auditor, "slip-print-auditor")
        with auditor.context.expect_page():
            button.click()
        assert printed(1) == [True]
    finally:
        auditor.context.close()

    cashier = person_page(browser, live_server, cast.chip_cashier)
    try:
        cashier.goto(url)
        button = cashier.locator(".slip-actions button")
        assert button.inner_text() == "Print" and cashier.locator("#copy-for-reading").count() == 0
        at_both_widths(cashier, "slip-print-cashier")
        with cashier.context.expect_page():
            button.click()
        assert printed(2) == [True, False]
        cashier.reload()
        assert cashier.locator(".slip-actions button").inner_text() == "Reprint"
    finally:
        cashier.context.close()
