"""A cashier's terminal picks the 80 mm receipt on a slip's page; every later print from that browser,
of that slip and of the next, is a receipt. And a slip's page printed from the browser shows the slip,
not its buttons, navigation or forms (static/site.css, @media print)."""

import subprocess

import pytest
from django.urls import reverse

from cage import services
from cage.models import SlipPrint
from tests.browser.conftest import ARTIFACTS, at_both_widths, follow, person_page, screenshot
from tests.cage.helpers import SALE_SIGNED
from tests.cage.test_views import fill_in_transit
from tests.conftest import make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RECEIPT_WIDTH = 226.77  # 80 mm in points


def printed_pdf(page, slip, name: str) -> float:
    """Print the slip from its page, as the cashier does; fetch the copy just printed with this
    browser's own cookies, keep a picture of it, and give its page width in points."""
    before = SlipPrint.objects.filter(slip=slip).count()
    with page.context.expect_page() as opened:
        page.click("#print-slip")
    opened.value.close()
    copy = SlipPrint.objects.filter(slip=slip).order_by("pk")
    assert copy.count() == before + 1
    url = reverse("cage:slip_pdf", args=[slip.event.slug, slip.pk]) + f"?copy={copy.last().pk}"
    response = page.context.request.get(url)
    assert response.ok and response.headers["content-type"] == "application/pdf"
    ARTIFACTS.mkdir(exist_ok=True)
    pdf = ARTIFACTS / f"{name}.pdf"
    pdf.write_bytes(response.body())
    subprocess.run(["pdftoppm", "-png", "-r", "100", "-singlefile", str(pdf), str(ARTIFACTS / name)], check=False)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    size = next(line for line in info.splitlines() if line.startswith("Page size:"))
    return float(size.split()[2])


def test_the_receipt_chosen_on_a_slips_page_is_the_terminals_for_every_later_print(client, browser, live_server):
    cast = make_cast()
    fill = fill_in_transit(client, cast)
    sale = services.sale(day=cast.day, chips={"5": 4}, cash=2000, signed=cast.signed(**SALE_SIGNED))

    cashier = person_page(browser, live_server, cast.chip_cashier)
    try:
        cashier.goto(reverse("cage:slip", args=[cast.event.slug, fill.pk]))
        assert cashier.is_checked("#print-terminal input[value=letter]")  # letter until the terminal chooses
        at_both_widths(cashier, "slip-print-terminal-letter")
        assert printed_pdf(cashier, fill, "slip-print-terminal-letter-pdf") == 612.0

        cashier.check("#print-terminal input[value=receipt]")
        follow(cashier, "#print-terminal-keep")
        assert "This terminal prints slips on 80 mm receipts." in cashier.inner_text(".messages")
        assert cashier.is_checked("#print-terminal input[value=receipt]")
        at_both_widths(cashier, "slip-print-terminal-receipt")
        assert abs(printed_pdf(cashier, fill, "slip-print-terminal-receipt-reprint") - RECEIPT_WIDTH) < 0.1

        # The next slip, later, from the same terminal: the receipt is remembered.
        cashier.goto(reverse("cage:slip", args=[cast.event.slug, sale.pk]))
        assert cashier.is_checked("#print-terminal input[value=receipt]")
        assert abs(printed_pdf(cashier, sale, "slip-print-terminal-receipt-sale") - RECEIPT_WIDTH) < 0.1
        cashier.reload()
        assert cashier.locator(".slip-actions #print-slip").inner_text() == "Reprint"
    finally:
        cashier.context.close()


def test_a_slip_page_printed_from_the_browser_shows_no_buttons_navigation_or_forms(client, browser, live_server):
    cast = make_cast()
    fill = fill_in_transit(client, cast)
    cashier = person_page(browser, live_server, cast.chip_cashier)
    try:
        cashier.goto(reverse("cage:slip", args=[cast.event.slug, fill.pk]))
        assert cashier.is_visible("#print-slip") and cashier.is_visible("nav.event")
        cashier.emulate_media(media="print")
        for hidden in ("header", "nav.event", "#print-slip", "#print-terminal", "#sign-with-pin", ".slip-actions"):
            assert not cashier.is_visible(hidden), hidden
        assert cashier.locator("button:visible, form:visible, nav:visible").count() == 0
        for shown in ("h1", "#chips", "#signatures"):
            assert cashier.is_visible(shown), shown
        screenshot(cashier, "slip-page-printed")
    finally:
        cashier.context.close()
