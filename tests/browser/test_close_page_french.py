"""The nightly close page in Canadian French at a tablet's width: the day's variance report (its
widest sheet, with the opener's check against the last closer) stays inside its box, each column
readable, and the "ready" line names every place counted."""

import pytest

from cage import services
from tests.browser.conftest import ARTIFACTS, WIDTHS, log_in, screenshot
from tests.cage.helpers import COUNT_SIGNED
from tests.cage.test_opener_check import closed_again, first_day_closed, open_short
from tests.conftest import PASSWORD, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_variance_report_fits_its_box_in_french_at_768(browser, live_server):
    cast = make_cast()
    day2 = first_day_closed(cast)
    open_short(cast, day2)  # a $5 chip short at the opener
    closed_again(cast, day2)
    services.count(  # a count with a variance and the counter's own words: the widest cells
        day=day2,
        account=services.account_get(cast.event, "bank_cash"),
        cash=9_990,
        variance_reason="cash_short",
        reason="a ten-dollar bill missing from the float, the bank's bags checked twice",
        signed=cast.signed(**COUNT_SIGNED),
    )
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": WIDTHS[1], "height": 900}, locale="fr-CA"
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        log_in(page, cast.general_cashier.user.username, PASSWORD)
        page.goto(f"/cage/{cast.event.slug}/close/")
        sheet = page.locator("#sheet-variances")
        assert "Détails" in sheet.inner_text()
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            # Every column inside the card, none to scroll to; the counter's own words (Détails)
            # wrap as a phrase, not a word a line.
            box = sheet.locator(".scroll-x")
            assert box.evaluate("b => b.scrollWidth <= b.clientWidth"), width
            details = sheet.locator("th", has_text="Détails")
            assert details.evaluate("th => th.getBoundingClientRect().width") >= 60, width
            screenshot(page, f"close-variances-fr-{width}")
            sheet.screenshot(path=str(ARTIFACTS / f"close-variances-fr-sheet-{width}.png"))
    finally:
        context.close()
