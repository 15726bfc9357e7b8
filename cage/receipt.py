"""One cage slip on an 80 mm receipt: the same sheet as the letter-size page (cage.slip_pdf), laid out
for a thermal printer's roll.

The slip is first a list of lines (`receipt_lines`): what the receipt says, in order, each line of a
kind (a heading, a label and its figure, a stamp, a line to sign on, the QR code...). Two layouts
read them: `render_receipt_pdf`, a PDF 80 mm wide and as tall as the slip (a roll has no pages), for
the browser to print; and cage.receipt_printer, ESC/POS for a receipt printer on the cage's network.
The words the lines add to the sheet are the letter's own (cage.slip_pdf), so the three say the same.

REPRINT, a copy for reading, VOID and REFUSED are stamps of their own, boxed lines at the top of the
flow: on a strip 72 mm wide a stamp drawn over the text would hide it.
"""

import io
from dataclasses import dataclass
from xml.sax.saxutils import escape

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate, Paragraph, Spacer, Table, TableStyle

from cage.paper_pdf import qr_code
from cage.slip_pdf import (
    cancel_stamp,
    copy_stamp,
    count_caption,
    licence_line,
    piece_rows,
    printed_line,
    qr_caption,
    signer_label,
    written_line,
)
from core.local import moment
from core.money import dollars

# --- what the receipt says --------------------------------------------------------------------

STAMP, EVENT, TEXT, CAPTION, TITLE, STATE, HEADING, SUBHEADING = (
    "stamp",
    "event",
    "text",
    "caption",
    "title",
    "state",
    "heading",
    "subheading",
)
FACT, PAIR, PIECES_HEAD, PIECE, PIECES_TOTAL, TOTAL, PEN, SEAL, QR, RULE = (
    "fact",
    "pair",
    "pieces_head",
    "piece",
    "pieces_total",
    "total",
    "pen",
    "seal",
    "qr",
    "rule",
)


@dataclass(frozen=True)
class Line:
    """One line of the receipt. `text` is what it says; `cells` what goes beside it: a figure
    (FACT, PAIR, TOTAL), a stamp's detail (STAMP), a count and a value (PIECE...), a caption (QR)."""

    kind: str
    text: str = ""
    cells: tuple = ()
    strong: bool = False


def receipt_lines(sheet: dict) -> list[Line]:
    """The slip, line by line, as the receipt prints it (see cage.slip_pdf.render_slip_pdf for the
    sheet's keys)."""
    return (
        _stamps(sheet)
        + _head(sheet)
        + _money(sheet)
        + _counted(sheet)
        + _notes(sheet)
        + _day_figures(sheet)
        + _signatures(sheet)
        + _seal(sheet)
        + _tail(sheet)
    )


def _stamps(sheet: dict) -> list[Line]:
    lines = []
    copy = copy_stamp(sheet)
    if copy:
        lines.append(Line(STAMP, copy))
    cancelled = cancel_stamp(sheet)
    if cancelled:
        lines.append(Line(STAMP, cancelled[0], (cancelled[1],)))
    return lines


def _head(sheet: dict) -> list[Line]:
    lines = [
        Line(EVENT, sheet["event"]),
        Line(TEXT, sheet["licensee"]),
        Line(TEXT, licence_line(sheet), strong=True),
        Line(RULE),
        Line(TITLE, sheet["title"]),
        Line(STATE, sheet["state"]),
        Line(TEXT, written_line(sheet)),
    ]
    lines += [Line(FACT, label, (value,)) for label, value in sheet["facts"]]
    return lines


def _pieces(heading: str, pieces: list[dict], total_label: str) -> list[Line]:
    rows = piece_rows(heading, pieces, total_label)
    return (
        [Line(PIECES_HEAD, rows[0][0], tuple(rows[0][1:]))]
        + [Line(PIECE, row[0], tuple(row[1:])) for row in rows[1:-1]]
        + [Line(PIECES_TOTAL, rows[-1][0], tuple(rows[-1][1:]))]
    )


def _money(sheet: dict) -> list[Line]:
    lines = []
    if sheet["chips"]:
        lines += [Line(HEADING, _("Chips")), *_pieces(_("Denomination"), sheet["chips"], _("Total chips"))]
    if sheet.get("cash") is not None:
        lines.append(Line(HEADING, _("Cash: %(amount)s") % {"amount": dollars(sheet["cash"])}))
        if sheet.get("cash_lines"):
            lines += _pieces(_("Bills and coins"), sheet["cash_lines"], _("Total cash"))
    if not sheet.get("day_sheets"):  # a day close moves nothing: its figures are the day's
        lines.append(Line(TOTAL, _("Slip total"), (dollars(sheet["total"]),)))
    return lines


