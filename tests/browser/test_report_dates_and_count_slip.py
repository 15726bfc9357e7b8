"""The event report's dates stay on one line and the count slip shows expected, counted and the
variance's reason, at the cage's 1366 px screen and a tablet's 768 px, in a real browser."""

import pytest

from tests.browser.conftest import ARTIFACTS, WIDTHS, at_both_widths, log_in, screenshot
from tests.conftest import PASSWORD, make_cast
from tests.reports.test_variance_reasons import WORDS, counted, reasoned_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each date's and table code's text as laid out: one rectangle per line it takes.
DATE_LINES = """() => [...document.querySelectorAll('td.date, td.code')].map(td => {
    const range = document.createRange();
    range.selectNodeContents(td);
    return [td.textContent, range.getClientRects().length];
})"""


def test_the_report_pages_dates_and_table_codes_stay_on_one_line_at_both_widths(browser, live_server):
    reasoned_event()
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    log_in(page, "ann", PASSWORD)
    page.goto("/reports/lakeside-fair-2026/")
    assert page.locator("#variances").get_by_text(WORDS).is_visible()
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        dates = page.evaluate(DATE_LINES)
        assert len(dates) > 10 and all(lines == 1 for _date, lines in dates), (width, dates)
        page.locator("#variances").scroll_into_view_if_needed()
        page.locator("#variances").screenshot(path=str(ARTIFACTS / f"report-variances-{width}.png"))
    at_both_widths(page, "report-dates")
    # The day's variance report, with its reasons and words, at both widths too.
    page.goto("/reports/lakeside-fair-2026/days/2026-09-12/")
    assert page.locator("#sheet-variances").get_by_text("Cash over", exact=True).is_visible()
    at_both_widths(page, "day-sheets-reasons")
    context.close()


def test_the_count_slip_page_at_both_widths(browser, live_server):
    cast = make_cast()
    _cash, chips = counted(cast)
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    log_in(page, cast.general_cashier.user.username, PASSWORD)
    page.goto(f"/cage/{cast.event.slug}/slips/{chips.pk}/")
    books = page.locator("#expected-and-counted")
    assert books.get_by_text("-$2.00 (2 chips short)").is_visible()
    assert page.locator("#slip-reason").inner_text() == "Other"
    at_both_widths(page, "count-slip-page")
    screenshot(page, "count-slip-page")
    context.close()
