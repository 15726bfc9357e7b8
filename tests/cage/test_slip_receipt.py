"""The slip on an 80 mm receipt (cage.receipt), read back with poppler as the dealer reads the roll;
and the terminal's choice of paper, kept in its browser (cage.terminal)."""

import copy
import datetime
import re
import subprocess

import pytest
from django.urls import reverse

from cage import services
from cage.models import Slip, SlipPrint
from cage.receipt import render_receipt_pdf
from cage.selectors.slip_sheet import slip_sheet
from cage.terminal import LAYOUT_COOKIE, PRINTER_COOKIE
from tests.cage.helpers import close_clean_day, stock
from tests.cage.test_slip_pdf import FILL, SALE, overlapping, pdftotext, squeezed, words
from tests.cage.test_views import fill_in_transit, login
from tests.conftest import PASSWORD, Client
from tests.reports.test_exports import poppler  # noqa: F401  (a fixture: skips, or fails, without pdftotext)

URL = "http://testserver/cage/lakeside/slips/4/"
RECEIPT_WIDTH = 226.77  # 80 mm in points


def receipt(sheet, tmp_path, name="receipt") -> tuple[set[str], str, object]:
    pdf = render_receipt_pdf(copy.deepcopy(sheet) | {"url": URL})
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(pdf)
    text = pdftotext(path, "-layout")
    return squeezed(text), text, path


def page_sizes(path) -> list[tuple[float, float]]:
    info = subprocess.run(["pdfinfo", "-f", "1", "-l", "99", str(path)], check=True, capture_output=True, text=True)
    return [tuple(map(float, m)) for m in re.findall(r"Page +\d+ size: +([\d.]+) x ([\d.]+)", info.stdout)]


@pytest.mark.usefixtures("poppler")
def test_a_fill_on_a_receipt_says_all_the_letter_says(tmp_path):
    lines, text, path = receipt(FILL, tmp_path)
    for said in (
        "Lakeside Fall Fair Casino",
        "Lakeside Agricultural Society",
        "Licence F-2026-0117",
        "Fill 4",
        "Waiting for signatures",
        "Table BJ-1",
        "Runner Ron Gagnon",
        "Denomination Count Value",
        "$1 chips 100 $100.00",
        "$5 chips 40 $200.00",
        "$25 chips 40 $1,000.00",
        "Total chips 180 $1,300.00",
        "Slip total $1,300.00",
        "Issued by (Chip Cashier)",
        "Cora Singh 2026-09-11 19:05",
        "Carried by (Runner)",
        "Ron Gagnon 2026-09-11 19:07",
        "Still to sign",
        "Received by (Dealer)",
        "Witnessed by (Pit Supervisor)",
        "Scan to open this slip's page",
        "Fill 4 · printed 2026-09-11 19:08",
    ):
        assert said in lines, said
    # "Gaming day … · written …" wraps at 72 mm; both halves are there.
    assert "Gaming day Friday, 2026-09-11 · written" in text and "2026-09-11 19:05" in text
    assert text.count("Name (print)") == 2 and "REPRINT" not in text and "VOID" not in text


@pytest.mark.usefixtures("poppler")
def test_the_receipt_is_80_mm_wide_one_page_and_as_tall_as_what_it_says(tmp_path):
    _lines, _text, path = receipt(FILL, tmp_path)
    [(width, height)] = page_sizes(path)
    assert abs(width - RECEIPT_WIDTH) < 0.1
    # The last line ("printed …") ends a few millimetres above the page's bottom edge: the roll is
    # cut after the slip, not a letter page later.
    bottom = max(y1 for _w, _x0, _y0, _x1, y1 in words(path))
    assert 0 < height - bottom < 25
    # Nothing is wider than the 72 mm a thermal head prints.
    assert all(x0 >= 11 and x1 <= RECEIPT_WIDTH - 11 for _w, x0, _y0, x1, _y1 in words(path))

    longer = FILL | {"to_sign": FILL["to_sign"] * 10}
    _lines, _text, path = receipt(longer, tmp_path, "longer")
    [(_width, taller)] = page_sizes(path)
    assert taller > height + 1000  # 16 more signature blocks, still one page: a roll has no page breaks


@pytest.mark.usefixtures("poppler")
def test_a_voided_reprinted_sale_has_its_stamps_as_boxed_lines_over_nothing(tmp_path):
    lines, text, path = receipt(SALE, tmp_path)
    assert "REPRINT" in lines and "VOID" in lines and "Void 2: slip written for BJ-2" in lines
    assert text.index("REPRINT") < text.index("VOID") < text.index("Sale 12")
    assert "Cash: $300.00" in lines and "$20 bills 14 $280.00" in lines and "Total cash 16 $300.00" in lines
    assert "Sold by (Chip Cashier)" in lines and "Cora Singh 2026-09-11 20:15" in lines
    # No word lies over another: the stamps cover no text.
    assert overlapping(words(path)) == []


