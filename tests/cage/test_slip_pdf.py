"""The printed cage slip, read back with poppler as the inspector would read the paper."""

import copy
import datetime
import re
import subprocess
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from cage.slip_pdf import render_slip_pdf
from tests.reports.test_exports import poppler  # noqa: F401  (a fixture: skips, or fails, without pdftotext)

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
TORONTO = ZoneInfo("America/Toronto")
UTC = datetime.UTC


def at(hour, minute, tz=TORONTO):
    return datetime.datetime(2026, 9, 11, hour, minute, tzinfo=tz)


FILL = {
    "title": "Fill 4",
    "event": "Lakeside Fall Fair Casino",
    "licensee": "Lakeside Agricultural Society",
    "licence_number": "F-2026-0117",
    "gaming_day": datetime.date(2026, 9, 11),
    "at": at(19, 5),
    "facts": [("Table", "BJ-1"), ("Runner", "Ron Gagnon")],
    "chips": [
        {"label": "$1 chips", "count": 100, "cents": 10_000},
        {"label": "$5 chips", "count": 40, "cents": 20_000},
        {"label": "$25 chips", "count": 40, "cents": 100_000},
    ],
    "cash": None,
    "total": 130_000,
    "reason": "",
    "state": "Waiting for signatures",
    "signatures": [
        {"capacity": "Issued by", "role": "Chip Cashier", "name": "Cora Singh", "signed_at": at(19, 5)},
        {"capacity": "Carried by", "role": "Runner", "name": "Ron Gagnon", "signed_at": at(19, 7)},
    ],
    "to_sign": [
        {"capacity": "Received by", "role": "Dealer"},
        {"capacity": "Witnessed by", "role": "Pit Supervisor"},
    ],
    "voided": None,
    "reprint": False,
    "printed_at": at(19, 8),
}

SALE = {
    "title": "Sale 12",
    "event": "Lakeside Fall Fair Casino",
    "licensee": "Lakeside Agricultural Society",
    "licence_number": "F-2026-0117",
    "gaming_day": datetime.date(2026, 9, 11),
    "at": at(20, 15),
    "facts": [("Patron", "walk-up patron")],
    "chips": [{"label": "$5 chips", "count": 20, "cents": 10_000}, {"label": "$25 chips", "count": 8, "cents": 20_000}],
    "cash": 30_000,
    "cash_lines": [
        {"label": "$20 bills", "count": 14, "cents": 28_000},
        {"label": "$10 bills", "count": 2, "cents": 2_000},
    ],
    "total": 30_000,
    "reason": "Patron bought chips at the window; re-keyed after a till error.",
    "state": "Voided",
    "signatures": [
        {"capacity": "Sold by", "role": "Chip Cashier", "name": "Cora Singh", "signed_at": at(20, 15)},
    ],
    "to_sign": [],
    "voided": "Void 2: slip written for BJ-2",
    "reprint": True,
    "printed_at": at(21, 40),
}


def pdftotext(path: Path, *options: str) -> str:
    return subprocess.run(["pdftotext", *options, str(path), "-"], check=True, capture_output=True, text=True).stdout


def read(sheet, tmp_path, name="slip") -> tuple[str, Path]:
    """The page as laid out (-nodiag: no stamp is drawn at an angle any more, and none may be)."""
    pdf = render_slip_pdf(copy.deepcopy(sheet))
    assert pdf.startswith(b"%PDF")
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(pdf)
    return pdftotext(path, "-layout", "-nodiag"), path


def stamps(path: Path) -> set[str]:
    """The stamps on the page, read in drawing order."""
    words = set(pdftotext(path, "-raw").split())
    return words & {"VOID", "REPRINT"}


def squeezed(text: str) -> set[str]:
    """Each line of the page with runs of spaces made one, so columns compare as words."""
    return {" ".join(line.split()) for line in text.splitlines()}


def words(path: Path) -> list[tuple[str, float, float, float, float]]:
    """Every word on the first page with its box (xMin, yMin, xMax, yMax), y from the top."""
    html = pdftotext(path, "-bbox")
    page = html.split("</page>")[0]
    found = re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', page)
    return [(w, float(x0), float(y0), float(x1), float(y1)) for x0, y0, x1, y1, w in found]


