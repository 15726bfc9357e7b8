"""A slip sent straight to a receipt printer on the cage's network (cage.receipt_printer), against a
real TCP server started in the test that takes the connection and keeps every byte; the printers
the site declares (RECEIPT_PRINTERS); and what the cashier is told when a printer does not answer."""

import queue
import socket
import threading

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse

from audit.models import AuditEntry
from cage import receipt_printer
from cage.models import Posting, Signature, Slip, SlipPrint
from cage.terminal import PRINTER_COOKIE
from config.settings import env_printers
from tests.audit.helpers import last
from tests.cage.test_views import fill_in_transit, login, read_pdf
from tests.reports.test_exports import poppler  # noqa: F401  (a fixture: skips, or fails, without pdftotext)

CUT = b"\x1dV"  # GS V: cut the paper
QR = b"\x1d(k"  # GS ( k: the printer's own QR code


class NetworkPrinter:
    """A receipt printer as the server sees one: a TCP port that takes a connection and keeps what
    it is sent, one receipt per connection."""

    def __init__(self):
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        self.receipts = queue.Queue()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                connection, _address = self.socket.accept()
            except OSError:
                return  # closed at the end of the test
            with connection:
                data = b""
                while chunk := connection.recv(65536):
                    data += chunk
                self.receipts.put(data)

    def receipt(self) -> bytes:
        return self.receipts.get(timeout=10)

    def close(self):
        self.socket.close()


@pytest.fixture
def printer(settings):
    served = NetworkPrinter()
    settings.RECEIPT_PRINTERS = {"cage-left": ("127.0.0.1", served.port)}
    yield served
    served.close()


def free_port() -> int:
    """A port nothing listens on (taken and given back at once)."""
    with socket.create_server(("127.0.0.1", 0)) as taken:
        return taken.getsockname()[1]


def send_to(client, cast, slip, printer="cage-left"):
    return client.post(reverse("cage:slip_print_printer", args=[cast.event.slug, slip.pk]), {"printer": printer})


def said(client, response) -> str:
    return client.get(response.url).content.decode().replace("&#x27;", "'")


def ledger():
    return Slip.objects.count(), Posting.objects.count(), Signature.objects.count()


# --- the printers the site declares ----------------------------------------------------------


def test_the_site_declares_its_printers_by_name_with_port_9100_unless_given(monkeypatch):
    monkeypatch.setenv(
        "RECEIPT_PRINTERS", "cage-left=192.168.1.50:9100, cage-right=192.168.1.51,bar=printer.local:9101"
    )
    assert env_printers("RECEIPT_PRINTERS") == {
        "cage-left": ("192.168.1.50", 9100),
        "cage-right": ("192.168.1.51", 9100),
        "bar": ("printer.local", 9101),
    }
    monkeypatch.delenv("RECEIPT_PRINTERS")
    assert env_printers("RECEIPT_PRINTERS") == {}


@pytest.mark.parametrize(
    "value",
    [
        "cage-left",
        "cage-left=",
        "=192.168.1.50",
        "cage-left=192.168.1.50:",
        "cage-left=192.168.1.50:0",
        "cage-left=192.168.1.50:70000",
        "cage-left=192.168.1.50:91OO",
        "cage-left=http://192.168.1.50",
        "cage left=192.168.1.50",
        "cage-left=192.168.1.50,cage-left=192.168.1.51",
    ],
)
def test_a_malformed_printer_is_refused_naming_the_variable(monkeypatch, value):
    monkeypatch.setenv("RECEIPT_PRINTERS", value)
    with pytest.raises(ImproperlyConfigured, match="^RECEIPT_PRINTERS must be printers named once each as name=host"):
        env_printers("RECEIPT_PRINTERS")


# --- a slip sent to the terminal's printer ---------------------------------------------------


@pytest.mark.django_db
@pytest.mark.usefixtures("poppler")
def test_the_slip_arrives_whole_at_the_printer_and_a_second_copy_says_reprint(client, cast, printer, tmp_path):
    slip = fill_in_transit(client, cast)
    slug = cast.event.slug
    login(client, cast, "chip_cashier")
    page = reverse("cage:slip", args=[slug, slip.pk])
    # The terminal picks its printer by name on the slip's page; the page then offers it.
    chose = client.post(
        reverse("cage:slip_print_terminal", args=[slug, slip.pk]), {"layout": "receipt", "printer": "cage-left"}
    )
    assert chose.cookies[PRINTER_COOKIE].value == "cage-left"
    shown = said(client, chose)
    assert "Its receipt printer is cage-left." in shown and ">Print on cage-left<" in shown
    before = ledger()

    response = send_to(client, cast, slip)
    assert response.status_code == 302 and response.url == page
    data = printer.receipt()
    assert data.startswith(b"\x1b@")  # the printer reset first
    assert b"Fill 1" in data and b"Slip total" in data and b"$200.00" in data
    assert b"Lakeside Fall Fair Casino" in data and b"Licence F-2026-0117" in data
    assert b"Issued by (Chip Cashier)" in data and b"Received by (Dealer)" in data
    assert QR in data and f"http://testserver{page}".encode() in data
    assert CUT in data[-8:] and b"REPRINT" not in data
    assert "Fill 1 printed on cage-left." in said(client, response)
    # On the trail like any print, and the first is the original; nothing else changed.
    assert last("slip_printed", slip=slip).new == {"copy": 1, "reprint": False, "printer": "cage-left"}
    assert SlipPrint.objects.filter(slip=slip, for_reading=False).count() == 1 and ledger() == before

    send_to(client, cast, slip)
    assert b"REPRINT" in printer.receipt()
    assert last("slip_printed", slip=slip).new == {"copy": 2, "reprint": True, "printer": "cage-left"}
    # The browser's print after them is a reprint too: one numbering of the cage's copies.
    printed = client.post(reverse("cage:slip_print", args=[slug, slip.pk]))
    assert "REPRINT" in read_pdf(client.get(printed.url).content, tmp_path, raw=True)
    assert last("slip_printed", slip=slip).new == {"copy": 3, "reprint": True} and ledger() == before


