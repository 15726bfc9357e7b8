"""The next morning's opener finds a chip fewer than last night's closer left: the Chip Cashier
counts it blind, the slip says it differs, the close page waits, and the DRIC signs it off
from her queue in her own browser."""

import pytest

from cage.models import OpenerSignOff
from tests.browser.conftest import at_both_widths, log_in, person_page
from tests.cage.test_opener_check import first_day_closed
from tests.conftest import PASSWORD, PIN, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_opener_that_differs_from_the_last_closer_is_flagged_and_the_dric_signs_it_off(page, browser, live_server):
    cast = make_cast()
    first_day_closed(cast)  # BJ-1 closed on 2026-09-11 with 100 × $1 and 80 × $5; the 12th is open
    slug = cast.event.slug
    log_in(page, cast.chip_cashier.user.username, PASSWORD)

    page.goto(f"/cage/{slug}/slips/new/table_open/?table={cast.bj.pk}")
    # Counted blind: nothing of last night's closer is filled in; the dealer types what is there.
    assert page.input_value("input[name=chips_1]") == "" and page.input_value("input[name=chips_5]") == ""
    assert "last night's closer is not shown here" in page.inner_text("#opener-blind")
    at_both_widths(page, "opener-blind-form")
    page.fill("input[name=chips_1]", "100")
    page.fill("input[name=chips_5]", "79")
    page.select_option("select[name=sign_counted_by]", label="Dealer")
    page.fill("input[name=pin_counted_by]", PIN)
    page.click("#slip-form button[type=submit]")
    # Refused for its difference: set beside the tray's books, its figures stand as first typed,
    # as text, with their totals; only the reason is left to give.
    page.wait_for_selector("#opener-standing")
    assert "1 chip short" in page.inner_text("#slip-form")
    assert page.get_attribute("input[name=chips_5]", "type") == "hidden"
    assert page.locator("#chip-counts .locked-figure").nth(1).inner_text() == "79"
    assert page.inner_text("#chips-total") == "$495.00" and page.inner_text("#chips-count-total") == "179"
    # The dealer counted; the Chip Cashier, whose session this is, verified: each named as such.
    standing = page.inner_text("#opener-standing")
    assert "counted by Dealer and verified by Chip Cashier" in standing and "by Chip Cashier was" not in standing
    # The keyboard is at the reason, the field in error, which lines up with the other fields.
    assert page.evaluate("document.activeElement.name") == "reason"
    assert "#id_reason" == page.get_attribute("#form-refusals a", "href")
    for width in (1366, 768):
        page.set_viewport_size({"width": width, "height": 900})
        reason, box = page.locator("label[for=id_reason]").bounding_box(), page.locator("#id_reason").bounding_box()
        table = page.locator("label[for=id_table]").bounding_box()
        assert reason["x"] == table["x"]  # in line with the table's label, refused or not
        if width == 1366:  # side by side: the label at the box's first line, not at its foot
            assert abs(reason["y"] - box["y"]) < 8, (reason, box)
    at_both_widths(page, "opener-refused-locked")
    page.fill("textarea[name=reason]", "one $5 chip missing from the tray")
    page.fill("input[name=pin_counted_by]", PIN)
    page.click("#slip-form button[type=submit]")
    page.wait_for_selector("text=Opener 2 recorded.")
    facts = page.inner_text("table.facts")
    assert "differs from what Closer 1 of 2026-09-11 left: $5 chips: 1 short" in facts
    assert "not yet: the DRIC signs off the difference" in facts
    assert "the day cannot close until she has" in page.inner_text("#closer-check")
    assert page.locator("#closer-check button").count() == 0  # the Chip Cashier does not sign it off
    at_both_widths(page, "opener-differs-slip")

    page.goto(f"/cage/{slug}/close/")
    assert "Opener 2 (table BJ-1) differs from what Closer 1 of 2026-09-11 left" in page.inner_text("#close-problems")
    assert "Opener 2" in page.inner_text("#close-sign-offs")
    at_both_widths(page, "opener-differs-close")

    ann = person_page(browser, live_server, cast.dric)
    try:
        ann.goto(f"/cage/{slug}/queue/")
        row = ann.locator("#sign-offs tr", has_text="Opener 2")
        assert "$5 chips: 1 short" in row.inner_text() and "one $5 chip missing from the tray" in row.inner_text()
        at_both_widths(ann, "opener-differs-queue")
        row.locator("button:text-is('Sign off')").click()
        ann.wait_for_selector("text=Opener 2: the difference from the last closer is signed off.")
        assert ann.locator("#sign-offs").count() == 0
    finally:
        ann.context.close()
    assert OpenerSignOff.objects.get().person == cast.dric

    page.goto(f"/cage/{slug}/close/")
    assert "differs" not in page.inner_text("#close-problems")  # only the open table is left
    assert "signed off by Dric (DRIC)" in page.inner_text("#day-figures")  # the variance report says so
    page.goto(f"/cage/{slug}/slips/{OpenerSignOff.objects.get().slip_id}/")
    assert "The difference from the last closer is signed off by Dric (DRIC)." in page.inner_text("#closer-check")
    assert "by Dric (DRIC), " in page.inner_text("table.facts")
