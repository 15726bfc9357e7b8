"""A gaming day's control sheets as CSV, as XLSX and as one PDF, laid out from
reports.daily.day_sheets.

Nothing here computes a figure: each sheet's columns and rows are drawn as they are given. The
CSV's header names the columns by their keys, the same in every language; its cells are the
sheets' own text, in the language they were built in. The PDF is in that language too. The XLSX
is written from the same typed rows as the CSV (typed_rows): its amounts are numbers, its times
times, and its headings the columns' labels, in the reader's language.
"""

import datetime
import io
import re
from decimal import Decimal
from xml.sax.saxutils import escape as _escape

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy
from reportlab.lib import colors
from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import inch
from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from core import xlsx
from core.local import moment
from core.pdf_layout import content_widths, page_canvas, words_whole
from core.xlsx import Cents, Clock, Hidden, Hours, Moment
from events import csv_safe
from reports.daily import BLIND, NotCounted, Sheet

# --- the sheets' typed rows: the CSV and the workbook are both written from them ----------------

# The columns that hold a time of day, written as the reader writes it ("19:05", "19 h 05").
TIME_KEYS = {"time", "from", "until"}
_CLOCK = re.compile(r"([01]\d|2[0-3])(?::|\u00a0h\u00a0)([0-5]\d)")


def _typed(column, value):
    """A sheet's cell (reports.daily.Row) as a typed cell (core.xlsx), whose text is the CSV's
    (reports.daily._plain): cents, hours, a figure not counted yet, a time of day, a count, text."""
    if value is None:
        return ""
    if isinstance(value, NotCounted):
        return Hidden(str(value))
    if isinstance(value, Decimal):
        return Hours(value)
    if column.money and isinstance(value, int):
        return Cents(value)
    if isinstance(value, int):
        return value
    text = str(value)
    found = _CLOCK.fullmatch(text) if column.key in TIME_KEYS else None
    # The sheets give a time as the reader's words (core.local.clock): read back as a time, the
    # CSV keeping those words.
    return Clock(datetime.time(int(found[1]), int(found[2])), text) if found else text


def typed_rows(sheet: Sheet) -> list[tuple[str, list]]:
    """Each row of the sheet as (its kind: line, subtotal, total or blind; its typed cells)."""
    return [
        (row.kind or "line", [_typed(c, v) for c, v in zip(sheet.columns, row.cells, strict=True)])
        for row in sheet.rows
    ]


def sheet_csv(sheet: Sheet) -> str:
    """One sheet: a header of column names, then one line per row; money as 1234.56."""
    out = io.StringIO()
    writer = csv_safe.writer(out)
    writer.writerow(["row"] + [c.key for c in sheet.columns])
    for kind, cells in typed_rows(sheet):
        writer.writerow([kind, *cells])
    return out.getvalue()


def sign_off_rows(data: dict) -> list[list]:
    """The close's signatures, as the PDF's "Reviewed and approved" block gives them: one row per
    capacity (capacity, role, name, signed at, slip), its name and time empty while nobody has
    signed it."""
    slip = data["sign_off"]["slip"] or ""
    return [
        [
            line["capacity"],
            line["role"],
            line["name"] or "",
            Moment(datetime.datetime.fromisoformat(line["signed_iso"])) if line["signed_iso"] else "",
            slip,
        ]
        for line in data["sign_off"]["lines"]
    ]


SIGN_OFF_COLUMNS = ("capacity", "role", "name", "signed_at", "slip")


def day_sheets_of(data: dict) -> list[Sheet]:
    """The day's sheets in their order: the summary of its figures first."""
    return [data["figures"]["sheets"][0], *data["sheets"]]


def sheets_csv(data: dict) -> str:
    """Every sheet of the day in one file, a line per cell: date, sheet, line, row, column, value;
    then the close's signatures (sheet "sign_off": capacity, role, name, signed_at, slip)."""
    out = io.StringIO()
    writer = csv_safe.writer(out)
    writer.writerow(["date", "sheet", "line", "row", "column", "value"])
    for sheet in day_sheets_of(data):
        for number, (kind, cells) in enumerate(typed_rows(sheet), start=1):
            for column, cell in zip(sheet.columns, cells, strict=True):
                writer.writerow([data["date"], sheet.key, number, kind, column.key, cell])
    for number, line in enumerate(sign_off_rows(data), start=1):
        for column, cell in zip(SIGN_OFF_COLUMNS, line, strict=True):
            writer.writerow([data["date"], SIGN_OFF, number, "line", column, cell])
    # The locked day's seal (core.chain): the digest its signatures stand beside.
    if data["sign_off"].get("seal"):
        writer.writerow([data["date"], SEAL, 1, "line", "digest", data["sign_off"]["seal"]])
    return out.getvalue()


