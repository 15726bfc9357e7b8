"""A variance's reason, chosen from the reconciliation's list, is shown wherever the variance is:
its label in the reader's language (never its code) and the counter's own words beside it, on the
count slip's page and PDF, on the variance report sheet (page, CSV, PDF) and in the event report's
variances (page and financial report PDF). A count slip, printed once the count is in, shows
expected, counted and variance per instrument."""

import copy
import csv
import io
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils.functional import Promise

from cage import services
from cage.importer import import_records
from cage.models import Slip
from cage.selectors.slip_sheet import slip_sheet
from cage.slip_pdf import render_slip_pdf
from cage.variances import VARIANCE_REASONS, variance_reason
from events.models import GamingDay
from reports.daily import day_sheets
from reports.figures import event_figures, report_figures
from tests.cage.helpers import COUNT_SIGNED, stock
from tests.conftest import PASSWORD, give_login
from tests.reports.test_exports import poppler  # noqa: F401  (a fixture: skips, or fails, without pdftotext)
from tests.reports.test_figures import two_days_data

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]
SLUG = "lakeside-fair-2026"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
WORDS = "a $25 chip of another fair's set was found in the change tray after the floor closed"


def reasoned_event():
    """The worked example and a second day whose counts give their reasons from the list."""
    event = import_records(reasoned_data())
    give_login(event.people.get(code="ann"), "ann")
    return event


def reasoned_data() -> dict:
    """The records of reasoned_event: the example's chip bank count "missing chips" with its
    words, day two's bank cash "cash over" with words of its own, and day two's chip bank
    "other", a $25 chip short, in the counter's words."""
    data = two_days_data(SLUG)
    day1, day2 = data["days"][0]["records"], data["days"][1]["records"]
    next(r for r in day1 if r.get("account") == "chip_bank")["variance_reason"] = "missing_chips"
    next(r for r in day2 if r.get("account") == "bank_cash")["variance_reason"] = "cash_over"
    chip_bank = next(r for r in day2 if r.get("account") == "chip_bank")
    chip_bank.update(chips={"1": 823, "5": 400, "25": 35}, reason=WORDS, variance_reason="other")
    return data


