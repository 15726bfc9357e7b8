"""The General Cashier counts bank cash by bill and coin, counts the chip bank and the tip pool, and
the day closes, all from the pages; while the day reconciles, the counts are blind."""

import pytest
from playwright.sync_api import expect

from cage import services
from cage.models import CloseSignature, Slip
from events.models import GamingDay
from tests.browser.conftest import at_both_widths, follow, log_in, person_page, screenshot
from tests.cage.helpers import SALE_SIGNED, open_table, stock
from tests.conftest import PASSWORD, PIN, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_bank_cash_is_counted_by_bill_and_coin_and_the_day_closes(page):
    cast = make_cast()
    stock(cast, chips={"1": 40, "5": 10}, cash=18_065)  # $180.65 in the bank
    slug = cast.event.slug
    log_in(page, cast.general_cashier.user.username, PASSWORD)

    page.goto(f"/cage/{slug}/close/")
    problems = page.inner_text("#close-problems")
    assert "bank cash has not been counted since its last movement" in problems
    assert page.locator("#close-form").count() == 0
    screenshot(page, "close-blocked")

    # Blind: the count form shows no expected figure before the count is in.
    follow(page, "text=Count bank cash (bills and coins)")
    assert "Expected" not in page.inner_text("main")
    assert page.input_value("select[name=account]") == "bank_cash"
    expect(page.locator("#chip-counts")).to_be_hidden()
    for field, count in (
        ("cash_10000", "1"),
        ("cash_2000", "3"),
        ("cash_1000", "2"),
        ("cash_25", "2"),
        ("cash_5", "3"),
    ):
        page.fill(f"input[name={field}]", count)
    expect(page.locator("#cash-total")).to_have_text("$180.65")
    page.select_option("select[name=sign_verified_by]", label="Chip Cashier")
    page.fill("input[name=pin_verified_by]", PIN)
    screenshot(page, "count-bank-cash")
    page.keyboard.press("Enter")
    page.wait_for_selector("text=Count 1 recorded.")
    count = Slip.objects.get(slip_type="count")
    assert count.details["cash"] == 18_065 and not count.postings.exists()  # counted as the books say
    assert "$20 bills" in page.inner_text("#cash-lines")

    page.goto(f"/cage/{slug}/close/")
    page.click("text=Count the chip bank")
    page.select_option("select[name=account]", "chip_bank")
    page.fill("input[name=chips_1]", "39")
    page.fill("input[name=chips_5]", "10")
    page.select_option("select[name=sign_verified_by]", label="Chip Cashier")
    page.fill("input[name=pin_verified_by]", PIN)
    page.click("#slip-form button[type=submit]")
    # A blind count: the books show only now, beside the count, and the variance needs a reason.
    page.wait_for_selector("text=choose a reason for the variance")
    books = page.inner_text("#expected-and-counted")
    assert "40 · $40.00" in books and "39 · $39.00" in books and "-$1.00" in books
    assert page.input_value("input[name=chips_1]") == "39"  # what was typed is kept, the PIN is not
    assert page.input_value("input[name=pin_verified_by]") == ""
    page.select_option("select[name=variance_reason]", "missing_chips")
    page.fill("textarea[name=reason]", "one $1 chip missing")
    page.fill("input[name=pin_verified_by]", PIN)
    page.click("#slip-form button[type=submit]")
    page.wait_for_selector("text=Count 2 recorded.")

    page.goto(f"/cage/{slug}/close/")
    page.select_option("select[name=sign_verified_by]", label="Chip Cashier")
    page.fill("input[name=pin_verified_by]", PIN)
    page.select_option("select[name=sign_approved_by]", label="Dric")
    page.fill("input[name=pin_approved_by]", PIN)
    screenshot(page, "close-form")
    page.click("#close-form button[type=submit]")
    page.wait_for_selector("text=closed and locked")
    assert GamingDay.objects.get(pk=cast.day.pk).status == GamingDay.Status.CLOSED
    page.set_viewport_size({"width": 768, "height": 1024})
    screenshot(page, "closed-home-768")