SIGN_OFF = "sign_off"  # the CSV's sheet name for the close's signatures
SEAL = "seal"  # and for the locked day's seal


# --- the same rows as workbooks (core.xlsx) ------------------------------------------------------

# A row's kind, as a person reads it (the CSV keeps the code).
ROW_KINDS = {
    "line": pgettext_lazy("kind of a sheet's row", "line"),
    "subtotal": pgettext_lazy("kind of a sheet's row", "subtotal"),
    "total": pgettext_lazy("kind of a sheet's row", "total"),
    BLIND: pgettext_lazy("kind of a sheet's row", "blind count"),
}


def _worksheet(data: dict, name: str, what: str, header: list[str], rows: list[list], strong=()) -> xlsx.Sheet:
    title = _("%(event)s: %(sheet)s, %(day)s") % {
        "event": data["event"].name,
        "sheet": what,
        "day": xlsx.days_words(data["day"].date, data["day"].date),
    }
    return xlsx.Sheet(name, title, header, rows, set(strong))


def sheet_worksheet(data: dict, sheet: Sheet) -> xlsx.Sheet:
    """One sheet as a worksheet: its CSV's rows and columns (sheet_csv), headed in the reader's
    language, subtotals and totals in bold."""
    rows = typed_rows(sheet)
    return _worksheet(
        data,
        str(sheet.title),
        str(sheet.title),
        [pgettext("kind of a sheet's row", "Row"), *(str(c.label) for c in sheet.columns)],
        [[str(ROW_KINDS.get(kind, kind)), *cells] for kind, cells in rows],
        strong=[i for i, (kind, _cells) in enumerate(rows) if kind in ("subtotal", "total")],
    )


def sheet_xlsx(data: dict, sheet: Sheet, made: xlsx.Made) -> bytes:
    return xlsx.workbook([sheet_worksheet(data, sheet)], made)


def sheets_xlsx(data: dict, made: xlsx.Made) -> bytes:
    """Every sheet of the day, a worksheet each (each the twin of that sheet's own CSV), then the
    close's signatures and the locked day's seal: what sheets_csv gives a line per cell."""
    signed = _("Reviewed and approved")
    sheets = [sheet_worksheet(data, sheet) for sheet in day_sheets_of(data)]
    headings = [_("Capacity"), _("Role"), _("Name"), _("Date and time"), _("Slip")]
    sheets.append(_worksheet(data, signed, signed, headings, sign_off_rows(data)))
    if data["sign_off"].get("seal"):
        seal = _("Seal of the day's records")
        sheets.append(_worksheet(data, seal, seal, [seal], [[data["sign_off"]["seal"]]]))
    return xlsx.workbook(sheets, made)


CELL = ParagraphStyle("daycell", fontName="Helvetica", fontSize=8, leading=10)
CELL_BOLD = ParagraphStyle("daycellbold", parent=CELL, fontName="Helvetica-Bold")
CELL_RIGHT = ParagraphStyle("daycellright", parent=CELL, alignment=2)
CELL_RIGHT_BOLD = ParagraphStyle("daycellrightbold", parent=CELL_RIGHT, fontName="Helvetica-Bold")
SEAL_STYLE = ParagraphStyle("dayseal", fontName="Courier-Bold", fontSize=11, leading=14)
PAGE = landscape(letter)
# The frame's width: the page less its margins and the frame's own padding (6 pt each side).
WIDTH = PAGE[0] - 1.2 * inch - 12


def escape(text: str) -> str:
    """Text for a reportlab paragraph: markup escaped, and the minus sign (U+2212), which the PDF's
    standard Helvetica has no width for, drawn as the hyphen-minus it has."""
    return _escape(text).replace("\u2212", "-")


def _cell(text: str, *, right: bool, bold: bool) -> Paragraph:
    style = (CELL_RIGHT_BOLD if bold else CELL_RIGHT) if right else (CELL_BOLD if bold else CELL)
    return Paragraph(escape(text), style)


def sheet_table(sheet: Sheet) -> Table:
    money = [c.money or c.num for c in sheet.columns]
    header = [_cell(str(c.label), right=m, bold=True) for c, m in zip(sheet.columns, money, strict=True)]
    body = [[_cell(text, right=right, bold=row["strong"]) for text, right in row["cells"]] for row in sheet.shown()]
    # Each column at least as wide as its longest word, so that no word breaks; the room left goes
    # to the columns whose text would wrap (core.pdf_layout).
    widths = content_widths([header, *body], WIDTH)
    table = Table([header, *body], colWidths=widths, repeatRows=1, hAlign="LEFT")
    style = [
        ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#9aa5b1")),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e6ebf0")),
    ]
    for i, row in enumerate(sheet.rows, start=1):
        if row.kind:
            style.append(("BACKGROUND", (0, i), (-1, i), colors.HexColor("#f3f5f7")))
    table.setStyle(TableStyle(style))
    return table