@pytest.mark.usefixtures("poppler")
def test_a_copy_for_reading_on_a_receipt_says_so_and_never_reprint(tmp_path):
    lines, text, _path = receipt(SALE | {"for_reading": True}, tmp_path)
    assert "Copy for reading: not the original" in lines and "REPRINT" not in text
    assert "Sale 12 · copy for reading printed 2026-09-11 21:40" in lines


@pytest.mark.usefixtures("poppler")
def test_text_that_looks_like_markup_is_printed_as_written_on_the_receipt(tmp_path):
    lines, _text, _path = receipt(FILL | {"reason": "Short <b>two</b> & a tag", "to_sign": []}, tmp_path)
    assert "Short <b>two</b> & a tag" in lines


@pytest.mark.django_db
@pytest.mark.usefixtures("poppler")
def test_the_day_close_slip_prints_its_day_on_a_receipt(cast, tmp_path):
    close = close_clean_day(cast)
    sheet = slip_sheet(close)
    lines, text, path = receipt(sheet, tmp_path)
    assert "The day's figures" in lines and "Slip total" not in text
    assert all(abs(w - RECEIPT_WIDTH) < 0.1 for w, _h in page_sizes(path))
    # Every sheet of the day the letter prints, the receipt prints too.
    for day_sheet in sheet["day_sheets"]:
        assert day_sheet.title in text, day_sheet.title


# --- the terminal's paper, chosen on the slip's page -----------------------------------------


def keep(client, cast, slip, **choice):
    return client.post(reverse("cage:slip_print_terminal", args=[cast.event.slug, slip.pk]), choice)


@pytest.mark.django_db
@pytest.mark.usefixtures("poppler")
def test_a_terminal_that_chose_the_receipt_prints_every_slip_on_it(client, cast, tmp_path):
    slip = fill_in_transit(client, cast)
    slug = cast.event.slug
    login(client, cast, "chip_cashier")
    page = client.get(reverse("cage:slip", args=[slug, slip.pk])).content.decode()
    assert 'id="print-terminal"' in page and 'value="letter"' in page and 'value="receipt"' in page
    assert re.search(r'value="letter"[^>]*checked', page)  # letter until the terminal chooses
    assert 'id="print-on-printer"' not in page and 'name="printer"' not in page  # the site declares none

    response = keep(client, cast, slip, layout="receipt")
    assert response.status_code == 302 and response.url == reverse("cage:slip", args=[slug, slip.pk])
    cookie = response.cookies[LAYOUT_COOKIE]
    assert cookie.value == "receipt" and int(cookie["max-age"]) >= 365 * 24 * 3600
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    page = client.get(response.url).content.decode()
    assert "This terminal prints slips on 80 mm receipts." in page
    assert re.search(r'value="receipt"[^>]*checked', page)

    printed = client.post(reverse("cage:slip_print", args=[slug, slip.pk]))
    assert printed.cookies[LAYOUT_COOKIE].value == "receipt"  # renewed by the print
    pdf = tmp_path / "printed.pdf"
    got = client.get(printed.url)
    assert got["Content-Disposition"] == 'inline; filename="fill-1-receipt.pdf"'
    pdf.write_bytes(got.content)
    [(width, _height)] = page_sizes(pdf)
    assert abs(width - RECEIPT_WIDTH) < 0.1
    assert "REPRINT" not in pdftotext(pdf, "-raw") and SlipPrint.objects.count() == 1
    # The second print of the same slip, on the same terminal: a receipt, stamped REPRINT.
    again = client.post(reverse("cage:slip_print", args=[slug, slip.pk]))
    pdf.write_bytes(client.get(again.url).content)
    assert "REPRINT" in pdftotext(pdf, "-raw") and abs(page_sizes(pdf)[0][0] - RECEIPT_WIDTH) < 0.1

    # Back to letter: the next PDF is a letter page again.
    keep(client, cast, slip, layout="letter")
    pdf.write_bytes(client.get(reverse("cage:slip_pdf", args=[slug, slip.pk])).content)
    assert page_sizes(pdf) == [(612.0, 792.0)]