def _counted(sheet: dict) -> list[Line]:
    """A count's expected, counted and variance, one block per chip denomination and for cash."""
    if not sheet.get("count_lines"):
        return []
    lines = [Line(HEADING, _("Expected and counted"))]
    for line in sheet["count_lines"]:
        variance = (
            _("%(amount)s (%(how)s)") % {"amount": line["variance"], "how": line["how"]} if line["variance"] else "—"
        )
        lines += [
            Line(SUBHEADING, line["what"]),
            Line(PAIR, _("Expected"), (_count_figure(line, "expected"),)),
            Line(PAIR, _("Counted"), (_count_figure(line, "counted"),)),
            Line(PAIR, _("Variance"), (variance,), strong=bool(line["variance"])),
        ]
    lines.append(Line(CAPTION, count_caption()))
    return lines


def _count_figure(line: dict, key: str) -> str:
    """A count's figure as the letter prints it: chips with their number ("40 · $200.00"), cash alone."""
    count = line[f"{key}_count"]
    return line[key] if count is None else f"{count:,} · {line[key]}"


def _notes(sheet: dict) -> list[Line]:
    lines = []
    if sheet.get("reason"):
        lines += [Line(HEADING, _("Reason")), Line(TEXT, sheet["reason"])]
    if sheet.get("reason_details"):
        lines += [Line(HEADING, _("Details")), Line(TEXT, sheet["reason_details"])]
    if sheet.get("void_notes"):
        lines.append(Line(HEADING, _("Voids")))
        lines += [Line(FACT, what, (note,)) for what, note in sheet["void_notes"]]
    return lines


def _day_figures(sheet: dict) -> list[Line]:
    """The close slip's day: each sheet's rows one under the other, each figure beside its column's
    name (a table of eight columns does not fit 72 mm)."""
    if not sheet.get("day_sheets"):
        return []
    lines = [Line(HEADING, _("The day's figures"))]
    for day_sheet in sheet["day_sheets"]:
        lines.append(Line(SUBHEADING, day_sheet.title))
        if not day_sheet.rows:
            lines.append(Line(CAPTION, day_sheet.empty))
            continue
        labels = [str(c.label) for c in day_sheet.columns]
        for row in day_sheet.shown():
            (first, _right), *rest = row["cells"]
            lines.append(Line(TEXT, first, strong=True))
            lines += [
                Line(PAIR, label, (text,), strong=row["strong"])
                for label, (text, _right) in zip(labels[1:], rest, strict=True)
                if text
            ]
        lines += [Line(CAPTION, note) for note in day_sheet.notes]
    return lines


def _signatures(sheet: dict) -> list[Line]:
    lines = []
    if sheet["signatures"]:
        lines.append(Line(HEADING, _("Signatures")))
        for s in sheet["signatures"]:
            lines += [
                Line(SUBHEADING, signer_label(s["capacity"], s["role"])),
                Line(PAIR, s["name"], (moment(s["signed_at"]),)),
            ]
    if sheet["to_sign"]:
        lines.append(Line(HEADING, _("Still to sign")))
        for line in sheet["to_sign"]:
            # Room for a pen: the signature, the name printed and the time, each on a line of its own.
            who = signer_label(line["capacity"], line["role"])
            lines += [Line(PEN, who, strong=True), Line(PEN, _("Name (print)")), Line(PEN, _("Time"))]
    return lines


def _seal(sheet: dict) -> list[Line]:
    if not sheet.get("seal"):
        return []
    return [
        Line(HEADING, _("Seal of the day's records")),
        Line(SEAL, sheet["seal"]),
        Line(CAPTION, _("To check a copy of the records against it, its first 16 digits are enough.")),
    ]


def _tail(sheet: dict) -> list[Line]:
    lines = [Line(RULE)]
    if sheet.get("url"):
        lines.append(Line(QR, sheet["url"], (qr_caption(),)))
    return lines + [Line(CAPTION, printed_line(sheet))]


# --- the receipt as a PDF 80 mm wide ----------------------------------------------------------

PAGE_WIDTH = 80 * mm
SIDE = 4 * mm  # a thermal head prints about 72 mm of an 80 mm roll
WIDTH = PAGE_WIDTH - 2 * SIDE
TOP = BOTTOM = 5 * mm
# A PDF page is at most 200 inches tall (14,400 pt) in most readers; a longer slip (a close slip
# of a large event) goes on as a second page of the same roll.
MAX_HEIGHT = 14_400
QR_SIZE = 32 * mm

