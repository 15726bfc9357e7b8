"""A runner opens "Signing PIN" from the header, is refused a weak PIN, and sets their own."""

import pytest
from axes.models import AccessAttempt
from django.test import RequestFactory

from events import services
from tests.browser.conftest import at_both_widths, log_in
from tests.conftest import PASSWORD, PIN, make_cast
from tests.refusals import refuses

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_runner_sets_their_own_signing_pin_from_the_header(page):
    cast = make_cast()
    log_in(page, cast.runner.user.username, PASSWORD)
    page.click("header >> text=Signing PIN")
    page.wait_for_url("**/me/pin/")
    assert "You set your signing PIN on" in page.inner_text("#pin-status")
    for field in ("password", "pin", "pin_again"):
        box = page.locator(f"#pin-form input[name={field}]")
        assert box.get_attribute("type") == "password" and box.get_attribute("autocomplete") == "off"
        assert box.input_value() == ""
    assert page.locator("#pin-form input[inputmode=numeric]").count() == 2
    at_both_widths(page, "pin-page")

    page.fill("input[name=password]", PASSWORD)
    page.fill("input[name=pin]", "4321")
    page.fill("input[name=pin_again]", "4321")
    page.click("#pin-form button[type=submit]")
    page.wait_for_selector("#pin-form .errorlist")
    assert "digits in a row, like 1234 or 4321, is too easy to guess" in page.inner_text("#pin-form")
    assert page.locator("input[name=pin]").input_value() == ""  # never filled back in
    at_both_widths(page, "pin-page-refused")

    page.fill("input[name=password]", PASSWORD)
    page.fill("input[name=pin]", "60917")
    page.fill("input[name=pin_again]", "60917")
    page.click("#pin-form button[type=submit]")
    page.wait_for_selector(".messages .success")
    assert "Your signing PIN is changed." in page.inner_text(".messages")
    at_both_widths(page, "pin-page-changed")

    at_the_cage = RequestFactory().post("/", REMOTE_ADDR="10.0.0.5")
    services.pin_verify(request=at_the_cage, person=cast.runner, pin="60917")
    with refuses("pin.wrong", left=4):
        services.pin_verify(request=at_the_cage, person=cast.runner, pin=PIN)
    # A wrong PIN counts against the PIN, apart from the login (events.lockout).
    assert AccessAttempt.objects.get(username=f"pin:{cast.runner.user.username}").failures_since_start == 1
