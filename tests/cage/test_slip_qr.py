"""The QR code on every printed slip, letter or receipt: the address of the slip's page, read back
with zbarimg from the page as pdftoppm draws it. The dealer scans the runner's fill with a tablet,
logs in if need be, and lands on the slip, ready to sign."""

import subprocess

import pytest
from django.urls import reverse

from cage.terminal import LAYOUT_COOKIE
from tests.cage.test_paper_books import zbar  # noqa: F401  (a fixture: skips, or fails, without zbarimg)
from tests.cage.test_views import fill_in_transit, login
from tests.conftest import PASSWORD, Client
from tests.reports.test_exports import poppler  # noqa: F401  (a fixture: skips, or fails, without pdftotext)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("poppler", "zbar"), pytest.mark.cast_once]


def qr_codes(pdf: bytes, tmp_path) -> list[str]:
    """Every QR code of the PDF's pages, as a tablet's camera reads them."""
    path = tmp_path / "slip.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-png", "-r", "150", str(path), str(tmp_path / "page")], check=True)
    codes = []
    for png in sorted(tmp_path.glob("page*.png")):
        read = subprocess.run(["zbarimg", "--quiet", "--raw", str(png)], capture_output=True, text=True)
        codes += read.stdout.split()
    return codes


@pytest.mark.parametrize("layout", ["letter", "receipt"])
def test_the_printed_slip_carries_the_address_of_its_page(client, cast, tmp_path, layout):
    slip = fill_in_transit(client, cast)
    login(client, cast, "chip_cashier")
    client.cookies[LAYOUT_COOKIE] = layout
    printed = client.post(reverse("cage:slip_print", args=[cast.event.slug, slip.pk]))
    page = reverse("cage:slip", args=[cast.event.slug, slip.pk])
    assert qr_codes(client.get(printed.url).content, tmp_path) == [f"http://testserver{page}"]


def test_over_https_the_address_is_https_and_names_the_host_asked_for(client, cast, tmp_path, settings):
    settings.ALLOWED_HOSTS = ["testserver", "cage.example.org"]
    slip = fill_in_transit(client, cast)
    login(client, cast, "chip_cashier")
    url = reverse("cage:slip_pdf", args=[cast.event.slug, slip.pk])
    pdf = client.get(url, secure=True, headers={"host": "cage.example.org"}).content
    page = reverse("cage:slip", args=[cast.event.slug, slip.pk])
    assert qr_codes(pdf, tmp_path) == [f"https://cage.example.org{page}"]


def test_a_dealer_who_scans_the_slip_logs_in_and_lands_on_it_ready_to_sign(client, cast, tmp_path):
    slip = fill_in_transit(client, cast)
    login(client, cast, "runner")
    printed = client.post(reverse("cage:slip_print", args=[cast.event.slug, slip.pk]))
    [address] = qr_codes(client.get(printed.url).content, tmp_path)

    tablet = Client()  # the dealer's tablet, not logged in
    asked = tablet.get(address)
    page = reverse("cage:slip", args=[cast.event.slug, slip.pk])
    assert asked.status_code == 302 and asked.url == f"{reverse('login')}?next={page}"
    logged_in = tablet.post(asked.url, {"username": cast.dealer.user.username, "password": PASSWORD, "next": page})
    assert logged_in.status_code == 302 and logged_in.url == page
    shown = tablet.get(logged_in.url).content.decode()
    assert "Fill 1" in shown and "Sign as “received by”" in shown
