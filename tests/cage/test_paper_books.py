"""Books of blank paper slips, printed before an outage: their serials, their PDF, the page and the command."""

import os
import shutil
import subprocess

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from audit.models import AuditEntry
from cage.models import PaperBook, PaperBookPrint
from cage.paper_pdf import render_book
from cage.services import paper
from cage.slip_types import PAPER_KINDS, SLIP_KINDS
from tests.cage.helpers import open_table, stock
from tests.conftest import login, make_event
from tests.refusals import refuses
from tests.reports.test_exports import poppler  # noqa: F401  (a fixture: skips, or fails, without pdftotext)

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]


@pytest.fixture
def zbar():
    if shutil.which("zbarimg") is None:
        if os.environ.get("REQUIRE_QR_TOOLS"):
            pytest.fail("REQUIRE_QR_TOOLS is set but zbar-tools (zbarimg) is not installed")
        pytest.skip("zbar-tools is not installed (apt-get install zbar-tools); QR codes not read back")


def pdf_pages(path) -> list[str]:
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True).stdout
    return text.split("\f")[:-1]


def qr_codes(pdf, tmp_path) -> list[str]:
    """Every QR code of the PDF, page by page, as the scanner at the window reads it."""
    subprocess.run(["pdftoppm", "-png", "-r", "150", str(pdf), str(tmp_path / "page")], check=True)
    codes = []
    for png in sorted(tmp_path.glob("page-*.png")):
        out = subprocess.run(["zbarimg", "--quiet", "--raw", str(png)], capture_output=True, text=True).stdout
        codes += out.split()
    return codes


def book(cast, slip_type="fill", count=3, language="en"):
    return paper.book_print(
        event=cast.event, slip_type=slip_type, count=count, user=cast.chip_cashier.user, language=language
    ).book


def test_each_slip_type_has_its_own_series_and_a_book_takes_the_next_serials(cast):
    first, second = book(cast, count=25), book(cast, count=10)
    sales = book(cast, "sale", count=5)
    assert (first.first, first.last, second.first, second.last) == (1, 25, 26, 35)
    assert (sales.first, sales.last) == (1, 5)
    assert str(second) == "Fill P-0026–P-0035"
    assert first.printed_by == cast.chip_cashier.user
    entry = AuditEntry.objects.filter(action="paper_book_printed").order_by("id").last()
    assert entry.event_id == cast.event.pk
    assert entry.new == {"slip_type": "sale", "first": "P-0001", "last": "P-0005"}


def test_every_slip_type_of_the_window_but_the_void_has_paper_slips():
    assert {k.type for k in PAPER_KINDS} == {k for k in SLIP_KINDS if k not in ("void", "close_day")}


@pytest.mark.parametrize(
    ("slip_type", "count", "refusal"),
    [
        ("void", 5, refuses("paper.no_such_type", type="void")),
        ("close_day", 5, refuses("paper.no_such_type", type="close_day")),
        ("nonsense", 5, refuses("paper.no_such_type", type="nonsense")),
        ("fill", 0, refuses("paper.book_size", most=100)),
        ("fill", 101, refuses("paper.book_size", most=100)),
        ("fill", True, refuses("paper.book_size", most=100)),
    ],
)
def test_a_book_of_no_such_type_or_size_is_refused_and_reserves_nothing(cast, slip_type, count, refusal):
    with refusal:
        book(cast, slip_type, count)
    assert not PaperBook.objects.exists()
    assert not AuditEntry.objects.filter(action="paper_book_printed").exists()


def test_slips_that_list_chips_wait_for_the_chip_set(db):
    event = make_event("bare")
    with refuses("paper.no_chip_set"):
        paper.book_print(event=event, slip_type="fill", count=5, user=None, language="en")
    # A deposit lists no chips: its book prints.
    assert paper.book_print(event=event, slip_type="deposit", count=5, user=None, language="en").book.first == 1


