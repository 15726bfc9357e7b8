"""A DRIC sets up a table and a Chip Cashier records a fill, in a real browser."""

import pytest
from playwright.sync_api import expect

from cage.models import Slip
from events.models import GameTable
from tests.browser.conftest import log_in, person_page, screenshot
from tests.cage.helpers import open_table, stock
from tests.conftest import PASSWORD, PIN, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_dric_logs_in_and_creates_a_table(page):
    cast = make_cast()
    log_in(page, cast.dric.user.username, PASSWORD)
    page.click("text=Lakeside Fall Fair Casino")
    page.click("nav.event >> text=Tables")
    page.fill("#table-form input[name=code]", "CR-1")
    # The form offers only the licence's games; a page kept open while the licence lost craps
    # still posts it, and the service refuses it with its rule.
    offered = page.eval_on_selector_all("#table-form select[name=game] option", "os => os.map(o => o.value)")
    assert offered == ["blackjack", "wheel_of_fortune"]
    page.eval_on_selector("#table-form select[name=game]", "s => s.add(new Option('Craps', 'craps'))")
    page.select_option("#table-form select[name=game]", "craps")
    page.click("#table-form button[type=submit]")
    page.wait_for_selector("text=The licence does not authorize Craps")
    assert "(T&C 1.5.1)" in page.inner_text(".errorlist")
    page.fill("#table-form input[name=code]", "BJ-2")
    page.select_option("#table-form select[name=game]", "blackjack")
    page.click("#table-form button[type=submit]")
    page.wait_for_selector("text=Table BJ-2 set up.")
    assert "BJ-2" in page.inner_text("table#tables")
    screenshot(page, "dric-tables")
    assert GameTable.objects.filter(event=cast.event, code="BJ-2", game="blackjack").exists()
    assert not GameTable.objects.filter(code="CR-1").exists()


def test_a_fill_is_issued_at_the_cage_received_at_the_table_and_approved_from_the_queue(browser, live_server):
    cast = make_cast()
    stock(cast)
    open_table(cast)
    cc, dealer, dric = (person_page(browser, live_server, p) for p in (cast.chip_cashier, cast.dealer, cast.dric))

    cc.goto(f"/cage/{cast.event.slug}/")
    cc.click("#slip-types >> text=Fill")
    cc.select_option("select[name=table]", label="table BJ-1")
    cc.select_option("select[name=runner]", label="Runner")
    cc.fill("input[name=chips_5]", "40")
    expect(cc.locator("#chips-total")).to_have_text("$200.00")  # once its script has run
    # The runner chosen above signs as carried by: named in the row, not chosen a second time.
    expect(cc.locator("tr[data-runner-signs] .runner-named")).to_have_text("Runner")
    assert cc.locator("select[name=sign_carried_by]").count() == 0
    cc.fill("input[name=pin_carried_by]", PIN)
    screenshot(cc, "cc-fill-form")
    cc.click("#slip-form button[type=submit]")
    cc.wait_for_selector("text=Fill 1 recorded. In transit")
    screenshot(cc, "cc-fill-in-transit")
    assert "In transit" in cc.inner_text("h1")

    dealer.goto(f"/cage/{cast.event.slug}/me/")
    dealer.click("#to-sign summary:text-is('Sign as “received by”…')")
    assert "Sign Fill 1 as “received by”? A signature is not taken back." in dealer.inner_text("#to-sign")
    dealer.click("#to-sign button:text-is('Yes, sign as “received by”')")
    dealer.wait_for_selector("text=Dealer signed Fill 1 as “received by”.")

    dric.goto(f"/cage/{cast.event.slug}/queue/")
    assert "Fill 1" in dric.inner_text("#queue")
    dric.click("#queue >> text=Approve")
    dric.wait_for_selector("text=Fill 1 approved.")
    slip = Slip.objects.get(slip_type="fill")
    assert {s.capacity: s.person for s in slip.signatures.all()} == {
        "issued_by": cast.chip_cashier,
        "carried_by": cast.runner,
        "received_by": cast.dealer,
        "authorized_by": cast.dric,
    }