def test_the_floor_closes_and_every_place_is_counted_blind_the_tip_pool_too(page):
    cast = make_cast()
    stock(cast, chips={"1": 200, "5": 80}, cash=100_000)
    open_table(cast)
    services.sale(day=cast.day, chips={"1": 45}, cash=4_500, signed=cast.signed(**SALE_SIGNED))
    for box in (4, 5):
        services.tips(
            day=cast.day,
            table=cast.bj,
            chips={"1": box},
            signed=cast.signed(counted_by="dealer", verified_by="chip_cashier"),
        )
    services.table_close(
        day=cast.day,
        table=cast.bj,
        chips={"1": 130, "5": 80},
        signed=cast.signed(counted_by="dealer", verified_by="chip_cashier"),
    )
    slug = cast.event.slug
    log_in(page, cast.general_cashier.user.username, PASSWORD)
    page.goto(f"/cage/{slug}/")
    # Open, bank cash moved today: blind to the General Cashier who counts it tonight (issue 25).
    assert "Counted blind" in page.inner_text("tr[data-place=bank_cash]")
    page.click("text=Close the floor and reconcile")
    page.wait_for_selector("text=the nightly reconciliation has started")
    # The counts and the close come next: the floor closes onto the close page.
    assert page.url.endswith(f"/cage/{slug}/close/")
    page.goto(f"/cage/{slug}/")

    # Reconciling: every counted place is blind until its count is in, and so are the totals.
    for place in ("bank_cash", "chip_bank", "tip_pool"):
        assert "Counted blind" in page.inner_text(f"tr[data-place={place}]")
    assert "$1,045.00" not in page.inner_text("main") and "$9.00" not in page.inner_text("#inventory")
    # A tray would give the chip bank's books away: it waits for the bank's counts too.
    tray = page.inner_text("tr[data-place='table:BJ-1']")
    assert "130" not in tray and "Hidden until the counts are in (blind count)" in tray
    at_both_widths(page, "reconcile-blind-home")

    page.goto(f"/cage/{slug}/close/")
    assert "the tip pool has not been counted since the last tips were put in" in page.inner_text("#close-problems")
    follow(page, ".count-links >> text=Count the tip pool")
    assert page.input_value("select[name=account]") == "tip_pool"
    expect(page.locator("#cash-counts")).to_be_hidden()
    assert "Expected" not in page.inner_text("main")
    page.fill("input[name=chips_1]", "8")
    page.select_option("select[name=sign_verified_by]", label="Chip Cashier")
    page.fill("input[name=pin_verified_by]", PIN)
    page.click("#slip-form button[type=submit]")
    page.wait_for_selector("#expected-and-counted")
    books = page.inner_text("#expected-and-counted")
    assert "9 · $9.00" in books and "8 · $8.00" in books and "-$1.00" in books
    # The count stands as typed: its figures are text, not boxes that look editable.
    assert page.get_attribute("input[name=chips_1]", "type") == "hidden"
    assert page.locator("#chip-counts .locked-figure").first.inner_text() == "8"
    assert page.inner_text("#chips-total") == "$8.00"  # each figure sent back and added once
    at_both_widths(page, "reconcile-tip-pool-books")
    page.select_option("select[name=variance_reason]", "missing_chips")
    page.fill("textarea[name=reason]", "one $1 chip missing from the tip box")
    page.fill("input[name=pin_verified_by]", PIN)
    page.click("#slip-form button[type=submit]")
    page.wait_for_selector("text=Count 1 recorded.")
    assert "tip pool" in page.inner_text("#postings")

    page.goto(f"/cage/{slug}/")
    assert "$8.00" in page.inner_text("tr[data-place=tip_pool]")  # counted: the books show again
    assert "Counted blind" in page.inner_text("tr[data-place=bank_cash]")
    assert "the tip pool has not been counted" not in page.inner_text("main")

    # The floor is closed: the window offers no opener, fill or sale (the services refuse them).
    links = page.inner_text("#slip-types")
    offered = set(page.eval_on_selector_all("#slip-types a", "links => links.map(a => a.textContent.trim())"))
    assert not {"Opener", "Fill", "Credit", "Chip sale", "Runner issue", "Closer"} & offered
    assert "Redemption" in links and "Count" in links

    # The close's checklist ticks the tip pool's count, with who counted it.
    page.goto(f"/cage/{slug}/close/")
    done = page.inner_text("#close-tip-count li.done[data-place=tip_pool]")
    assert "✓" in done and f"counted by {cast.general_cashier.name}" in done
    # Not offered as a task again; only as a recount, beside the count.
    assert page.locator("#close-tip-count a:not(.recount)[href$='?account=tip_pool']").count() == 0
    assert page.locator("#close-tip-count li.done[data-place=tip_pool] a.recount").count() == 1
    at_both_widths(page, "close-checklist-done")

    # No reason is chosen for the counter; a variance without one is refused.
    follow(page, ".count-links >> text=Count the chip bank")
    assert page.input_value("select[name=variance_reason]") == ""
    assert page.inner_text("select[name=variance_reason] option:checked") == "Choose a reason…"
    page.fill("input[name=chips_1]", "50")  # the books say 55
    page.select_option("select[name=sign_verified_by]", label="Chip Cashier")
    page.fill("input[name=pin_verified_by]", PIN)
    page.click("#slip-form button[type=submit]")
    page.wait_for_selector("text=choose a reason for the variance")
    assert not Slip.objects.filter(slip_type="count", account__code="chip_bank").exists()

    # Opened again from the close: the count stands as first typed, shown as the counter's own.
    page.goto(f"/cage/{slug}/close/")
    follow(page, ".count-links >> text=Count the chip bank")
    standing = page.inner_text("#count-standing")
    assert "stands as first typed" in standing and "50 × $1 chips" in standing
    assert page.input_value("input[name=chips_1]") == "50" and "Expected" not in page.inner_text("main")
    at_both_widths(page, "count-standing")
    page.select_option("select[name=variance_reason]", "missing_chips")
    page.select_option("select[name=sign_verified_by]", label="Chip Cashier")
    page.fill("input[name=pin_verified_by]", PIN)
    page.click("#slip-form button[type=submit]")
    page.wait_for_selector("text=Count 2 recorded.")

    # Bank cash counted too: what the close needs is in, but the runners are still counted blind,
    # so the home says their counts are awaited, not that the day is ready.
    services.count(
        day=cast.day,
        account=services.account_get(cast.event, "bank_cash"),
        cash=104_500,
        signed=cast.signed(counted_by="general_cashier", verified_by="chip_cashier"),
    )
    # The runners were neither on the day's roster nor moved: the close does not count them
    # (counts.runners_to_count), so the home says the day is ready.
    page.goto(f"/cage/{slug}/")
    assert page.locator("#counts-awaited").count() == 0
    assert "Ready to close" in page.inner_text("#close-ready")
    at_both_widths(page, "home-ready-to-close")