def pictures(pdf, stem) -> None:
    """Each page as a PNG in test-artifacts/, to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    subprocess.run(["pdftoppm", "-png", "-r", "60", str(pdf), str(ARTIFACTS / stem)], check=True)
    assert (ARTIFACTS / f"{stem}-1.png").stat().st_size > 0


def pdf_lines(path) -> list[str]:
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True).stdout
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


# --- the words -----------------------------------------------------------------------------------


def test_the_reason_reads_as_the_lists_label_and_the_words_say_what_the_label_does_not():
    assert variance_reason({"variance_reason": "missing_chips"}, "two $1 chips missing") == (
        "Missing chips",
        "two $1 chips missing",
    )
    # The form writes the label as the words when the counter adds none: no details then.
    assert variance_reason({"variance_reason": "cash_short"}, "Cash short") == ("Cash short", "")
    assert variance_reason({"variance_reason": "other"}, " the dog ate it ") == ("Other", "the dog ate it")
    # Without a code (an opener, a count of a records file without the extension): the words.
    assert variance_reason({}, "one $5 chip missing from the tray") == ("one $5 chip missing from the tray", "")
    assert variance_reason(None, "") == ("", "")


def test_every_label_is_marked_for_translation():
    assert all(isinstance(label, Promise) for label in VARIANCE_REASONS.values())
    assert [str(label) for label in VARIANCE_REASONS.values()] == [
        "Miscount",
        "Missing chips",
        "Foreign chips",
        "Cash short",
        "Cash over",
        "Other",
    ]


# --- the count slip ------------------------------------------------------------------------------


def counted(cast) -> tuple[Slip, Slip]:
    """Bank cash counted $5.00 short ("cash short", no words), the chip bank two $1 chips short
    and one $25 chip over ("other", in words)."""
    stock(cast, chips={"1": 1000, "5": 400, "25": 40}, cash=100_000)
    cash = services.count(
        day=cast.day,
        account=services.account_get(cast.event, "bank_cash"),
        cash=99_500,
        reason=str(VARIANCE_REASONS["cash_short"]),
        variance_reason="cash_short",
        signed=cast.signed(**COUNT_SIGNED),
    )
    chips = services.count(
        day=cast.day,
        account=services.account_get(cast.event, "chip_bank"),
        chips={"1": 998, "5": 400, "25": 41},
        reason=WORDS,
        variance_reason="other",
        signed=cast.signed(**COUNT_SIGNED),
    )
    return cash, chips


def test_the_count_slip_page_shows_the_reason_and_expected_counted_and_variance(client, cast):
    cash, chips = counted(cast)
    client.login(username=cast.general_cashier.user.username, password=PASSWORD)
    page = client.get(reverse("cage:slip", args=[cast.event.slug, chips.pk])).content.decode()
    assert '<td id="slip-reason">Other</td>' in page
    assert f'<td id="slip-reason-details">{WORDS}</td>'.replace("'", "&#x27;") in page
    assert "variance_reason" not in page and ">other<" not in page
    books = page.split('id="expected-and-counted"')[1].split("</table>")[0]
    rows = [" ".join(row.split("<td")[1:]) for row in books.split("<tr>")[2:]]
    assert "$1 chips" in rows[0]
    assert "1000 · $1,000.00" in rows[0] and "998 · $998.00" in rows[0] and "-$2.00 (2 chips short)" in rows[0]
    assert "$5 chips" in rows[1] and "400 · $2,000.00" in rows[1] and "—" in rows[1]
    assert "40 · $1,000.00" in rows[2] and "41 · $1,025.00" in rows[2] and "$25.00 (1 chip over)" in rows[2]
    assert len(rows) == 3  # the chip bank holds no cash: no cash line

    page = client.get(reverse("cage:slip", args=[cast.event.slug, cash.pk])).content.decode()
    assert '<td id="slip-reason">Cash short</td>' in page and "slip-reason-details" not in page
    books = page.split('id="expected-and-counted"')[1].split("</table>")[0]
    assert "$1,000.00" in books and "$995.00" in books and "-$5.00 (short)" in books


def test_a_slip_without_a_count_shows_no_expected_and_counted(client, cast):
    stock(cast)
    client.login(username=cast.general_cashier.user.username, password=PASSWORD)
    slip = Slip.objects.get(slip_type="float_in")
    page = client.get(reverse("cage:slip", args=[cast.event.slug, slip.pk])).content.decode()
    assert "expected-and-counted" not in page and slip_sheet(slip)["count_lines"] == []


def test_a_count_that_matches_shows_expected_and_counted_without_a_variance(client, cast):
    stock(cast, chips={"1": 10}, cash=1000)
    slip = services.count(
        day=cast.day,
        account=services.account_get(cast.event, "bank_cash"),
        cash=1000,
        signed=cast.signed(**COUNT_SIGNED),
    )
    lines = slip_sheet(slip)["count_lines"]
    assert [(line["what"], line["expected"], line["counted"], line["variance"]) for line in lines] == [
        ("cash", "$10.00", "$10.00", "")
    ]
    assert slip_sheet(slip)["reason"] == ""


def test_the_count_slip_pdf_prints_the_reason_and_expected_counted_and_variance(client, cast, tmp_path, poppler):  # noqa: F811
    _cash, chips = counted(cast)
    client.login(username=cast.general_cashier.user.username, password=PASSWORD)
    response = client.get(reverse("cage:slip_pdf", args=[cast.event.slug, chips.pk]))
    assert response["Content-Type"] == "application/pdf"
    pdf = tmp_path / "count.pdf"
    pdf.write_bytes(response.content)
    lines = pdf_lines(pdf)
    assert "Expected and counted" in lines
    assert "Chips or cash Expected Counted Variance" in lines
    assert "$1 chips 1,000 · $1,000.00 998 · $998.00 -$2.00 (2 chips short)" in lines
    assert "$5 chips 400 · $2,000.00 400 · $2,000.00 —" in lines
    assert "$25 chips 40 · $1,000.00 41 · $1,025.00 $25.00 (1 chip over)" in lines
    text = "\n".join(lines)
    assert "Reason\nOther\nDetails\n" in text and "a $25 chip of another fair's set was found" in text
    assert "other" not in lines and "variance_reason" not in text
    pictures(pdf, "count-slip")


def test_the_slip_pdf_takes_a_sheet_without_the_count_keys():
    """render_slip_pdf's count keys are optional: the other slip types' sheets go without them."""
    from tests.cage.test_slip_pdf import FILL

    assert render_slip_pdf(copy.deepcopy(FILL)).startswith(b"%PDF")


# --- the variance report sheet -------------------------------------------------------------------


def test_the_variance_sheet_shows_the_reason_and_the_words_on_the_page_in_csv_and_in_the_pdf(
    client,
    tmp_path,
    poppler,  # noqa: F811
):
    event = reasoned_event()
    day = event.days.get(date="2026-09-12")
    rows = next(s for s in day_sheets(day)["sheets"] if s.key == "variances").plain()
    assert [(r["slip"], r["chips_or_cash"], r["amount"], r["reason"], r["details"]) for r in rows] == [
        ("Count 3", "cash", "5.00", "Cash over", "five dollars over"),
        ("Count 4", "$25 chips", "-25.00", "Other", WORDS),
    ]
    client.login(username="ann", password=PASSWORD)
    url = reverse("reports:day", args=[SLUG, "2026-09-12"])
    page = client.get(url).content.decode()
    sheet = page.split('id="sheet-variances"')[1].split("</section>")[0]
    assert '<th scope="col">Reason</th><th scope="col">Details</th>' in sheet
    assert "<td>Cash over</td><td>five dollars over</td>" in sheet and "<td>Other</td>" in sheet
    assert "cash_over" not in sheet and ">other<" not in sheet

    lines = list(csv.DictReader(io.StringIO(client.get(url, {"format": "csv", "sheet": "variances"}).content.decode())))
    assert [(r["reason"], r["details"]) for r in lines] == [("Cash over", "five dollars over"), ("Other", WORDS)]

    pdf = tmp_path / "day.pdf"
    pdf.write_bytes(client.get(url, {"format": "pdf"}).content)
    pictures(pdf, "variance-reasons-day")
    text = "\n".join(pdf_lines(pdf))
    section = text.split("Variance report")[1].split("Tip distribution")[0]
    assert "Reason Details" in section
    assert "Count 3 22:30 bank cash cash $5.00 Cash over five dollars over" in section
    assert "Count 4 22:35 chip bank $25 chips -$25.00 Other" in section
    assert "cash_over" not in text


# --- the event report ----------------------------------------------------------------------------


def test_the_event_report_page_shows_each_variances_reason_and_words(client):
    reasoned_event()
    client.login(username="ann", password=PASSWORD)
    page = client.get(reverse("reports:event", args=[SLUG])).content.decode()
    table = page.split('id="variances"')[1].split("</table>")[0]
    assert "<th>Reason</th><th>Details</th>" in table
    assert "<td>Missing chips</td><td>two $1 chips missing</td>" in table
    assert "<td>Cash over</td><td>five dollars over</td>" in table
    assert f"<td>Other</td><td>{WORDS}</td>".replace("'", "&#x27;") in table
    assert "missing_chips" not in page and "cash_over" not in page


def test_the_json_report_keeps_its_own_shape_and_the_notes_stand_beside_it():
    event = reasoned_event()
    figures, notes = report_figures(event)
    assert figures == event_figures(event)
    assert all(set(v) == {"date", "account", "instrument", "amount", "reason"} for v in figures["variances"])
    assert [v["reason"] for v in figures["variances"]] == ["two $1 chips missing", "five dollars over", WORDS]
    assert notes == [
        {"reason": "Missing chips", "details": "two $1 chips missing"},
        {"reason": "Cash over", "details": "five dollars over"},
        {"reason": "Other", "details": WORDS},
    ]


def test_the_financial_report_pdf_prints_each_variances_reason_and_words(tmp_path, poppler):  # noqa: F811
    event = reasoned_event()
    # Every day closed: no DRAFT stamp across the text.
    assert not event.days.exclude(status=GamingDay.Status.CLOSED).exists()
    pdf = tmp_path / "report.pdf"
    call_command("event_report", SLUG, "--format", "pdf", "--out", str(pdf))
    pictures(pdf, "variance-reasons-report")
    text = "\n".join(pdf_lines(pdf))
    assert "Date Place Chips or cash Amount Reason Details" in text
    assert "2026-09-11 chip bank $1 chips -$2.00 Missing chips two $1 chips missing" in text
    assert "2026-09-12 bank cash cash $5.00 Cash over five dollars over" in text
    assert "2026-09-12 chip bank $25 chips -$25.00 Other a $25 chip of another" in text
    assert "missing_chips" not in text and "cash_over" not in text
