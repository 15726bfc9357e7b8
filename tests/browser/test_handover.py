"""A shift handover in real browsers, each cashier in their own: the outgoing General Cashier
counts bank cash with the incoming one, who signs with her PIN; from then on the incoming cashier
pays redemptions and the outgoing one is refused. At the cage's width and a tablet's, in English
and French (in French the structure is checked, not the words)."""

import pytest

from tests.browser.conftest import WIDTHS, at_both_widths, follow, person_page
from tests.cage.test_handover import on_duty
from tests.conftest import PIN, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def hand_over(page, slug, incoming):
    page.goto(f"/cage/{slug}/slips/new/handover/")
    page.select_option("select[name=place]", "bank_cash")
    assert page.is_visible("#cash-counts") and page.is_hidden("#chip-counts")
    # Blind: nothing of the books on the form before the count is recorded.
    assert "$1,045.00" not in page.inner_text("main")
    for cents, pieces in ((10000, 10), (2000, 2), (500, 1)):
        page.fill(f"input[name=cash_{cents}]", str(pieces))
    page.select_option("select[name=sign_taken_over_by]", str(incoming.pk))
    page.fill("input[name=pin_taken_over_by]", PIN)
    follow(page, "#slip-form button[type=submit]")


def redeem(page, slug):
    page.goto(f"/cage/{slug}/slips/new/redemption/")
    page.fill("input[name=chips_1]", "5")
    page.fill("input[name=cash]", "5.00")
    follow(page, "#slip-form button[type=submit]")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_outgoing_cashier_hands_bank_cash_over_and_the_incoming_one_holds_it(browser, live_server, width):
    cast = make_cast()
    on_duty(cast)
    slug = cast.event.slug
    outgoing = person_page(browser, live_server, cast.general_cashier, width=width, height=900)
    incoming = person_page(browser, live_server, cast.gc2, width=width, height=900)

    hand_over(outgoing, slug, cast.gc2)
    assert "Shift handover 1" in outgoing.inner_text("main")
    facts = outgoing.inner_text("main")
    assert "Gc2" in facts and "$1,045.00" in facts  # counted, beside the books, once recorded
    assert "Expected" in facts and "Difference" in facts
    at_both_widths(outgoing, f"handover-recorded-from-{width}")

    # The outgoing cashier no longer pays out of bank cash: her redemption form no longer offers her
    # (the service refuses her too, tests/cage/test_handover.py); the incoming one pays.
    outgoing.goto(f"/cage/{slug}/slips/new/redemption/")
    paid_by = outgoing.locator("select[name=sign_paid_by] option").all_inner_texts()
    assert "Gc2" in paid_by and cast.general_cashier.name not in paid_by
    redeem(incoming, slug)
    assert "Redemption 1" in incoming.inner_text("main")

    # The day's sheets show the handover.
    incoming.goto(f"/reports/{slug}/days/{cast.day.date.isoformat()}/")
    sheet = incoming.inner_text("#sheet-handovers")
    assert "General Cashier" in sheet and "Gc2" in sheet and "$1,045.00" in sheet
    at_both_widths(incoming, f"handover-sheets-{width}")

    # In French: the same form, the same places and the same signatures.
    incoming.click("#language-fr-ca")
    incoming.wait_for_selector("#language-en-ca")
    incoming.goto(f"/cage/{slug}/slips/new/handover/")
    assert incoming.locator("select[name=place] option").count() == 2
    # She hands over as herself (no PIN of her own); the one taking over signs with theirs.
    assert incoming.input_value("select[name=sign_handed_over_by]") == str(cast.gc2.pk)
    incoming.select_option("select[name=sign_taken_over_by]", str(cast.general_cashier.pk))
    assert incoming.is_hidden("input[name=pin_handed_over_by]") and incoming.is_visible("input[name=pin_taken_over_by]")
    incoming.select_option("select[name=place]", "chip_bank")
    assert incoming.is_visible("#chip-counts") and incoming.is_hidden("#cash-counts")
    at_both_widths(incoming, f"handover-form-fr-{width}")
    outgoing.context.close()
    incoming.context.close()


def test_the_lists_of_who_signs_follow_the_place_handed_over(browser, live_server):
    """A Chip Cashier is never offered to take over bank cash, nor a General Cashier the chip bank:
    the lists change with the place chosen, and one chosen for the other place is unchosen."""
    cast = make_cast()
    on_duty(cast)
    page = person_page(browser, live_server, cast.general_cashier, width=1366, height=900)
    page.goto(f"/cage/{cast.event.slug}/slips/new/handover/")

    def offered(capacity):
        return set(
            page.eval_on_selector_all(
                f"select[name=sign_{capacity}] option[data-place]",
                "options => options.filter(o => !o.hidden && !o.disabled).map(o => o.textContent)",
            )
        )

    assert page.input_value("select[name=place]") == "bank_cash"
    assert offered("handed_over_by") == offered("taken_over_by") == {"General Cashier", "Gc2"}
    page.select_option("select[name=sign_taken_over_by]", str(cast.gc2.pk))
    page.select_option("select[name=place]", "chip_bank")
    assert offered("handed_over_by") == offered("taken_over_by") == {"Chip Cashier", "Cc2"}
    # The General Cashiers chosen for bank cash are unchosen, and no PIN is asked of nobody.
    assert page.input_value("select[name=sign_taken_over_by]") == ""
    assert page.input_value("select[name=sign_handed_over_by]") == ""
    assert page.is_hidden("input[name=pin_taken_over_by]")
    page.select_option("select[name=sign_taken_over_by]", str(cast.cc2.pk))
    assert page.is_visible("input[name=pin_taken_over_by]")
    at_both_widths(page, "handover-lists-chip-bank")
    page.select_option("select[name=place]", "bank_cash")
    assert offered("taken_over_by") == {"General Cashier", "Gc2"}
    assert page.input_value("select[name=sign_taken_over_by]") == ""
    page.context.close()
