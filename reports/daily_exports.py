"""A gaming day's control sheets as CSV and as one PDF, laid out from reports.daily.day_sheets.

Nothing here computes a figure: each sheet's columns and rows are drawn as they are given. The
CSV's header names the columns by their keys, the same in every language; its cells are the
sheets' own text, in the language they were built in. The PDF is in that language too.
"""

import io
from xml.sax.saxutils import escape as _escape

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import inch
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from events import csv_safe
from reports.daily import Sheet


def sheet_csv(sheet: Sheet) -> str:
    """One sheet: a header of column names, then one line per row; money as 1234.56."""
    out = io.StringIO()
    writer = csv_safe.writer(out)
    keys = ["row"] + [c.key for c in sheet.columns]
    writer.writerow(keys)
    for row in sheet.plain():
        writer.writerow([row[k] for k in keys])
    return out.getvalue()


def sheets_csv(data: dict) -> str:
    """Every sheet of the day in one file, a line per cell: date, sheet, line, row, column, value."""
    out = io.StringIO()
    writer = csv_safe.writer(out)
    writer.writerow(["date", "sheet", "line", "row", "column", "value"])
    for sheet in [data["figures"]["sheets"][0], *data["sheets"]]:
        for number, row in enumerate(sheet.plain(), start=1):
            for column in sheet.columns:
                writer.writerow([data["date"], sheet.key, number, row["row"], column.key, row[column.key]])
    return out.getvalue()


CELL = ParagraphStyle("daycell", fontName="Helvetica", fontSize=8, leading=10)
CELL_BOLD = ParagraphStyle("daycellbold", parent=CELL, fontName="Helvetica-Bold")
CELL_RIGHT = ParagraphStyle("daycellright", parent=CELL, alignment=2)
CELL_RIGHT_BOLD = ParagraphStyle("daycellrightbold", parent=CELL_RIGHT, fontName="Helvetica-Bold")
PAGE = landscape(letter)
WIDTH = PAGE[0] - 1.2 * inch


def escape(text: str) -> str:
    """Text for a reportlab paragraph: markup escaped, and the minus sign (U+2212), which the PDF's
    standard Helvetica has no width for, drawn as the hyphen-minus it has."""
    return _escape(text).replace("\u2212", "-")


def _cell(text: str, *, right: bool, bold: bool) -> Paragraph:
    style = (CELL_RIGHT_BOLD if bold else CELL_RIGHT) if right else (CELL_BOLD if bold else CELL)
    return Paragraph(escape(text), style)


def _column_widths(sheet: Sheet, shown: list[dict]) -> list[float]:
    """Each column as wide as its longest text asks, within the page. When the page is too narrow
    for that, every column keeps at least its longest word (a heading breaks between words, never
    inside one: "Remplissages", not "Remplissag / es") and the room left is shared in proportion."""
    pad = 15  # the table's own padding, both sides, and a little room so a figure never wraps

    def width(text: str, bold: bool) -> float:
        return stringWidth(text, "Helvetica-Bold" if bold else "Helvetica", 8)

    def word(text: str, bold: bool) -> float:
        # amounts hold no-break spaces: they count as one word, as they are drawn
        return max((width(w, bold) for w in text.split(" ")), default=0)

    wanted, least = [], []
    for i, column in enumerate(sheet.columns):
        texts = [(str(column.label), True)] + [(row["cells"][i][0], bool(row["kind"])) for row in shown]
        wanted.append(max(0.55 * inch, min(max(width(t, b) for t, b in texts), 4 * inch) + pad))
        least.append(max(0.45 * inch, max(word(t, b) for t, b in texts) + pad))
    if sum(wanted) <= WIDTH:
        return wanted
    if sum(least) >= WIDTH:
        return [w * WIDTH / sum(least) for w in least]
    share = (WIDTH - sum(least)) / (sum(wanted) - sum(least))
    return [low + (high - low) * share for low, high in zip(least, wanted, strict=True)]


def sheet_table(sheet: Sheet) -> Table:
    money = [c.money or c.num for c in sheet.columns]
    header = [_cell(str(c.label), right=m, bold=True) for c, m in zip(sheet.columns, money, strict=True)]
    shown = sheet.shown()
    body = [[_cell(text, right=right, bold=bool(row["kind"])) for text, right in row["cells"]] for row in shown]
    widths = _column_widths(sheet, shown)
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


def sheets_pdf(data: dict) -> bytes:
    """The day's control sheets, one after the other, with the close's signature block."""
    event = data["event"]
    styles = getSampleStyleSheet()
    body, heading = styles["BodyText"], styles["Heading2"]
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
    story += [
        Spacer(1, 0.3 * inch),
        KeepTogether(
            [
                Paragraph(escape(_("Reviewed and approved")), heading),
                Table(
                    [
                        [_("Prepared by (General Cashier)"), _("Signature: ______________________")],
                        [_("Verified by (Chip Cashier)"), _("Signature: ______________________")],
                        [_("Approved by (DRIC)"), _("Signature: ______________________")],
                    ],
                    colWidths=[3 * inch, 3.5 * inch],
                    hAlign="LEFT",
                    style=[("FONT", (0, 0), (-1, -1), "Helvetica", 9), ("BOTTOMPADDING", (0, 0), (-1, -1), 10)],
                ),
            ]
        ),
    ]
    doc.build(story)
    return buffer.getvalue()
