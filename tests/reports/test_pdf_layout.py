"""The reports' PDF tables as a reader meets them: no word broken in the middle, no heading running
over its column, no heading alone at the foot of a page; read back with poppler and looked at."""

import copy
import datetime
import subprocess

import pytest
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Table

from cage.importer import import_records
from core.pdf_layout import PADDING, SLACK, content_widths, words_whole
from events.models import GamingDay
from reports.daily import day_sheets
from reports.daily_exports import WIDTH, sheets_pdf
from reports.exports import FRAME_WIDTH, figures_pdf
from reports.figures import report_figures
from tests.reports.test_exports import poppler  # noqa: F401  (a fixture: skips, or fails, without pdftotext)
from tests.reports.test_figures import EXAMPLE
from tests.reports.test_variance_reasons import WORDS, pdf_lines, pictures, reasoned_data

pytestmark = pytest.mark.django_db
CELL = ParagraphStyle("test-cell", fontName="Helvetica", fontSize=9, leading=11)


def para(text) -> Paragraph:
    return Paragraph(text, CELL)


# --- the widths ----------------------------------------------------------------------------------


def test_a_table_that_fits_is_as_wide_as_its_text_and_one_that_does_not_keeps_every_word_whole():
    rows = [[para("Slip"), para("Opener against the last closer")], [para("Count 2"), para("short")]]
    natural = content_widths(rows, 1000)
    heading = para("Opener against the last closer")
    heading.wrap(1e6, 1e6)
    assert natural[1] == pytest.approx(heading.getActualLineWidths0()[0] + PADDING + SLACK)  # on one line
    assert sum(natural) < 1000 and natural[0] >= para("Count 2").minWidth() + PADDING
    narrow = content_widths([[para("Slip"), para(WORDS)]], 200)
    assert sum(narrow) == pytest.approx(200)
    assert narrow[0] >= para("Slip").minWidth() + PADDING
    assert narrow[1] >= max(para(word).minWidth() for word in WORDS.split()) + PADDING


def test_the_room_left_goes_first_to_the_columns_that_need_little_to_fit_whole():
    rows = [[para("Rita Okafor"), para(WORDS), para(WORDS + " " + WORDS)]]
    widths = content_widths(rows, 400)
    full = content_widths(rows, 10_000)
    assert widths[0] == pytest.approx(full[0])  # the name stays on one line
    assert sum(widths) == pytest.approx(400)


def test_designed_widths_are_widened_to_the_longest_word_taking_the_room_from_the_others():
    rows = [[para("<b>Cash over/short</b>"), para("Win")], [para("$1,000,000.00"), para("$2.00")]]
    widths = words_whole(rows, [40, 200], 500)
    assert widths[0] >= para("$1,000,000.00").minWidth() + PADDING
    assert sum(widths) == pytest.approx(240)  # the table keeps its width


# --- every table of the daily sheets and of the financial report --------------------------------


def tables_in(flowables):
    for f in flowables:
        if isinstance(f, Table):
            yield f
            for row in f._cellvalues:
                yield from tables_in(row)
        elif isinstance(f, KeepTogether):
            yield from tables_in(f._content)
        elif isinstance(f, list | tuple):
            yield from tables_in(f)


def broken_words(flowables, available) -> list[str]:
    """Each cell whose longest word is wider than its column, and each table wider than the frame."""
    faults = []
    for table in tables_in(flowables):
        widths = table._colWidths
        if sum(widths) > available + 0.5:
            faults.append(f"a table {sum(widths):.0f} pt wide in a frame of {available:.0f} pt")
        for row in table._cellvalues:
            for value, width in zip(row, widths, strict=True):
                # reportlab keeps a cell's flowables as a tuple of them.
                for cell in value if isinstance(value, list | tuple) else [value]:
                    if isinstance(cell, Paragraph) and cell.minWidth() + PADDING > width + 0.01:
                        faults.append(f"{cell.getPlainText()!r} in a column of {width:.0f} pt")
                    elif isinstance(cell, str) and cell:
                        faults.append(f"{cell!r} is not laid out as a paragraph")
    return faults


def test_the_check_finds_a_word_wider_than_its_column_and_a_table_wider_than_the_frame():
    assert broken_words([Table([[para("Redemptions")]], colWidths=[20])], 500) == ["'Redemptions' in a column of 20 pt"]
    assert broken_words([KeepTogether([Table([["plain"]], colWidths=[600])])], 500) == [
        "a table 600 pt wide in a frame of 500 pt",
        "'plain' is not laid out as a paragraph",
    ]


