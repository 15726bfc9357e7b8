"""The DRIC builds a day's roster in the browser, is refused while a position has a gap, then opens the day."""

import datetime

import pytest

from events import services
from events.models import GamingDay
from tests.browser.conftest import at_both_widths, follow, log_in, screenshot
from tests.cage.helpers import roster_the_designated
from tests.conftest import PASSWORD, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def add_shift(page, person, role, start, end):
    page.select_option("select[name=person]", label=person)
    page.select_option("select[name=role]", label=role)
    page.fill("input[name=starts_at]", start)
    page.fill("input[name=ends_at]", end)
    follow(page, "text=Add shift")  # the previous shift's message is on the page being left
    page.wait_for_selector("text=Shift added to the roster.")


def test_a_roster_gap_keeps_the_day_closed_until_the_dric_fills_it(page):
    cast = make_cast(open_day=False)
    services.day_add(
        event=cast.event, date=datetime.date(2026, 9, 12), opens_at=datetime.time(12), closes_at=datetime.time(18)
    )
    # The first day must be closed before the next opens; it had no postings, so it closes clean.
    cast.day.status = GamingDay.Status.CLOSED
    cast.day.save()
    log_in(page, cast.dric.user.username, PASSWORD)
    page.goto(f"/events/{cast.event.slug}/days/2026-09-12/")
    add_shift(page, "Dric", "Designated Representative in Charge", "2026-09-12T11:30", "2026-09-12T18:30")
    add_shift(page, "General Cashier", "General Cashier", "2026-09-12T11:30", "2026-09-12T18:30")
    add_shift(page, "Chip Cashier", "Chip Cashier", "2026-09-12T11:30", "2026-09-12T15:00")
    assert "Chip Cashier: nobody from 2026-09-12 15:00 to 2026-09-12 18:00" in page.inner_text("#gaps")
    # Not offered while the roster leaves a gap: the page says why beside where the button would be.
    assert page.locator("text=Open the gaming day").count() == 0
    assert "roster leaves designated positions empty" in page.inner_text("#cannot-open")
    assert "(T&C 2)" in page.inner_text("#cannot-open")
    screenshot(page, "roster-gap")
    add_shift(page, "Chip Cashier", "Chip Cashier", "2026-09-12T15:00", "2026-09-12T18:30")
    page.click("text=Open the gaming day")  # a second step says what opens, then opens it
    page.click("#open-day-confirm")
    page.wait_for_selector("text=Gaming day 2026-09-12 is open.")
    screenshot(page, "roster-open")
    assert GamingDay.objects.get(event=cast.event, date="2026-09-12").status == GamingDay.Status.OPEN


def test_the_dric_opens_the_day_from_the_gaming_days_list_the_cage_page_points_to(page):
    cast = make_cast(open_day=False)  # 2026-09-11, in setup
    roster_the_designated(cast)  # the last line of the first day's checklist
    services.day_add(event=cast.event, date=datetime.date(2026, 9, 12))
    log_in(page, cast.dric.user.username, PASSWORD)
    page.goto(f"/cage/{cast.event.slug}/")
    assert "the DRIC opens it from the gaming days page" in page.inner_text("main")
    follow(page, "#open-from-days")
    at_both_widths(page, "days-list-open-buttons")
    # The next day is not offered: the list says why (the first is not closed yet).
    opener = "summary[aria-label='Open the gaming day of 2026-09-{}…']"
    assert page.locator(opener.format(12)).count() == 0
    assert "is not closed yet" in page.inner_text(".day-cannot-open")
    # Opening is not undone: the button asks first, and the day is still in setup until the yes.
    page.click(opener.format(11))
    confirm = page.locator(".day-open button:has-text('Yes, open the gaming day')")
    assert "It is not undone." in page.inner_text(".day-open") and confirm.is_visible()
    assert GamingDay.objects.get(pk=cast.day.pk).status == GamingDay.Status.SETUP
    at_both_widths(page, "days-list-open-asks")
    confirm.click()
    page.wait_for_selector("text=Gaming day 2026-09-11 is open.")
    assert page.url.endswith(f"/events/{cast.event.slug}/days/")
    assert page.locator(opener.format(11)).count() == 0
    at_both_widths(page, "days-list-opened")
    assert GamingDay.objects.get(pk=cast.day.pk).status == GamingDay.Status.OPEN