@pytest.mark.django_db
def test_after_a_browser_print_the_printers_copy_is_a_reprint(client, cast, printer):
    slip = fill_in_transit(client, cast)
    login(client, cast, "chip_cashier")
    client.post(reverse("cage:slip_print", args=[cast.event.slug, slip.pk]))
    send_to(client, cast, slip)
    assert b"REPRINT" in printer.receipt()


@pytest.mark.django_db
def test_a_reader_sends_a_copy_for_reading(client, cast, printer):
    slip = fill_in_transit(client, cast)
    login(client, cast, "auditor")
    send_to(client, cast, slip)
    data = printer.receipt()
    assert b"Copy for reading: not the original" in data and b"REPRINT" not in data
    assert last("slip_printed_for_reading", slip=slip).new == {"for_reading": True, "printer": "cage-left"}
    assert not SlipPrint.objects.filter(for_reading=False).exists()


@pytest.mark.django_db
def test_a_printer_nothing_answers_at_is_said_so_and_nothing_is_recorded(client, cast, settings):
    port = free_port()
    settings.RECEIPT_PRINTERS = {"cage-left": ("127.0.0.1", port)}
    slip = fill_in_transit(client, cast)
    login(client, cast, "chip_cashier")
    before = AuditEntry.objects.filter(action="slip_printed").count()
    response = send_to(client, cast, slip)
    assert response.status_code == 302
    assert (
        f"The printer cage-left did not answer at 127.0.0.1:{port}; print the slip from the browser instead."
        in said(client, response)
    )
    assert not SlipPrint.objects.exists() and AuditEntry.objects.filter(action="slip_printed").count() == before
    # The browser's print is still the original: nothing came out of the printer.
    client.post(reverse("cage:slip_print", args=[cast.event.slug, slip.pk]))
    assert last("slip_printed", slip=slip).new == {"copy": 1, "reprint": False}  # the browser's: no printer


@pytest.mark.django_db
def test_a_printer_that_takes_no_connection_in_time_is_given_up(client, cast, settings, monkeypatch):
    # A port whose queue of connections is full: the next connection waits and is never taken, as
    # with a printer switched off on the network.
    full = socket.create_server(("127.0.0.1", 0), backlog=0)
    waiting = socket.create_connection(full.getsockname())
    monkeypatch.setattr(receipt_printer, "TIMEOUT_SECONDS", 0.3)
    settings.RECEIPT_PRINTERS = {"cage-left": full.getsockname()}
    try:
        slip = fill_in_transit(client, cast)
        login(client, cast, "chip_cashier")
        response = send_to(client, cast, slip)
        assert response.status_code == 302
        assert "The printer cage-left did not answer at 127.0.0.1:" in said(client, response)
        assert not SlipPrint.objects.exists()
    finally:
        waiting.close()
        full.close()


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["cage-right", "127.0.0.1:9100", "", "x" * 5000])
def test_a_printer_the_site_does_not_declare_is_never_connected_to(client, cast, printer, name):
    slip = fill_in_transit(client, cast)
    login(client, cast, "chip_cashier")
    response = send_to(client, cast, slip, printer=name)
    assert response.status_code == 302
    assert "No receipt printer of that name is declared for this site" in said(client, response)
    assert not SlipPrint.objects.exists()
    # The next receipt the printer takes is the next good print's: the refused one never connected.
    send_to(client, cast, slip)
    assert b"Fill 1" in printer.receipt() and printer.receipts.empty()


@pytest.mark.django_db
def test_a_runner_not_on_the_slip_sends_nothing(client, cast, printer):
    slip = fill_in_transit(client, cast)
    login(client, cast, "runner2")
    assert send_to(client, cast, slip).status_code == 403
    assert not SlipPrint.objects.exists()
    assert last("slip_printed", outcome="refused").person == cast.runner2


@pytest.mark.django_db
def test_the_page_offers_only_a_printer_the_site_still_declares(client, cast, printer, settings):
    slip = fill_in_transit(client, cast)
    login(client, cast, "chip_cashier")
    client.cookies[PRINTER_COOKIE] = "cage-left"
    url = reverse("cage:slip", args=[cast.event.slug, slip.pk])
    assert 'id="print-on-printer"' in client.get(url).content.decode()
    settings.RECEIPT_PRINTERS = {"cage-right": ("127.0.0.1", printer.port)}
    page = client.get(url).content.decode()
    assert 'id="print-on-printer"' not in page and '<option value="cage-right">cage-right</option>' in page


@pytest.mark.django_db
def test_the_day_close_slip_goes_to_the_printer_with_its_day(cast):
    from cage.selectors.slip_sheet import slip_sheet
    from tests.cage.helpers import close_clean_day

    sheet = slip_sheet(close_clean_day(cast)) | {"url": "http://testserver/cage/lakeside/slips/9/"}
    data = receipt_printer.receipt_bytes(sheet)
    assert b"The day's figures" in data and b"Slip total" not in data and data.endswith(b"\x1dV\x00")
    # Every line of text fits the printer's 42 columns (a command before it takes at most 2 bytes more).
    lines = data.replace(b"\x1b", b"\n").replace(b"\x1d", b"\n").split(b"\n")
    text = [line for line in lines if not line.startswith(b"(k")]  # the QR code's data is no line of text
    assert max(len(line) for line in text) <= 42 + 2, max(text, key=len)