def test_a_sale_fills_in_its_cash_from_the_chips_and_a_debit_card_is_refused(page):
    cast = make_cast()
    stock(cast)
    log_in(page, cast.chip_cashier.user.username, PASSWORD)
    page.goto(f"/cage/{cast.event.slug}/slips/new/sale/")
    page.fill("input[name=chips_5]", "3")
    page.fill("input[name=chips_25]", "2")
    assert page.input_value("input[name=cash]") == "65.00"
    # Only Canadian cash is offered: the page says so, and offers no other tender to choose.
    assert page.locator("select[name=tender]").count() == 0
    assert "Paid with Canadian cash only" in page.inner_text("#tender-note")
    # A debit card sent anyway (a page of an older version, a hand-made request) is refused by the
    # service, with its rule.
    page.evaluate("document.querySelector('input[name=tender]').value = 'debit'")
    page.click("#slip-form button[type=submit]")
    page.wait_for_selector("text=no credit of any kind, debit or credit cards or cheques (T&C 3.7)")
    screenshot(page, "cc-sale-debit-refused")
    assert not Slip.objects.filter(slip_type="sale").exists()
    assert page.input_value("input[name=chips_25]") == "2"
    page.evaluate("document.querySelector('input[name=tender]').value = 'cad_cash'")
    page.click("#slip-form button[type=submit]")
    page.wait_for_selector("text=Chip sale 1 recorded. Still to sign: “authorized by” (DRIC).")
    assert Slip.objects.get(slip_type="sale").details["chips"] == {"5": 3, "25": 2}


def test_a_runner_sells_from_the_tablet_and_the_cash_typed_is_kept(browser, live_server):
    cast = make_cast()
    stock(cast)
    from cage import services

    services.runner_issue(
        day=cast.day,
        runner=cast.runner,
        chips={"5": 10},
        signed=cast.signed(issued_by="chip_cashier", received_by="runner"),
    )
    rita = person_page(browser, live_server, cast.runner, width=768, height=1024)
    rita.goto(f"/cage/{cast.event.slug}/me/")
    rita.click("text=Sell chips to a patron")
    rita.wait_for_url("**/slips/new/sale/")
    expect(rita.locator("input[name=pin_sold_by]")).to_be_hidden()  # her own signature needs no PIN
    expect(rita.locator("input[name=pin_authorized_by]")).to_be_hidden()  # the DRIC signs later
    rita.fill("input[name=chips_5]", "2")
    assert rita.input_value("input[name=cash]") == "10.00"
    rita.fill("input[name=cash]", "9,50")
    rita.fill("input[name=chips_5]", "3")
    assert rita.input_value("input[name=cash]") == "9,50"  # what she typed is not overwritten
    rita.click("#slip-form button[type=submit]")
    rita.wait_for_selector("text=for $9.50 cash would give $5.50 of chips on credit")
    screenshot(rita, "runner-sale-refused-768")
    rita.fill("input[name=cash]", "15")
    # The same form sent twice: a double tap, or a resubmission (the page is no-store, so the back
    # button asks the browser to send the form again rather than show a kept copy). One slip.
    sent = rita.evaluate(
        "f => fetch(f.action, {method: 'POST', body: new FormData(f), credentials: 'same-origin'}).then(r => r.ok)",
        rita.locator("#slip-form").element_handle(),
    )
    assert sent and Slip.objects.filter(slip_type="sale").count() == 1
    expect(rita.locator("input[name=pin_sold_by]")).to_be_hidden()
    rita.click("#slip-form button[type=submit]")
    rita.wait_for_selector("text=This slip was already recorded as Chip sale 1.")
    assert Slip.objects.filter(slip_type="sale").count() == 1