@pytest.fixture
def stories(monkeypatch):
    """Every story a PDF is built from, as it stands before reportlab lays it out."""
    built = []
    build = SimpleDocTemplate.build

    def keep(self, flowables, *args, **kwargs):
        built.append(list(flowables))
        return build(self, flowables, *args, **kwargs)

    monkeypatch.setattr(SimpleDocTemplate, "build", keep)
    return built


def crowded_event():
    """reasoned_event's two days, with an opener on day two that differs from the last closer (its
    check and the DRIC's sign-off are the sheets' longest text) and a long chip bank reason."""
    data = reasoned_data()
    day2 = data["days"][1]["records"]
    opener = next(r for r in day2 if r["type"] == "table_open")
    opener.update(chips={"1": 140, "5": 135}, reason="one $5 chip missing from the tray when it was unlocked")
    next(r for r in day2 if r["type"] == "table_close")["chips"] = {"1": 145, "5": 139}
    return import_records(data)


def test_no_daily_sheet_breaks_a_word_and_the_pdf_reads_every_word_whole(stories, tmp_path, poppler):  # noqa: F811
    event = crowded_event()
    for day in event.days.order_by("date"):
        data = day_sheets(day)
        pdf = tmp_path / f"{day.date}.pdf"
        pdf.write_bytes(sheets_pdf(data))
        assert broken_words(stories[-1], WIDTH) == [], day.date
        pictures(pdf, f"day-sheets-{day.date}")
        tokens = {token for line in pdf_lines(pdf) for token in line.split()}
        for sheet in [data["figures"]["sheets"][0], *data["sheets"]]:
            words = {w for row in sheet.shown() for text, _right in row["cells"] for w in text.split()}
            if sheet.rows:  # an empty sheet says so, without its table
                words |= {w for column in sheet.columns for w in str(column.label).split()}
            assert words - tokens == set(), (day.date, sheet.key)
    variances = next(s for s in day_sheets(event.days.get(date="2026-09-12"))["sheets"] if s.key == "variances")
    assert any("signed off by Ann Leblanc (DRIC)" in row["opener_check"] for row in variances.plain())


def test_no_table_of_the_financial_report_runs_over_its_column(stories, tmp_path, poppler):  # noqa: F811
    event = crowded_event()
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(figures_pdf(event, *report_figures(event)))
    faults = broken_words(stories[-1], FRAME_WIDTH)
    assert faults == []
    pictures(pdf, "financial-report-crowded")
    lines = pdf_lines(pdf)
    # The day's over/short headings fit their columns: on one line, or wrapped between their words.
    if "Date Win Chip sales Redemptions Tips Cash over/short Chip over/short" not in lines:
        at = lines.index("Date Win Chip sales Redemptions Tips Cash Chip")
        assert lines[at + 1] == "over/short over/short"


HEADINGS = {
    "A. Licensee and event",
    "B. Results",
    "Win by table (win = closer - opener - fills + credits)",
    "Win by game",
    "By day and for the event",
    "Chips",
    "Chips in patrons' hands (chip liability by denomination)",
    "Dealers' tips (T&C 2.6)",
    "Over/short (counted - expected)",
    "Charts",
    "C. Expenses (paid from the licensee's trust account)",
    "D. Net proceeds and the trust account",
    "Deposits to the trust account",
    "Reconciliation",
    "E. Certification",
}


def test_no_heading_of_the_financial_report_sits_alone_at_the_foot_of_a_page(tmp_path, poppler):  # noqa: F811
    """However many rows push the report down, the last line of a page is never a heading."""
    event = import_records(copy.deepcopy(EXAMPLE))
    assert not event.days.exclude(status=GamingDay.Status.CLOSED).exists()  # no DRAFT stamp in the text
    figures, notes = report_figures(event)
    for extra in range(0, 44, 2):
        more = copy.deepcopy(figures)
        first = datetime.date(2026, 9, 11)
        more["tables"] += [
            {**more["tables"][0], "date": (first + datetime.timedelta(days=1 + i // 3)).isoformat()}
            for i in range(extra)
        ]
        pdf = tmp_path / f"report-{extra}.pdf"
        pdf.write_bytes(figures_pdf(event, more, notes))
        pages = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True, text=True)
        for number, page in enumerate(p for p in pages.stdout.split("\f") if p.strip()):
            lines = [" ".join(line.split()) for line in page.splitlines() if line.strip()]
            body = [line for line in lines if not line.startswith("Generated ")]
            assert body[-1] not in HEADINGS, (extra, number + 1, body[-3:])