def test_the_three_sign_the_close_each_in_their_own_browser(browser, live_server):
    """The General Cashier prepares the close; the Chip Cashier verifies it and the DRIC approves it,
    the day's figures in front of her, each logged in on their own browser."""
    cast = make_cast()
    stock(cast, chips={"1": 10}, cash=1000)
    for account, counted in (("bank_cash", {"cash": 1000}), ("chip_bank", {"chips": {"1": 10}})):
        services.count(
            day=cast.day,
            account=services.account_get(cast.event, account),
            signed=cast.signed(counted_by="general_cashier", verified_by="chip_cashier"),
            **counted,
        )
    slug = cast.event.slug
    cashier = person_page(browser, live_server, cast.general_cashier)
    chips = person_page(browser, live_server, cast.chip_cashier)
    dric = person_page(browser, live_server, cast.dric)

    # The Chip Cashier opens the close first: nothing is chosen for her, and clicking gets the
    # app's own message, not only the browser's "required" bubble.
    chips.goto(f"/cage/{slug}/close/")
    assert chips.input_value("select[name=sign_prepared_by]") == ""
    chips.click("#close-form button[type=submit]")
    chips.wait_for_selector("text=Choose who signs as “prepared by” (General Cashier).")
    assert not CloseSignature.objects.exists()

    cashier.goto(f"/cage/{slug}/close/")
    assert cashier.input_value("select[name=sign_verified_by]") == ""  # “Signs later”
    cashier.click("#close-form button[type=submit]")
    cashier.wait_for_selector("text=The close is prepared; it waits for the signatures still missing.")
    assert GamingDay.objects.get(pk=cast.day.pk).status == GamingDay.Status.OPEN
    at_both_widths(cashier, "close-prepared")

    chips.goto(f"/cage/{slug}/")
    assert f"Prepared by {cast.general_cashier.name}" in chips.inner_text("#close-waiting")
    at_both_widths(chips, "close-waiting-home")
    chips.click("#close-waiting >> text=Open the nightly close")
    chips.click("text=Verify the close (Chip Cashier)")
    chips.wait_for_selector(f"text={cast.chip_cashier.name} signed the close as “verified by”")
    assert chips.locator("text=Verify the close (Chip Cashier)").count() == 0

    dric.goto(f"/cage/{slug}/queue/")
    assert "approved by" in dric.inner_text("#close-waiting")
    at_both_widths(dric, "close-waiting-queue")
    dric.click("#close-waiting >> text=Open the nightly close")
    assert "Bank cash" in dric.inner_text("#day-figures") or "Summary" in dric.inner_text("#day-figures")
    assert "Expected $10.00 · counted $10.00 · over/short $0.00" in dric.inner_text("#close-counts")
    at_both_widths(dric, "close-dric-approves")
    dric.click("text=Approve the close (DRIC)")
    dric.wait_for_selector("text=closed and locked")
    assert GamingDay.objects.get(pk=cast.day.pk).status == GamingDay.Status.CLOSED
    signed = {s.capacity: s.person for s in Slip.objects.get(slip_type="close_day").signatures.all()}
    assert signed == {
        "prepared_by": cast.general_cashier,
        "verified_by": cast.chip_cashier,
        "approved_by": cast.dric,
    }
    for p in (cashier, chips, dric):
        p.context.close()
