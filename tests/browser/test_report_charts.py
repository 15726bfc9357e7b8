"""The event report page in a real browser: the three charts as inline SVG that a screen reader
names, scaling with the column at the cage's screen and a tablet's width."""

import copy

import pytest

from cage.importer import import_records
from tests.browser.conftest import ARTIFACTS, WIDTHS, log_in, screenshot
from tests.conftest import PASSWORD, give_login
from tests.reports.test_figures import EXAMPLE

SLUG = "lakeside-fair-2026"
TABLE_CAPTION = "BJ-1 $120.00; BJ-2 $150.00; WOF-1 -$120.00"


def example():
    event = import_records(copy.deepcopy(EXAMPLE))
    give_login(event.people.get(code="ann"), "ann")
    return event


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_report_page_in_a_browser_at_both_widths(browser, live_server):
    example()
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    log_in(page, "ann", PASSWORD)
    page.goto(f"/reports/{SLUG}/")
    assert page.get_by_role("img", name=f"Win by table: {TABLE_CAPTION}").is_visible()
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        box = page.locator("#chart-win-by-table").bounding_box()
        assert 200 < box["width"] <= width and box["height"] > 80
        screenshot(page, f"report-charts-{width}")
        page.locator("#charts").screenshot(path=str(ARTIFACTS / f"report-charts-only-{width}.png"))
    context.close()
