"""The DRIC opens the register of slips from the navigation, narrows it to fills, and reads the
voids and serials; at a laptop's width and a tablet's."""

import pytest

from tests.browser.conftest import at_both_widths, log_in
from tests.cage.test_registers import two_days
from tests.conftest import PASSWORD, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def slips_listed(page) -> list[str]:
    return page.locator("#register tbody td:first-child a").all_inner_texts()


def test_the_dric_filters_the_register_by_slip_type(page):
    cast = two_days(make_cast())
    page.set_viewport_size({"width": 1366, "height": 900})
    log_in(page, cast.dric.user.username, PASSWORD)
    page.goto(f"/events/{cast.event.slug}/")
    page.click("nav.event >> text=Register")
    page.wait_for_selector("#register")
    assert len(slips_listed(page)) == 17
    at_both_widths(page, "register-all")

    page.set_viewport_size({"width": 1366, "height": 900})
    page.select_option("#id_type", label="Fill")
    page.click("#register-filter button[type=submit]")
    page.wait_for_url("**type=fill**")
    assert slips_listed(page) == ["Fill 1", "Fill 2"]
    assert page.inner_text("#register-count") == "2 slips"
    rows = page.inner_text("#register tbody")
    assert "40 × $5" in rows and "$200.00" in rows and "In transit" in rows
    at_both_widths(page, "register-fills")

    page.set_viewport_size({"width": 1366, "height": 900})
    page.click("#register thead >> text=Amount")  # the column, not the search box of that name
    page.wait_for_url("**sort=amount**")
    assert slips_listed(page) == ["Fill 2", "Fill 1"]

    page.click("text=Voids and serial numbers")
    page.wait_for_selector("#serials")
    assert "Fill 1–2: all issued" in page.inner_text("#serials")
    assert "Chip sale 1" in page.inner_text("#voids")
    at_both_widths(page, "register-voids")
