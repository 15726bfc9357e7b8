"""A chip transfer between two open tables, in a real browser: the DRIC picks it from the cage's
slip types, names the two tables and the chips, both dealers type their PINs, and its page and
printed slip name both tables. Photographed at a laptop's and a tablet's width."""

import subprocess

import pytest

from cage.models import Slip
from tests.browser.conftest import at_both_widths, follow, log_in
from tests.cage.helpers import open_table, stock
from tests.conftest import PASSWORD, PIN, make_cast

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_dric_writes_a_chip_transfer_and_its_slip_names_both_tables(page, tmp_path):
    cast = make_cast()
    stock(cast)
    open_table(cast, cast.bj, chips={"1": 100, "5": 80})
    open_table(cast, cast.wheel, chips={"1": 50})
    log_in(page, cast.dric.user.username, PASSWORD)
    page.goto(f"/cage/{cast.event.slug}/")
    follow(page, "#slip-types >> text=Chip transfer")
    page.select_option("select[name=table]", label="table BJ-1")
    page.select_option("select[name=to_table]", label="table WOF-1")
    page.fill("input[name=chips_5]", "10")
    page.select_option("select[name=sign_released_by]", label="Dealer")
    page.fill("input[name=pin_released_by]", PIN)
    page.select_option("select[name=sign_received_by]", label="Dealer2")
    page.fill("input[name=pin_received_by]", PIN)
    at_both_widths(page, "chip-transfer-form")
    follow(page, "#slip-form button[type=submit]")
    slip = Slip.objects.get(slip_type="chip_transfer")
    text = page.inner_text("main")
    assert "Chip transfer 1" in text and "To table" in text and "WOF-1" in text and "BJ-1" in text
    at_both_widths(page, "chip-transfer-slip")
    response = page.context.request.get(f"/cage/{cast.event.slug}/slips/{slip.pk}/slip.pdf")
    assert response.ok
    pdf = tmp_path / "transfer.pdf"
    pdf.write_bytes(response.body())
    printed = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True).stdout
    assert "Chip transfer 1" in printed and "From table" in printed and "To table" in printed and "WOF-1" in printed