def test_a_book_reads_back_with_every_slip_and_its_qr_code(cast, tmp_path, poppler, zbar):  # noqa: F811
    printed = paper.book_print(event=cast.event, slip_type="fill", count=3, user=cast.chip_cashier.user, language="en")
    path = tmp_path / "book.pdf"
    path.write_bytes(render_book(printed))
    pages = pdf_pages(path)
    assert len(pages) == 3
    for number, page in enumerate(pages, start=1):
        assert "Lakeside Fall Fair Casino" in page
        assert "Licence F-2026-0117" in page
        assert "Fill" in page and f"P-000{number}" in page
        for line in ("$1 chips (white)", "$5 chips (red)", "$25 chips (green)", "Total", "Table", "Runner"):
            assert line in page
        for capacity in ("Issued by", "Carried by", "Received by", "Authorized by"):
            assert capacity in page
        assert "Time written" in page and "REPRINT" not in page
    assert qr_codes(path, tmp_path) == ["lakeside:fill:P-0001", "lakeside:fill:P-0002", "lakeside:fill:P-0003"]


def test_a_reprint_keeps_the_serials_and_says_reprint_on_every_slip(cast, tmp_path, poppler):  # noqa: F811
    first = book(cast, count=2)
    again = paper.book_reprint(book=first, user=cast.dric.user, language="en")
    assert again.book == first and PaperBook.objects.count() == 1
    path = tmp_path / "again.pdf"
    path.write_bytes(render_book(again))
    pages = pdf_pages(path)
    assert len(pages) == 2 and all("REPRINT" in page for page in pages)
    assert "P-0001" in pages[0] and "P-0002" in pages[1]
    assert AuditEntry.objects.filter(action="paper_book_reprinted", new__copy=2).exists()


def test_a_sale_a_count_and_a_payout_leave_room_for_what_they_take(cast, tmp_path, poppler):  # noqa: F811
    expected = {
        "sale": ["Cash", "Canadian cash only", "T&C 3.6, 3.7", "Sold by"],
        "count": ["Counted", "Bank cash", "Chip bank", "Tip pool", "Cash counted", "Counted by", "Verified by"],
        "tip_payout": ["Hours worked", "Dealer", "Hours", "Share", "Paid by"],
        "expense": ["Category", "Description", "Invoice", "Prepared by", "Approved by"],
        "chip_transfer": ["From table", "To table"],
    }
    for slip_type, lines in expected.items():
        printed = paper.book_print(event=cast.event, slip_type=slip_type, count=1, user=None, language="en")
        path = tmp_path / f"{slip_type}.pdf"
        path.write_bytes(render_book(printed))
        (page,) = pdf_pages(path)
        for line in lines:
            assert line in page, (slip_type, line)


def test_the_command_prints_a_french_book(cast, tmp_path, poppler):  # noqa: F811
    out = tmp_path / "remplissages.pdf"
    call_command("paper_slips", "lakeside", "--type", "fill", "--count", "2", "--lang", "fr", "--out", str(out))
    pages = pdf_pages(out)
    assert len(pages) == 2
    assert "Remplissage" in pages[0] and "P-0001" in pages[0] and "Licence F-2026-0117" in pages[0]
    assert "Émis par" in pages[0] and "Heure" in pages[0]
    made = PaperBook.objects.get()
    assert made.printed_by is None and PaperBookPrint.objects.get().language == "fr"


def test_the_command_refuses_what_it_cannot_print_and_reserves_nothing(cast, tmp_path):
    with pytest.raises(CommandError, match="no event 'nowhere'"):
        call_command("paper_slips", "nowhere", "--type", "fill", "--out", str(tmp_path / "x.pdf"))
    with pytest.raises(CommandError, match="a book holds 1 to 100 paper slips"):
        call_command("paper_slips", "lakeside", "--type", "fill", "--count", "500", "--out", str(tmp_path / "x.pdf"))
    with pytest.raises(CommandError, match="could not be written"):
        call_command("paper_slips", "lakeside", "--type", "fill", "--out", str(tmp_path / "no" / "such" / "x.pdf"))
    assert not PaperBook.objects.exists()