INK = colors.black  # a thermal printer prints black or nothing: no grey, no red
BODY = ParagraphStyle("receipt-body", fontName="Helvetica", fontSize=9.5, leading=12, textColor=INK)
BOLD = ParagraphStyle("receipt-bold", parent=BODY, fontName="Helvetica-Bold")
RIGHT = ParagraphStyle("receipt-right", parent=BODY, alignment=2)
BOLD_RIGHT = ParagraphStyle("receipt-bold-right", parent=BOLD, alignment=2)
SMALL = ParagraphStyle("receipt-small", parent=BODY, fontSize=8.5, leading=10.5)
SMALL_CENTRE = ParagraphStyle("receipt-small-centre", parent=SMALL, alignment=1)
SMALL_BOLD = ParagraphStyle("receipt-small-bold", parent=SMALL, fontName="Helvetica-Bold")
EVENT_STYLE = ParagraphStyle("receipt-event", parent=BOLD, fontSize=11, leading=13.5)
TITLE_STYLE = ParagraphStyle("receipt-title", parent=BOLD, fontSize=20, leading=23, spaceBefore=4)
STATE_STYLE = ParagraphStyle("receipt-state", parent=BOLD, fontSize=11, leading=13.5)
HEADING_STYLE = ParagraphStyle("receipt-heading", parent=BOLD, fontSize=10.5, leading=13, spaceBefore=7, spaceAfter=2)
SUB_STYLE = ParagraphStyle("receipt-sub", parent=BOLD, spaceBefore=3)
STAMP_STYLE = ParagraphStyle("receipt-stamp", parent=BOLD, fontSize=18, leading=21, alignment=1)
STAMP_DETAIL = ParagraphStyle("receipt-stamp-detail", parent=BOLD, alignment=1)
TOTAL_STYLE = ParagraphStyle("receipt-total", parent=BOLD, fontSize=12.5, leading=15)
TOTAL_RIGHT = ParagraphStyle("receipt-total-right", parent=TOTAL_STYLE, alignment=2)
SEAL_STYLE = ParagraphStyle("receipt-seal", parent=BODY, fontName="Courier-Bold", fontSize=9.5, leading=12)

# Label, count and value of a chip or a bill: the label takes what the figures leave.
PIECE_WIDTHS = [WIDTH - 17 * mm - 23 * mm, 17 * mm, 23 * mm]


def _p(text, style=BODY) -> Paragraph:
    return Paragraph(escape(str(text)), style)


def _grid(rows, widths, style=(), heights=None) -> Table:
    table = Table(rows, colWidths=widths, rowHeights=heights, hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                *style,
            ]
        )
    )
    return table


def _stamp(line: Line) -> list:
    # As large as one line of the box takes: REPRINT at 18 pt, "Copy for reading: not the original" at 11.
    size = STAMP_STYLE.fontSize
    while size > 11 and stringWidth(line.text, STAMP_STYLE.fontName, size) > WIDTH - 8:
        size -= 1
    style = ParagraphStyle(f"receipt-stamp-{size}", parent=STAMP_STYLE, fontSize=size, leading=size * 1.2)
    rows = [[_p(line.text, style)]] + [[_p(detail, STAMP_DETAIL)] for detail in line.cells]
    style = [
        ("BOX", (0, 0), (-1, -1), 2, INK),
        ("TOPPADDING", (0, 0), (-1, 0), 4),
        ("BOTTOMPADDING", (0, -1), (-1, -1), 5),
        ("LEFTPADDING", (0, 0), (-1, -1), 4),
        ("RIGHTPADDING", (0, 0), (-1, -1), 4),
    ]
    return [_grid(rows, [WIDTH], style), Spacer(1, 5)]


def _pair(line: Line) -> list:
    left, right = (BOLD, BOLD_RIGHT) if line.strong else (BODY, RIGHT)
    return [_grid([[_p(line.text, left), _p(line.cells[0], right)]], [WIDTH * 0.5, WIDTH * 0.5])]


def _piece(line: Line) -> list:
    bold = line.kind in (PIECES_HEAD, PIECES_TOTAL)
    left, right = (BOLD, BOLD_RIGHT) if bold else (BODY, RIGHT)
    cells = [_p(line.text, left), *[_p(cell, right) for cell in line.cells]]
    style = [("LINEBELOW", (0, 0), (-1, -1), 0.75, INK)] if line.kind == PIECES_HEAD else []
    style += [("LINEABOVE", (0, 0), (-1, -1), 1, INK)] if line.kind == PIECES_TOTAL else []
    return [_grid([cells], PIECE_WIDTHS, style)]