def overlapping(boxes) -> list[tuple[str, str]]:
    """The pairs of words that lie over one another (by more than half a point)."""
    return [
        (w, v)
        for i, (w, x0, y0, x1, y1) in enumerate(boxes)
        for v, a0, b0, a1, b1 in boxes[i + 1 :]
        if x0 < a1 - 0.5 and a0 < x1 - 0.5 and y0 < b1 - 0.5 and b0 < y1 - 0.5
    ]


def pages(path: Path) -> int:
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True).stdout
    return int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))


def to_png(path: Path, stem: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-singlefile", str(path), str(ARTIFACTS / stem)], check=True)
    png = ARTIFACTS / f"{stem}.png"
    assert png.stat().st_size > 5_000
    return png


def test_a_fill_shows_its_header_chips_total_and_every_signature(tmp_path, poppler):  # noqa: F811
    text, path = read(FILL, tmp_path)
    to_png(path, "slip-pdf-fill")
    lines = squeezed(text)
    assert "Fill 4" in lines or any(line.startswith("Fill 4 ") for line in lines)
    assert "Lakeside Fall Fair Casino Licence F-2026-0117" in lines
    assert "Lakeside Agricultural Society" in lines
    assert "Gaming day Friday, 2026-09-11 · written 2026-09-11 19:05" in lines
    assert "Table BJ-1" in lines and "Runner Ron Gagnon" in lines
    assert "Denomination Count Value" in lines
    assert "$1 chips 100 $100.00" in lines
    assert "$5 chips 40 $200.00" in lines
    assert "$25 chips 40 $1,000.00" in lines
    assert "Total chips 180 $1,300.00" in lines
    assert "Slip total $1,300.00" in lines
    assert "Issued by Chip Cashier Cora Singh 2026-09-11 19:05" in lines
    assert "Carried by Runner Ron Gagnon 2026-09-11 19:07" in lines
    assert any(line.startswith("Received by (Dealer) Name (print) Time") for line in lines)
    assert any(line.startswith("Witnessed by (Pit Supervisor) Name (print) Time") for line in lines)
    assert "Fill 4 · printed 2026-09-11 19:08 page 1 of 1" in lines
    assert stamps(path) == set() and "Voided" not in text
    assert "Cash:" not in text and "Reason" not in text
    assert pages(path) == 1


def test_a_voided_reprinted_sale_is_stamped_and_shows_its_cash(tmp_path, poppler):  # noqa: F811
    text, path = read(SALE, tmp_path)
    to_png(path, "slip-pdf-void-reprint")
    lines = squeezed(text)
    assert stamps(path) == {"VOID", "REPRINT"}
    assert "Void 2: slip written for BJ-2" in lines  # in the VOID stamp's box, in the flow
    assert "$25 chips 8 $200.00" in lines and "Total chips 28 $300.00" in lines
    assert "Cash: $300.00" in lines
    assert "$20 bills 14 $280.00" in lines and "Total cash 16 $300.00" in lines
    assert "Patron bought chips at the window; re-keyed after a till error." in lines
    assert "Sold by Chip Cashier Cora Singh 2026-09-11 20:15" in lines
    assert "Still to sign" not in text
    assert pages(path) == 1


@pytest.mark.parametrize(("voided", "reprint"), [(None, True), ("Void 3: wrong table", False)])
def test_each_stamp_appears_only_when_set(tmp_path, poppler, voided, reprint):  # noqa: F811
    _text, path = read(FILL | {"voided": voided, "reprint": reprint}, tmp_path)
    assert stamps(path) == ({"REPRINT"} if reprint else set()) | ({"VOID"} if voided else set())


def test_times_are_printed_in_local_time(tmp_path, poppler, settings):  # noqa: F811
    # 23:30 UTC on the 11th is 19:30 in Toronto; the paper shows the clock on the cage wall.
    sheet = FILL | {"at": at(23, 30, UTC), "printed_at": at(23, 45, UTC)}
    sheet["signatures"] = [FILL["signatures"][0] | {"signed_at": at(23, 31, UTC)}]
    lines = squeezed(read(sheet, tmp_path)[0])
    assert "Gaming day Friday, 2026-09-11 · written 2026-09-11 19:30" in lines
    assert "Issued by Chip Cashier Cora Singh 2026-09-11 19:31" in lines
    assert "Fill 4 · printed 2026-09-11 19:45 page 1 of 1" in lines


def test_text_that_looks_like_markup_is_printed_as_written(tmp_path, poppler):  # noqa: F811
    sheet = FILL | {"reason": "Short <b>two</b> & a <font> tag", "facts": [("Note", "A & B <i>")]}
    lines = squeezed(read(sheet, tmp_path)[0])
    assert "Short <b>two</b> & a <font> tag" in lines
    assert "Note A & B <i>" in lines


def test_a_cash_only_slip_has_no_chip_table_and_no_signatures_yet(tmp_path, poppler):  # noqa: F811
    sheet = FILL | {
        "title": "Deposit 1",
        "facts": [],
        "chips": [],
        "cash": 250_000,
        "total": 250_000,
        "signatures": [],
        "to_sign": [{"capacity": "Counted by", "role": "General Cashier"}],
        "state": "In transit",
    }
    text, _path = read(sheet, tmp_path)
    lines = squeezed(text)
    assert "Cash: $2,500.00" in lines and "Slip total $2,500.00" in lines
    assert "Denomination" not in text and "Signatures" not in text
    assert any(line.startswith("Counted by (General Cashier)") for line in lines)


def test_a_long_slip_runs_onto_a_second_page_and_numbers_both(tmp_path, poppler):  # noqa: F811
    sheet = FILL | {"to_sign": [{"capacity": f"Witness {n}", "role": "Dealer"} for n in range(30)]}
    text, path = read(sheet, tmp_path)
    total = pages(path)
    assert total >= 2
    lines = squeezed(text)
    for page in range(1, total + 1):
        assert f"Fill 4 · printed 2026-09-11 19:08 page {page} of {total}" in lines


def test_a_copy_for_reading_is_stamped_so_on_every_page_and_never_reprint(tmp_path, poppler):  # noqa: F811
    # A copy for reading is not one of the cage's copies: its stamp stands where REPRINT would.
    sheet = SALE | {"for_reading": True, "reprint": True}
    text, path = read(sheet, tmp_path)
    to_png(path, "slip-pdf-for-reading")
    lines = squeezed(text)
    assert "Copy for reading: not the original" in lines
    assert "Sale 12 · copy for reading printed 2026-09-11 21:40 page 1 of 1" in lines
    assert stamps(path) == {"VOID"}
    long = FILL | {"for_reading": True, "to_sign": FILL["to_sign"] * 12}
    text, path = read(long, tmp_path, "long")
    assert pages(path) > 1
    assert text.count("Copy for reading: not the original") == pages(path)


def test_the_void_stamp_lies_over_no_text_and_every_signer_reads_whole(tmp_path, poppler):  # noqa: F811
    # Drawn across the page, the stamp crossed the signatures table; now it is a box of its own
    # under the header, and nothing is drawn over anything else.
    signers = [
        {"capacity": "Sold by", "role": "Chip Cashier", "name": "Cora Singh-Beauchemin", "signed_at": at(20, 15)},
        {"capacity": "Authorized by", "role": "DRIC", "name": "Anne-Marie Tremblay", "signed_at": at(20, 16)},
        {"capacity": "Witnessed by", "role": "General Cashier", "name": "Gus Ouellette", "signed_at": at(20, 17)},
    ]
    sheet = SALE | {"signatures": signers, "url": "http://testserver/cage/lakeside/slips/12/"}
    text, path = read(sheet, tmp_path)
    to_png(path, "slip-pdf-void-clear")
    lines = squeezed(text)
    assert "Sold by Chip Cashier Cora Singh-Beauchemin 2026-09-11 20:15" in lines
    assert "Authorized by DRIC Anne-Marie Tremblay 2026-09-11 20:16" in lines
    assert "Witnessed by General Cashier Gus Ouellette 2026-09-11 20:17" in lines
    boxes = words(path)
    assert overlapping(boxes) == []
    void = next(b for b in boxes if b[0] == "VOID")
    signatures = next(b for b in boxes if b[0] == "Signatures")
    assert void[4] < signatures[2]  # the stamp ends above the signatures begin
