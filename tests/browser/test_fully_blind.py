"""Fully blind reconciliation in a real browser (issue 7): the cage home, its refresh, the close
page and the event report show no total that gives the bank's books away until its counts are in;
then the DRIC approves with every figure in front of her. In French too."""

import pytest

from tests.browser.conftest import at_both_widths, log_in
from tests.cage.test_fully_blind import HIDDEN, SALES, TRAY, WIN, count_the_bank, reconciled
from tests.conftest import PASSWORD, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_counter_sees_no_total_then_the_dric_sees_every_figure(page):
    cast = make_cast()
    reconciled(cast)
    slug = cast.event.slug
    log_in(page, cast.chip_cashier.user.username, PASSWORD)
    page.goto(f"/cage/{slug}/")
    assert HIDDEN in page.inner_text('#inventory tr[data-place="table:BJ-1"]')
    assert HIDDEN in page.inner_text("#chips-outstanding")
    text = page.inner_text("main")
    assert TRAY not in text and SALES not in text and "$45.00" not in text
    at_both_widths(page, "fully-blind-home")
    page.goto(f"/cage/{slug}/close/")
    assert SALES not in page.inner_text("main") and WIN not in page.inner_text("main")
    at_both_widths(page, "fully-blind-close")
    page.goto(f"/reports/{slug}/")
    assert page.is_visible("#counts-awaited")
    at_both_widths(page, "fully-blind-report")
    page.click("#language-fr-ca")
    page.wait_for_selector("#language-en-ca")
    page.goto(f"/cage/{slug}/")
    assert "comptage à l’aveugle" in page.inner_text("#chips-outstanding")
    at_both_widths(page, "fully-blind-home-fr")
    page.goto(f"/cage/{slug}/close/")
    at_both_widths(page, "fully-blind-close-fr")

    count_the_bank(cast)
    page.context.clear_cookies()
    log_in(page, cast.dric.user.username, PASSWORD)
    page.goto(f"/cage/{slug}/close/")
    totals = page.inner_text("#sheet-totals")
    assert SALES in totals and WIN in totals and "hidden" not in totals
    assert TRAY in page.inner_text("#sheet-tables")
    at_both_widths(page, "fully-blind-close-counted")


def test_before_the_floor_closes_the_cashier_counts_blind_and_the_dric_sees_the_books(browser, live_server):
    """Blind stays blind on an open day too (issue 25): the General Cashier's close page and cage
    home show no expected figure of bank cash once it moved today, until her count is in; the
    DRIC's show it. Each in their own browser, at both widths."""
    from cage import services
    from tests.browser.conftest import person_page
    from tests.cage.helpers import SALE_SIGNED, stock

    cast = make_cast()
    stock(cast, chips={"1": 1000, "5": 400}, cash=100_000)
    services.sale(day=cast.day, chips={"1": 45}, cash=4_500, signed=cast.signed(**SALE_SIGNED))
    slug = cast.event.slug
    cashier = person_page(browser, live_server, cast.general_cashier)
    dric = person_page(browser, live_server, cast.dric)
    cashier.goto(f"/cage/{slug}/close/")
    assert "$1,045.00" not in cashier.inner_text("main")
    assert "Counted blind" in cashier.inner_text("#sheet-cage_accountability")
    at_both_widths(cashier, "blind-open-day-close")
    cashier.goto(f"/cage/{slug}/")
    assert "Counted blind" in cashier.inner_text('#inventory tr[data-place="bank_cash"]')
    at_both_widths(cashier, "blind-open-day-home")
    dric.goto(f"/cage/{slug}/close/")
    assert "$1,045.00" in dric.inner_text("#sheet-cage_accountability")
    at_both_widths(dric, "blind-open-day-close-dric")
    cashier.context.close()
    dric.context.close()