@pytest.mark.django_db
def test_a_terminal_with_no_choice_prints_letter_and_an_unknown_choice_is_letter(client, cast, tmp_path):
    slip = fill_in_transit(client, cast)
    login(client, cast, "chip_cashier")
    url = reverse("cage:slip_pdf", args=[cast.event.slug, slip.pk])
    assert client.get(url)["Content-Disposition"] == 'inline; filename="fill-1.pdf"'
    client.cookies[LAYOUT_COOKIE] = "a4-landscape"
    client.cookies[PRINTER_COOKIE] = "10.0.0.9:9100"  # an address, not a declared name: no printer
    assert client.get(url)["Content-Disposition"] == 'inline; filename="fill-1.pdf"'
    page = client.get(reverse("cage:slip", args=[cast.event.slug, slip.pk])).content.decode()
    assert 'id="print-on-printer"' not in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("choice", "said"),
    [
        ({"layout": "a4"}, "Print slips on: Select a valid choice. a4 is not one of the available choices."),
        ({}, "Print slips on: This field is required."),
        ({"layout": "receipt", "printer": "10.0.0.9"}, "Receipt printer: Select a valid choice."),
        ({"layout": "receipt\x00"}, "Print slips on: This contains the control character U+0000"),
    ],
)
def test_a_choice_that_is_not_offered_is_refused_and_keeps_nothing(client, cast, choice, said):
    slip = fill_in_transit(client, cast)
    login(client, cast, "chip_cashier")
    response = keep(client, cast, slip, **choice)
    assert response.status_code == 302 and LAYOUT_COOKIE not in response.cookies
    page = client.get(response.url).content.decode().replace("&#x27;", "'")
    assert said in page and "This terminal prints slips on" not in page


@pytest.mark.django_db
def test_a_runner_not_on_the_slip_keeps_no_choice_through_it(client, cast):
    slip = fill_in_transit(client, cast)
    login(client, cast, "runner2")
    response = keep(client, cast, slip, layout="receipt")
    assert response.status_code == 403 and LAYOUT_COOKIE not in response.cookies


@pytest.mark.django_db
def test_the_choice_is_the_terminals_not_the_logins(client, cast):
    """Whoever logs in at a terminal prints on its paper: the cashier's choice holds for the runner
    who uses the same browser after her, and the slip page's own state is untouched."""
    slip = fill_in_transit(client, cast)
    slips = Slip.objects.count()
    login(client, cast, "chip_cashier")
    keep(client, cast, slip, layout="receipt")
    client.post(reverse("logout"))  # the logout page ends the session; the browser keeps its cookies
    login(client, cast, "runner")
    page = client.get(reverse("cage:slip", args=[cast.event.slug, slip.pk])).content.decode()
    assert re.search(r'value="receipt"[^>]*checked', page)
    assert Slip.objects.count() == slips and not SlipPrint.objects.exists()


def test_the_receipt_lines_use_the_letters_words():
    """One source of the sheet's words: the receipt's are made by cage.slip_pdf, which the letter uses."""
    from cage import receipt, slip_pdf

    sheet = FILL | {"printed_at": datetime.datetime(2026, 9, 11, 19, 8, tzinfo=datetime.UTC)}
    said = [line.text for line in receipt.receipt_lines(sheet)]
    assert slip_pdf.licence_line(sheet) in said and slip_pdf.written_line(sheet) in said
    assert slip_pdf.printed_line(sheet) in said


@pytest.mark.django_db
@pytest.mark.usefixtures("poppler")
def test_the_receipt_is_in_the_language_of_the_request(cast, tmp_path):
    stock(cast)
    slip = services.sale(
        day=cast.day, chips={"5": 30}, cash=15000, signed=cast.signed(sold_by="chip_cashier"), allow_pending=True
    )
    client = Client(HTTP_ACCEPT_LANGUAGE="fr-CA")
    client.login(username=cast.chip_cashier.user.username, password=PASSWORD)
    client.cookies[LAYOUT_COOKIE] = "receipt"
    pdf = tmp_path / "recu.pdf"
    pdf.write_bytes(client.get(reverse("cage:slip_pdf", args=[cast.event.slug, slip.pk])).content)
    text = pdftotext(pdf, "-layout").replace("\u00a0", " ").replace("\u202f", " ")
    for french in ("Vente de jetons 1", "Journée de jeu du vendredi", "jetons de 5 $", "150,00 $", "Total de la fiche"):
        assert french in text, french
    assert abs(page_sizes(pdf)[0][0] - RECEIPT_WIDTH) < 0.1


@pytest.mark.usefixtures("poppler")
def test_a_count_and_a_refused_slip_on_a_receipt(tmp_path):
    count = FILL | {
        "title": "Count 3",
        "to_sign": [],
        "count_lines": [
            {
                "what": "$5 chips",
                "expected": "$200.00",
                "counted": "$195.00",
                "expected_count": 40,
                "counted_count": 39,
                "variance": "-$5.00",
                "how": "1 chip short",
            },
            {
                "what": "cash",
                "expected": "$1,000.00",
                "counted": "$1,000.00",
                "expected_count": None,
                "counted_count": None,
                "variance": "",
                "how": "",
            },
        ],
        "refused": "Refused by Dric: counted twice",
    }
    lines, text, path = receipt(count, tmp_path)
    assert "REFUSED" in lines and "Refused by Dric: counted twice" in lines
    assert "Expected and counted" in lines and "Expected 40 · $200.00" in lines and "Counted 39 · $195.00" in lines
    assert "Variance -$5.00 (1 chip short)" in lines and "Variance —" in lines
    assert overlapping(words(path)) == []