def sign_off_block(sign_off: dict, heading, body) -> list:
    """The day's review and approval: each designated person's name, role and time as signed in
    the app at the day's close; a blank line to sign on where nobody has signed yet."""

    def cell(text, *, bold=False):
        return _cell(text, right=False, bold=bold)

    # Narrow empty columns between name, time and signature keep their pen lines apart.
    rows = [[cell(_("Capacity"), bold=True), cell(_("Role"), bold=True), cell(_("Name"), bold=True), ""]]
    rows[0] += [cell(_("Date and time"), bold=True), "", cell(_("Signature"), bold=True)]
    style = [
        ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.HexColor("#52606d")),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
    ]
    for i, line in enumerate(sign_off["lines"], start=1):
        row = [cell(line["capacity"], bold=True), cell(line["role"])]
        if line["name"]:
            row += [cell(line["name"]), "", cell(line["signed_at"]), "", cell(_("signed in the app"))]
        else:
            # Room for a pen: the name, the time and the signature, each on a line of its own.
            row += ["", "", "", "", ""]
            style += [("LINEBELOW", (col, i), (col, i), 0.8, colors.black) for col in (2, 4, 6)]
            style.append(("TOPPADDING", (0, i), (-1, i), 18))
        rows.append(row)
    designed = [1.3 * inch, 1.5 * inch, 2.3 * inch, 0.2 * inch, 1.5 * inch, 0.2 * inch, 2.4 * inch]
    table = Table(rows, colWidths=words_whole(rows, designed, WIDTH), hAlign="LEFT", style=style)
    if sign_off["slip"]:
        note = _("Signed in the app when the day closed (%(slip)s).") % {"slip": sign_off["slip"]}
    else:
        note = _("The day is not closed: nobody has signed it in the app yet.")
    story = [Paragraph(escape(_("Reviewed and approved")), heading), table, Paragraph(escape(note), body)]
    if sign_off.get("seal"):
        story += [
            Paragraph(escape(_("Seal of the day's records")), heading),
            Paragraph(escape(sign_off["seal_shown"]), SEAL_STYLE),
            Paragraph(
                escape(
                    _(
                        "A copy of the records that gives another seal for this day has been changed since it "
                        "closed (python manage.py verify_records checks one; its first 16 digits are enough)."
                    )
                ),
                body,
            ),
        ]
    return story


def sheets_pdf(data: dict) -> bytes:
    """The day's control sheets, one after the other, with the close's signature block."""
    event = data["event"]
    styles = getSampleStyleSheet()
    body = styles["BodyText"]
    # A sheet's title never sits alone at the foot of a page.
    heading = ParagraphStyle("day-sheet-heading", parent=styles["Heading2"], keepWithNext=1)
    buffer = io.BytesIO()
    title = _("Daily control sheets: %(event)s, gaming day %(date)s") % {
        "event": event.name,
        "date": data["date_shown"],
    }
    doc = SimpleDocTemplate(
        buffer,
        pagesize=PAGE,
        leftMargin=0.6 * inch,
        rightMargin=0.6 * inch,
        topMargin=0.6 * inch,
        bottomMargin=0.6 * inch,
        title=title,
        author=event.licensee.name,
    )
    story = [
        Paragraph(escape(title), styles["Title"]),
        Paragraph(
            escape(
                _("%(licensee)s, licence %(licence)s, %(venue)s")
                % {"licensee": event.licensee.name, "licence": event.licence_number, "venue": event.venue}
            ),
            body,
        ),
    ]
    figures = data["figures"]["sheets"][0]
    for sheet in [figures, *data["sheets"]]:
        block = [Paragraph(escape(str(sheet.title)), heading)]
        block.append(sheet_table(sheet) if sheet.rows else Paragraph(escape(str(sheet.empty)), body))
        block += [Paragraph(escape(str(note)), body) for note in sheet.notes]
        story.append(KeepTogether(block))
    story += [Spacer(1, 0.3 * inch), KeepTogether(sign_off_block(data["sign_off"], heading, body))]
    # Every page says whose day it is, which day, and which page: a sheet read on its own, or
    # photocopied, is still the day's.
    footer = _("%(event)s, gaming day %(date)s; generated %(time)s") % {
        "event": event.name,
        "date": data["date_shown"],
        "time": moment(timezone.now()),
    }
    doc.build(story, canvasmaker=page_canvas(draft="", generated=footer))
    return buffer.getvalue()
