"""The Content-Security-Policy in a real browser: every main page loads with no violation (no inline
script, style or event handler is left anywhere), its scripts still work, the report's charts
still show their colours, and screenshots at the cage's 1366 px screen to look at."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from cage.models import Slip
from tests.browser.conftest import log_in, screenshot
from tests.browser.test_page_widths import busy_day
from tests.browser.test_report_charts import SLUG as REPORT_SLUG
from tests.browser.test_report_charts import example
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Collected in the page itself: the browser's own report of each refused script, style or frame.
WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__violations.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + e.sourceFile + ":" + e.lineNumber);
});
"""


class Visitor:
    """One person's browser at 1366 px, noting every console error, page error and CSP violation."""

    def __init__(self, browser, live_server, username):
        self.context = browser.new_context(base_url=live_server.url, viewport={"width": 1366, "height": 900})
        self.context.add_init_script(WATCH_VIOLATIONS)
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.problems = []
        self.page.on("console", self.on_console)
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        log_in(self.page, username, PASSWORD)

    def on_console(self, message):
        # The browser asks for /favicon.ico on its own; the site has none, which is no violation.
        if message.type == "error" and not message.location.get("url", "").endswith("/favicon.ico"):
            self.problems.append(f"console: {message.text} ({message.location.get('url')})")

    def visit(self, name, path):
        response = self.page.goto(path)
        assert response.status == 200, (path, response.status)
        assert "script-src 'self'" in response.headers["content-security-policy"]
        self.page.wait_for_load_state("load")
        self.problems += [f"{path}: {v}" for v in self.page.evaluate("window.__violations")]
        screenshot(self.page, f"csp-{name}-1366")

    def close(self):
        self.context.close()
        assert self.problems == []


def test_the_main_pages_load_under_the_policy_with_no_violation(browser, live_server):
    cast = busy_day()
    slug = cast.event.slug
    fill = Slip.objects.get(slip_type="fill")
    day = cast.day.date.isoformat()
    dric = Visitor(browser, live_server, cast.dric.user.username)
    for name, path in [
        ("home", "/"),
        ("event", f"/events/{slug}/"),
        ("people", f"/events/{slug}/people/"),
        ("tables", f"/events/{slug}/tables/"),
        ("chips", f"/events/{slug}/chips/"),
        ("days", f"/events/{slug}/days/"),
        ("roster", f"/events/{slug}/days/{day}/"),
        ("compliance", f"/events/{slug}/compliance/"),
        ("my-pin", "/me/pin/"),
        ("queue", f"/cage/{slug}/queue/"),
        ("close", f"/cage/{slug}/close/"),
        ("register", f"/cage/{slug}/register/"),
        ("voids", f"/cage/{slug}/register/voids/"),
        ("fill-slip", f"/cage/{slug}/slips/{fill.pk}/"),
        ("day-sheets", f"/reports/{slug}/days/{day}/"),
        ("audit-trail", f"/audit/{slug}/"),
        ("password", "/me/password/"),
    ]:
        dric.visit(name, path)

    # The cage home's own script (moved out of the page) still narrows the day's slips.
    dric.visit("cage", f"/cage/{slug}/")
    page = dric.page
    rows = page.locator("#slips tbody tr")
    assert rows.count() > 1
    page.fill("#slip-filter", "Fill")
    assert page.locator("#slips tbody tr:visible").count() == 1
    # The slip form's live totals still add up as the cashier counts.
    dric.visit("sale-form", f"/cage/{slug}/slips/new/sale/")
    page.locator("input[data-cents]").first.fill("3")
    expect(page.locator("#chips-total")).not_to_have_text("$0.00")
    dric.close()

    # The report page: its charts are inline SVG whose colours are attributes, not inline styles.
    example()
    ann = Visitor(browser, live_server, "ann")
    ann.visit("report", f"/reports/{REPORT_SLUG}/")
    bars = ann.page.locator("#chart-win-by-table rect[fill]")
    assert bars.count() >= 3
    fills = ann.page.eval_on_selector_all("#charts svg rect[fill]", "rects => rects.map(r => getComputedStyle(r).fill)")
    assert len(set(fills)) >= 2 and "rgb(0, 0, 0)" not in fills
    ann.close()

    get_user_model().objects.create_superuser("root", password=PASSWORD)
    admin = Visitor(browser, live_server, "root")
    admin.visit("logins-audit", "/audit/")
    admin.close()