def test_the_chip_cashier_prints_a_book_from_the_page_and_opening_it_again_writes_nothing(client, cast):
    login(client, cast, "chip_cashier")
    page = client.get(reverse("cage:paper", args=["lakeside"]))
    assert page.status_code == 200 and b"No book of paper slips has been printed" in page.content
    response = client.post(
        reverse("cage:paper_print", args=["lakeside"]), {"slip_type": "credit", "count": "4", "language": "en"}
    )
    printed = PaperBookPrint.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "cage:paper_pdf", args=["lakeside", printed.pk]
    )
    pdf = client.get(response["Location"])
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    client.get(response["Location"])
    assert PaperBookPrint.objects.count() == 1
    listed = client.get(reverse("cage:paper", args=["lakeside"])).content.decode()
    assert "Credit" in listed and "P-0001 – P-0004" in listed
    client.post(reverse("cage:paper_reprint", args=["lakeside", printed.book.pk]))
    assert PaperBookPrint.objects.count() == 2 and PaperBook.objects.count() == 1


def test_a_bad_request_from_the_page_says_why_and_prints_nothing(client, cast):
    login(client, cast, "dric")
    response = client.post(
        reverse("cage:paper_print", args=["lakeside"]), {"slip_type": "fill", "count": "0", "language": "en"}
    )
    assert response.status_code == 400
    assert "Ensure this value is greater than or equal to 1." in response.content.decode()
    response = client.post(
        reverse("cage:paper_print", args=["lakeside"]), {"slip_type": "void", "count": "5", "language": "en"}
    )
    assert response.status_code == 400 and not PaperBook.objects.exists()


def test_who_prints_books(client, cast):
    login(client, cast, "general_cashier")
    assert client.get(reverse("cage:paper", args=["lakeside"])).status_code == 200
    assert (
        client.post(reverse("cage:paper_print", args=["lakeside"]), {"slip_type": "fill", "count": "2"}).status_code
        == 403
    )
    login(client, cast, "auditor")
    page = client.get(reverse("cage:paper", args=["lakeside"])).content.decode()
    assert "Print the book" not in page
    assert not PaperBook.objects.exists()


def test_the_inventory_prints_where_everything_stands(client, cast, poppler, tmp_path):  # noqa: F811
    from cage import services

    stock(cast, chips={"5": 100, "25": 40})
    open_table(cast, chips={"25": 4})
    services.runner_issue(
        day=cast.day,
        runner=cast.runner,
        chips={"5": 10},
        signed=cast.signed(issued_by="chip_cashier", received_by="runner"),
    )
    fill = services.fill(
        day=cast.day,
        table=cast.bj,
        runner=cast.runner2,
        chips={"25": 2},
        signed=cast.signed(issued_by="chip_cashier", carried_by="runner2"),
        allow_pending=True,
    )
    login(client, cast, "general_cashier")
    response = client.get(reverse("cage:inventory_pdf", args=["lakeside"]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    path = tmp_path / "inventory.pdf"
    path.write_bytes(response.content)
    (page,) = pdf_pages(path)
    assert "Cage inventory at" in page and "Lakeside Fall Fair Casino" in page
    assert "Printed" in page and "by General Cashier" in page
    rows = {" ".join(line.split()[:2]): line for line in page.splitlines() if len(line.split()) > 1}
    assert "10 · $50.00" in rows["runner Runner"]  # what each runner holds
    assert "2 · $50.00" in rows["runner Runner2"]  # the fill in transit, in the runner's hands
    assert fill.number in page and "In transit" in page  # and on the list of slips in transit
    assert "BJ-1" in page and "open" in page and "WOF-1" in page and "closed" in page