def _total(line: Line) -> list:
    style = [
        ("BOX", (0, 0), (-1, -1), 1.5, INK),
        ("LEFTPADDING", (0, 0), (-1, -1), 4),
        ("RIGHTPADDING", (0, 0), (-1, -1), 4),
        ("TOPPADDING", (0, 0), (-1, -1), 3),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
    ]
    row = [[_p(line.text, TOTAL_STYLE), _p(line.cells[0], TOTAL_RIGHT)]]
    # The figure takes what it needs and the label the rest, so "Total de la fiche" keeps to a line.
    figure = stringWidth(line.cells[0], TOTAL_STYLE.fontName, TOTAL_STYLE.fontSize) + 12
    return [Spacer(1, 6), _grid(row, [WIDTH - figure, figure], style)]


def _pen(line: Line) -> list:
    # A line to write on, 9 mm below what comes before it, captioned underneath.
    return [
        _grid([[""]], [WIDTH], [("LINEBELOW", (0, 0), (-1, -1), 0.75, INK)], [9 * mm]),
        _p(line.text, SMALL_BOLD if line.strong else SMALL),
    ]


def _qr(line: Line) -> list:
    rows = [[qr_code(line.text, QR_SIZE)], [_p(line.cells[0], SMALL_CENTRE)]]
    return [Spacer(1, 4), _grid(rows, [WIDTH], [("ALIGN", (0, 0), (-1, -1), "CENTER")]), Spacer(1, 4)]


def _fact(line: Line) -> list:
    return [_grid([[_p(line.text, SMALL), _p(line.cells[0])]], [WIDTH * 0.34, WIDTH * 0.66])]


def _rule(_line: Line) -> list:
    return [Spacer(1, 3), _grid([[""]], [WIDTH], [("LINEABOVE", (0, 0), (-1, -1), 1, INK)]), Spacer(1, 2)]


PARAGRAPHS = {
    EVENT: EVENT_STYLE,
    TITLE: TITLE_STYLE,
    STATE: STATE_STYLE,
    HEADING: HEADING_STYLE,
    SUBHEADING: SUB_STYLE,
    CAPTION: SMALL,
    SEAL: SEAL_STYLE,
}
FLOWABLES = {
    STAMP: _stamp,
    FACT: _fact,
    PAIR: _pair,
    PIECES_HEAD: _piece,
    PIECE: _piece,
    PIECES_TOTAL: _piece,
    TOTAL: _total,
    PEN: _pen,
    QR: _qr,
    RULE: _rule,
}


def _story(lines: list[Line]) -> list:
    story = []
    for line in lines:
        if line.kind in FLOWABLES:
            story += FLOWABLES[line.kind](line)
        elif line.kind == TEXT:
            story.append(_p(line.text, BOLD if line.strong else BODY))
        else:
            story.append(_p(line.text, PARAGRAPHS[line.kind]))
    return story


class _Roll(BaseDocTemplate):
    """One frame the width of the roll; remembers how far down the story went (its lowest y)."""

    def __init__(self, buffer, height: float, **kwargs):
        margins = {"leftMargin": SIDE, "rightMargin": SIDE, "topMargin": TOP, "bottomMargin": BOTTOM}
        super().__init__(buffer, pagesize=(PAGE_WIDTH, height), **margins, **kwargs)
        frame = Frame(SIDE, BOTTOM, WIDTH, height - TOP - BOTTOM, 0, 0, 0, 0, id="roll")
        self.addPageTemplates([PageTemplate(id="roll", frames=[frame])])
        self.lowest = height

    def afterFlowable(self, flowable):
        self.lowest = min(self.lowest, self.frame._y)


def _build(sheet: dict, lines: list[Line], height: float) -> tuple[bytes, _Roll]:
    buffer = io.BytesIO()
    doc = _Roll(buffer, height, title=f"{sheet['title']}: {sheet['event']}", author=sheet["licensee"])
    doc.build(_story(lines))
    return buffer.getvalue(), doc


def render_receipt_pdf(sheet: dict) -> bytes:
    """The slip as a PDF 80 mm wide and exactly as tall as what it says: laid out once on the
    tallest page, measured (how far down its frame the story went), and laid out again on a page cut
    to that length. A story longer than MAX_HEIGHT runs on to further pages of that height."""
    lines = receipt_lines(sheet)
    pdf, doc = _build(sheet, lines, MAX_HEIGHT)
    if doc.page > 1:
        return pdf
    used = MAX_HEIGHT - TOP - doc.lowest
    pdf, _doc = _build(sheet, lines, TOP + used + BOTTOM + 1)
    return pdf
