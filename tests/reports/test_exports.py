"""event_report as CSV and as the PDF financial report, read back with poppler as a person would."""

import copy
import csv
import io
import os
import shutil
import subprocess

import pytest
from django.core.management import call_command
from django.urls import reverse

from cage.importer import import_records
from tests.conftest import PASSWORD, give_login
from tests.reports.test_figures import EXAMPLE

pytestmark = pytest.mark.django_db


@pytest.fixture
def poppler():
    if shutil.which("pdftotext") is None:
        if os.environ.get("REQUIRE_PDF_TOOLS"):
            pytest.fail("REQUIRE_PDF_TOOLS is set but poppler-utils (pdftotext) is not installed")
        pytest.skip("poppler-utils is not installed (apt-get install poppler-utils); PDF reading skipped")


def pdf_text(path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True).stdout


def test_the_csv_has_every_figure_as_a_row():
    import_records(copy.deepcopy(EXAMPLE))
    out = io.StringIO()
    call_command("event_report", "lakeside-fair-2026", "--format", "csv", stdout=out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert {
        "section": "tables",
        "date": "2026-09-11",
        "subject": "WOF-1",
        "measure": "win",
        "value": "-120.00",
        "note": "wheel_of_fortune",
    } in rows
    assert {
        "section": "event_totals",
        "date": "",
        "subject": "lakeside-fair-2026",
        "measure": "net_proceeds",
        "value": "95.00",
        "note": "",
    } in rows
    assert {
        "section": "variances",
        "date": "2026-09-11",
        "subject": "chip_bank",
        "measure": "chips:1",
        "value": "-2.00",
        "note": "two $1 chips missing",
    } in rows


def test_the_financial_report_pdf_reads_back_with_the_figures_and_the_signature_block(tmp_path, poppler):
    import_records(copy.deepcopy(EXAMPLE))
    pdf = tmp_path / "report.pdf"
    call_command("event_report", "lakeside-fair-2026", "--format", "pdf", "--out", str(pdf))
    text = pdf_text(pdf)
    assert "Financial report: Fair or Exhibition Gaming Event" in text
    assert "Lakeside Agricultural Society" in text and "F-2026-0117" in text
    lines = {" ".join(line.split()) for line in text.splitlines()}
    assert "Net proceeds $95.00" in lines and "Chips outstanding (sold, never redeemed) $30.00" in lines
    assert "2026-09-11 WOF-1 Wheel of Fortune $200.00 $100.00 $0.00 $180.00 -$120.00" in lines
    assert "2026-09-11 Dana Kowalski 4 $16.00" in lines
    assert any(line.startswith("Designated Representative in Charge Ann Leblanc ____") for line in lines)
    subprocess.run(["pdftoppm", "-png", "-r", "40", str(pdf), str(tmp_path / "page")], check=True)
    assert (tmp_path / "page-1.png").stat().st_size > 5_000


def test_text_that_looks_like_markup_is_printed_as_written(tmp_path, poppler):
    data = copy.deepcopy(EXAMPLE)
    data["days"][0]["records"][27]["description"] = "Tables & wheel <b>rental</b>"
    import_records(data)
    pdf = tmp_path / "report.pdf"
    call_command("event_report", "lakeside-fair-2026", "--format", "pdf", "--out", str(pdf))
    assert "Tables & wheel <b>rental</b>" in pdf_text(pdf)


def test_the_financial_report_is_one_click_from_the_report_page(client, poppler, tmp_path):
    event = import_records(copy.deepcopy(EXAMPLE))
    give_login(event.people.get(code="ann"), "ann")
    assert client.login(username="ann", password=PASSWORD)
    page = client.get(reverse("reports:event", args=[event.slug])).content.decode()
    assert reverse("reports:event_pdf", args=[event.slug]) in page
    response = client.get(reverse("reports:event_pdf", args=[event.slug]))
    assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF")
    (tmp_path / "r.pdf").write_bytes(response.content)
    assert "Net proceeds" in pdf_text(tmp_path / "r.pdf")
    csv_response = client.get(reverse("reports:event_csv", args=[event.slug]))
    assert csv_response["Content-Type"] == "text/csv" and b"net_proceeds,95.00" in csv_response.content


def test_an_unknown_event_is_named(capsys):
    with pytest.raises(Exception, match="no event 'nope'"):
        call_command("event_report", "nope")


def test_the_report_pages_total_labels_translate_and_the_json_keys_stay(tmp_path, settings):
    """The labels a person reads on the report page go through the translation catalogue (here a
    French one compiled for the test); the JSON report's keys are the format's and never change."""
    from django.utils import translation

    from reports.exports import TOTAL_LABELS
    from reports.figures import event_figures

    if shutil.which("msgfmt") is None:
        pytest.skip("gettext's msgfmt is not installed; the catalogue cannot be compiled")
    messages = tmp_path / "fr" / "LC_MESSAGES"
    messages.mkdir(parents=True)
    (messages / "django.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Chip sales"\nmsgstr "Ventes de jetons"\n\n'
        'msgid "Net proceeds"\nmsgstr "Produit net"\n',
        encoding="utf-8",
    )
    subprocess.run(["msgfmt", "-o", str(messages / "django.mo"), str(messages / "django.po")], check=True)
    settings.LOCALE_PATHS = [str(tmp_path)]
    with translation.override("fr"):
        assert str(TOTAL_LABELS["chip_sales"]) == "Ventes de jetons"
        assert str(TOTAL_LABELS["net_proceeds"]) == "Produit net"
        event = import_records(copy.deepcopy(EXAMPLE))
        totals = event_figures(event)["event_totals"]
    assert str(TOTAL_LABELS["chip_sales"]) == "Chip sales"  # English again outside
    assert (
        list(totals)
        == list(TOTAL_LABELS)
        == [
            "win",
            "chip_sales",
            "redemptions",
            "chips_outstanding",
            "tips",
            "cash_over_short",
            "chip_over_short",
            "expenses",
            "net_proceeds",
        ]
    )
