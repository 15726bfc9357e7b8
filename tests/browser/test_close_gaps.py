"""The nightly close as a new user walks it (issue 7), in a real browser: the close page and the
runner's own page say "not counted yet" until a place is counted; the tip payout comes before the
counts, fills in the roster's hours and warns of the counts it would undo; the close page then says
which count is to be taken again and why. A closed day's roster offers no new shift, and the
staffing sheet names its columns."""

import datetime

import pytest
from django.utils import timezone

from cage.models import Slip
from events import services as event_services
from events.models import Role
from tests.browser.conftest import at_both_widths, follow, log_in, person_page
from tests.cage.helpers import close_clean_day
from tests.cage.test_blind_counts import count, reconciling
from tests.conftest import PASSWORD, PIN, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def at(hour, minute=0):
    return timezone.make_aware(datetime.datetime(2026, 9, 11, hour, minute))


def test_the_close_is_blind_pays_the_tips_first_and_says_which_count_to_take_again(page, browser, live_server):
    cast = make_cast()
    for person, start, end in ((cast.dealer, at(12), at(20)), (cast.dealer2, at(14), at(19, 30))):
        event_services.shift_add(day=cast.day, person=person, role=Role.DEALER, starts_at=start, ends_at=end)
    reconciling(cast)  # tips $4.00 + $5.00; the runner holds $14.00 in chips and $6.00
    slug = cast.event.slug

    # The runner's own page: what they hold waits for their count.
    runner = person_page(browser, live_server, cast.runner)
    try:
        runner.goto(f"/cage/{slug}/me/")
        held = runner.inner_text("#holdings")
        assert "not counted yet" in held and "$14.00" not in held and "$6.00" not in held
        at_both_widths(runner, "close-gaps-runner-blind")
    finally:
        runner.context.close()

    log_in(page, cast.general_cashier.user.username, PASSWORD)
    page.goto(f"/cage/{slug}/close/")
    tips = page.locator("#sheet-totals tr", has_text="Tips (dealers")
    assert "not counted yet" in tips.inner_text() and "$9.00" not in page.inner_text("#sheet-totals")
    steps = page.inner_text("ol.steps")
    # The tip pool is counted before it is paid out, the bank after (issue 25).
    assert steps.index("The tip pool counted blind") < steps.index("Counted blind, after")
    assert steps.index("Count the tip pool") < steps.index("Pay out the tips") < steps.index("Count bank cash")
    at_both_widths(page, "close-gaps-close-blind")

    # Bank cash and the chip bank counted first, as a new user might: the payout warns before it is sent.
    count(cast, "tip_pool", chips={"1": 9})
    count(cast, "bank_cash", cash=104_500)
    count(cast, "chip_bank", chips={"1": 835, "5": 320})
    page.goto(f"/cage/{slug}/close/")
    follow(page, "#close-pay-tips a")
    warning = page.inner_text("#recount-warning")
    assert "Already counted: bank cash, chip bank." in warning
    assert "their counts will have to be taken again before the day closes" in warning
    assert page.input_value("input[name=hours_dealer]") == "8"
    assert page.input_value("input[name=hours_dealer2]") == "5.5"
    assert "On the roster as a dealer 14:00–19:30: 5.5 hours at most." in page.inner_text("#slip-form")
    at_both_widths(page, "close-gaps-payout-warning")

    # More hours than the roster's are refused beside the field, and nothing is paid.
    page.fill("input[name=hours_dealer]", "9")
    page.select_option("select[name=sign_verified_by]", label="Chip Cashier")
    page.fill("input[name=pin_verified_by]", PIN)
    page.click("#slip-form button[type=submit]")
    page.wait_for_selector(".errorlist")
    assert "more than the 8 hours of their shifts as a dealer" in page.inner_text("#slip-form")
    assert not Slip.objects.filter(slip_type="tip_payout").exists()
    page.fill("input[name=hours_dealer]", "8")
    page.fill("input[name=pin_verified_by]", PIN)
    page.click("#slip-form button[type=submit]")
    page.wait_for_selector("text=Tip payout 1 recorded")

    page.goto(f"/cage/{slug}/close/")
    problems = page.inner_text("#close-problems")
    assert (
        "bank cash is to be counted again: the tip payout after its count paid the dealers' shares out of it"
        in problems
    )
    assert (
        "chip bank is to be counted again: the tip payout after its count put the tip pool's chips into it" in problems
    )
    at_both_widths(page, "close-gaps-recount")


def test_a_closed_days_roster_is_locked_and_the_staffing_sheet_names_its_columns(page):
    cast = make_cast()
    event_services.shift_add(day=cast.day, person=cast.dric, role=Role.DRIC, starts_at=at(11), ends_at=at(17))
    close_clean_day(cast)
    log_in(page, cast.dric.user.username, PASSWORD)
    page.goto(f"/events/{cast.event.slug}/days/2026-09-11/")
    assert page.locator("text=Add a shift").count() == 0 and page.locator("#add-shift").count() == 0
    assert "closed and locked: its roster no longer changes" in page.inner_text("#roster-locked")
    at_both_widths(page, "close-gaps-roster-closed")

    page.goto(f"/reports/{cast.event.slug}/days/2026-09-11/#sheet-staffing")
    headers = page.locator("#sheet-staffing thead th").all_inner_texts()
    assert headers == ["Position", "Person", "From", "Until", "Source"]
    page.locator("#sheet-staffing").scroll_into_view_if_needed()
    at_both_widths(page, "close-gaps-staffing")
