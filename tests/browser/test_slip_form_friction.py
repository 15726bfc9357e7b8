"""The slip form at speed, in a real browser at the cage's width and a tablet's, in English and in
French: a sale by its chips with the cash filled in, Record another, a mistyped count shown as not
a count, and the same sale again within a minute asked about before it is recorded. In French the
structure is checked (the ids, the fields, what is recorded), not the words."""

import pytest
from playwright.sync_api import expect

from cage.models import Slip
from tests.browser.conftest import WIDTHS, follow, log_in, screenshot
from tests.browser.test_cage_french import in_french
from tests.cage.helpers import stock
from tests.conftest import PASSWORD, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def in_language(page, language):
    if language == "fr":
        in_french(page)


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("width", WIDTHS)
def test_a_sale_by_its_chips_record_another_a_mistyped_count_and_the_same_sale_again(page, width, language):
    cast = make_cast()
    stock(cast)
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, cast.chip_cashier.user.username, PASSWORD)
    in_language(page, language)
    name = f"slip-form-friction-{language}-{width}"
    page.goto(f"/cage/{cast.event.slug}/slips/new/sale/")
    assert page.locator("select[name=tender]").count() == 0 and page.locator("#tender-note").is_visible()

    # A mistyped count shows as not a count, never as a number, and fills in no cash.
    page.fill("input[name=chips_5]", "2O")
    expect(page.locator("input[name=chips_5]")).to_have_attribute("aria-invalid", "true")
    total = page.inner_text("#chips-total")
    assert not any(c.isdigit() for c in total), total
    assert page.input_value("input[name=cash]") == ""
    assert not any(c.isdigit() for c in page.inner_text('.line-total[data-for="id_chips_5"]'))
    page.fill("input[name=chips_25]", "1.5")
    expect(page.locator("input[name=chips_25]")).to_have_attribute("aria-invalid", "true")
    screenshot(page, f"{name}-not-a-count")
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    # Sent as it is: the empty cash does not stop it (no "Please fill out this field" on the cash
    # before the count's own refusal); the server refuses each count by name, listed at the top one
    # a line, each leading to its field, and the keyboard is at the first of them.
    assert page.evaluate("document.querySelector('input[name=cash]').validationMessage") == ""
    follow(page, "#slip-form button[type=submit]")
    refusals = page.locator("#form-refusals li")
    expect(refusals).to_have_count(2)
    assert "2O" in refusals.nth(0).inner_text() and "1.5" in refusals.nth(1).inner_text()
    assert [refusals.nth(i).locator("a").get_attribute("href") for i in (0, 1)] == ["#id_chips_5", "#id_chips_25"]
    # The browser gives autofocus once the page is rendered: waited for, not read at once.
    expect(page.locator("input[name=chips_5]")).to_be_focused()
    first, second = (refusals.nth(i).bounding_box() for i in (0, 1))
    assert second["y"] >= first["y"] + first["height"]  # one a line, with room between them
    screenshot(page, f"{name}-count-refused")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert not Slip.objects.filter(slip_type="sale").exists()

    # Counted right: the cash, sent empty, follows the chips again for the cashier to check.
    page.fill("input[name=chips_25]", "")
    page.fill("input[name=chips_5]", "20")
    expect(page.locator("input[name=chips_5]")).not_to_have_attribute("aria-invalid", "true")
    assert page.input_value("input[name=cash]") == ("100,00" if language == "fr" else "100.00")
    screenshot(page, f"{name}-filled")
    follow(page, "#slip-form button[type=submit]")
    sale = Slip.objects.get(slip_type="sale")
    assert sale.details["chips"] == {"5": 20}

    # Record another: the same type, nothing else kept.
    expect(page.locator("#record-another")).to_be_visible()
    screenshot(page, f"{name}-recorded")
    follow(page, "#record-another")
    assert page.url.endswith(f"/cage/{cast.event.slug}/slips/new/sale/")
    assert page.input_value("input[name=chips_5]") == "" and page.input_value("input[name=cash]") == ""

    # The same sale again within a minute: asked about, then recorded once confirmed.
    page.fill("input[name=chips_5]", "20")
    follow(page, "#slip-form button[type=submit]")
    expect(page.locator("#confirm-second input[type=checkbox]")).to_be_visible()
    expect(page.locator("#form-refusals")).to_be_focused()  # refused as a whole
    assert Slip.objects.filter(slip_type="sale").count() == 1
    screenshot(page, f"{name}-second")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.check("#confirm-second input[type=checkbox]")
    follow(page, "#slip-form button[type=submit]")
    assert Slip.objects.filter(slip_type="sale").count() == 2

    # Back to the form that recorded it: it says so, and offers no form to send again.
    page.go_back()
    page.wait_for_selector("#form-recorded")
    assert page.locator("#slip-form").count() == 0
    assert page.locator(f"#form-recorded a[href$='/slips/{Slip.objects.latest('id').pk}/']").count() == 1
    screenshot(page, f"{name}-back")
    assert Slip.objects.filter(slip_type="sale").count() == 2
