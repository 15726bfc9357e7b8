"""A runner and a dealer, each in their own browser, open their page and are refused the cage."""

from decimal import Decimal

import pytest

from cage import services
from tests.browser.conftest import log_in, screenshot
from tests.cage.helpers import count_tip_pool, roster_dealers
from tests.cage.test_people_pages import PAYOUT_SIGNED, runner_on_the_floor
from tests.conftest import PASSWORD, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (1366, 768)


def person_browser(browser, live_server, person):
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    log_in(page, person.user.username, PASSWORD)
    return context, page


def at_both_widths(page, name):
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        # Nothing sticks out sideways at a tablet's width.
        assert page.evaluate("document.documentElement.scrollWidth") <= width, (name, width)
        screenshot(page, f"{name}-{width}")


def test_a_runner_and_a_dealer_see_their_own_pages_and_are_refused_the_cage(browser, live_server):
    cast = make_cast()
    runner_on_the_floor(cast)
    roster_dealers(cast)
    services.tips(
        day=cast.day,
        table=cast.bj,
        chips={"1": 30, "5": 2},
        signed=cast.signed(counted_by="dealer", verified_by="chip_cashier"),
    )
    count_tip_pool(cast)  # counted before it is paid out (T&C 2.6)
    services.tip_payout(
        day=cast.day,
        hours=[(cast.dealer, Decimal(3)), (cast.dealer2, Decimal(1))],
        signed=cast.signed(**PAYOUT_SIGNED),
    )
    slug = cast.event.slug

    runner_context, runner = person_browser(browser, live_server, cast.runner)
    dealer_context, dealer = person_browser(browser, live_server, cast.dealer)
    try:
        runner.goto(f"/events/{slug}/")
        runner.click("nav.event >> text=My slips")
        runner.wait_for_selector("#holdings")
        holdings = runner.inner_text("#holdings")
        assert "$5 chips\t18\t$90.00" in holdings
        assert "Cash\t\t$10.00" in holdings
        assert "Fill 1" in runner.inner_text("#my-slips")
        at_both_widths(runner, "people-runner-mine")

        dealer.goto(f"/cage/{slug}/me/")
        tips = dealer.inner_text("#tips")
        assert "2026-09-11\t3\t$30.00" in tips
        assert "Tips 1" in dealer.inner_text("#my-slips")
        assert dealer.locator("#holdings").count() == 0
        at_both_widths(dealer, "people-dealer-mine")

        response = runner.goto(f"/cage/{slug}/")
        assert response.status == 403
        refusal = runner.inner_text("#refusal")
        assert "Your role on this event (Runner) does not allow this page." in refusal
        assert "The cage pages are for the DRIC, the General Cashier and the Chip Cashier." in refusal
        assert runner.locator("nav.event >> text=Cage").count() == 0
        at_both_widths(runner, "people-runner-refused")
        runner.click("#your-pages >> text=My slips")
        runner.wait_for_selector("#holdings")

        response = dealer.goto(f"/reports/{slug}/")
        assert response.status == 403
        assert "Your role on this event (Dealer) does not allow this page." in dealer.inner_text("#refusal")
        at_both_widths(dealer, "people-dealer-refused")
    finally:
        runner_context.close()
        dealer_context.close()
