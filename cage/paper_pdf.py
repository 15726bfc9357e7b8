"""A book of blank paper slips as a PDF: one slip to a page, filled in by hand while the system is down.

Each slip says what it is (the event, its licence, the slip type and its paper serial, with the
serial again as a QR code for the scanner at the window) and leaves a place for everything the
slip type's declaration asks for (cage.slip_fields: `on_paper`), a line per chip of the event's
chip set, the date and time it is written, and a line per signature its type takes, with the role
printed. Only layout lives here; the labels it adds are marked for translation, and every text is
escaped before it reaches a Paragraph, because reportlab reads its text as markup.
"""

import io
from xml.sax.saxutils import escape

from django.utils.translation import gettext as _
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from cage.models import PaperBook, PaperBookPrint, paper_serial
from cage.selectors.paper import printer_name
from cage.services.ledger import chips_label
from cage.slip_types import SLIP_KINDS
from core.local import moment
from core.pdf_layout import page_canvas

PAGE_WIDTH, PAGE_HEIGHT = letter
MARGIN = 0.55 * inch
WIDTH = PAGE_WIDTH - 2 * MARGIN - 12
INK = colors.HexColor("#1f2933")
MUTED = colors.HexColor("#52606d")
RULE = colors.HexColor("#52606d")
SHADE = colors.HexColor("#e6ebf0")
STAMP_RED = colors.HexColor("#c81e1e")
QR_SIZE = 1.25 * inch

BODY = ParagraphStyle("paper-body", fontName="Helvetica", fontSize=11, leading=14, textColor=INK)
SMALL = ParagraphStyle("paper-small", parent=BODY, fontSize=9, leading=11, textColor=MUTED)
EVENT = ParagraphStyle("paper-event", parent=BODY, fontName="Helvetica-Bold", fontSize=13, leading=16)
TITLE = ParagraphStyle("paper-title", parent=BODY, fontName="Helvetica-Bold", fontSize=28, leading=32)
SERIAL = ParagraphStyle("paper-serial", parent=TITLE, fontSize=24, leading=28)
LABEL = ParagraphStyle("paper-label", parent=BODY, fontName="Helvetica-Bold", fontSize=10, leading=12)
HEAD = ParagraphStyle("paper-head", parent=LABEL, textColor=MUTED)
STAMP = ParagraphStyle("paper-stamp", parent=BODY, fontName="Helvetica-Bold", fontSize=16, textColor=STAMP_RED)

WRITE_IN = 0.42 * inch  # the height of a box to write in
SIGN_IN = 0.5 * inch


def _p(text, style=BODY) -> Paragraph:
    return Paragraph(escape(str(text)), style)


def qr_code(text: str, size: float = QR_SIZE) -> Drawing:
    """A QR code of `text`, `size` points square, for the scanner at the window to read."""
    widget = QrCodeWidget(text, barLevel="M")
    left, bottom, right, top = widget.getBounds()
    drawing = Drawing(size, size, transform=[size / (right - left), 0, 0, size / (top - bottom), 0, 0])
    drawing.add(widget)
    return drawing


def qr_text(book: PaperBook, number: int) -> str:
    """What a paper slip's QR code holds: the event, the slip type and the paper serial, as the
    entry page reads them ("lakeside:fill:P-0012")."""
    return f"{book.event.slug}:{book.slip_type}:{paper_serial(number)}"


def _boxed(rows, widths, heights=None, header=False) -> Table:
    table = Table(rows, colWidths=widths, rowHeights=heights)
    style = [
        ("GRID", (0, 0), (-1, -1), 0.8, RULE),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 3),
    ]
    if header:
        style.append(("BACKGROUND", (0, 0), (-1, 0), SHADE))
    table.setStyle(TableStyle(style))
    return table


def _chips(denominations) -> Table:
    rows = [[_p(_("Chips"), HEAD), _p(_("Number of chips"), HEAD), _p(_("Amount ($)"), HEAD)]]
    for d in denominations:
        label = chips_label(d.key) + (f" ({d.colour})" if d.colour else "")
        rows.append([_p(label), "", ""])
    rows.append([_p(_("Total"), LABEL), "", ""])
    heights = [None] + [0.32 * inch] * (len(rows) - 1)
    return _boxed(rows, [WIDTH * 0.4, WIDTH * 0.3, WIDTH * 0.3], heights, header=True)


def _line(line, denominations):
    """The flowable of one PaperLine (cage.slip_fields)."""
    if line.shape == "chips":
        return _chips(denominations)
    if line.shape == "note":
        return _p(line.label, LABEL)
    if line.shape == "amount":
        return _boxed([[_p(line.label, LABEL), _p("$", BODY)]], [WIDTH * 0.4, WIDTH * 0.6], [WRITE_IN])
    if line.shape == "choices":
        ticks = "     ".join(f"[   ] {choice}" for choice in line.choices)
        return _boxed([[_p(line.label, LABEL), _p(ticks)]], [WIDTH * 0.25, WIDTH * 0.75])
    if line.shape == "rows":
        rows = [[_p(column, HEAD) for column in line.columns]] + [[""] * len(line.columns) for _row in range(8)]
        share = WIDTH / len(line.columns)
        return [
            _p(line.label, LABEL),
            _boxed(rows, [share] * len(line.columns), [None] + [0.3 * inch] * 8, header=True),
        ]
    return _boxed([[_p(line.label, LABEL), ""]], [WIDTH * 0.4, WIDTH * 0.6], [WRITE_IN])


def _signatures(kind) -> Table:
    rows = [[_p(_("Signature of"), HEAD), _p(_("Name"), HEAD), _p(_("Signature"), HEAD), _p(_("Time"), HEAD)]]
    for capacity in kind.capacities:
        rows.append([[_p(capacity.label, LABEL), _p(capacity.roles_label(), SMALL)], "", "", ""])
    heights = [None] + [SIGN_IN] * len(kind.capacities)
    return _boxed(rows, [WIDTH * 0.26, WIDTH * 0.3, WIDTH * 0.3, WIDTH * 0.14], heights, header=True)


def _slip(book, number, denominations, reprint: bool) -> list:
    event, kind = book.event, SLIP_KINDS[book.slip_type]
    serial = paper_serial(number)
    heading = [_p(event.name, EVENT), _p(_("Licence %(number)s") % {"number": event.licence_number}, BODY)]
    title = [_p(kind.label, TITLE), _p(serial, SERIAL)]
    if reprint:
        title.append(_p(_("REPRINT"), STAMP))
    top = Table(
        [[heading + [Spacer(1, 6)] + title, qr_code(qr_text(book, number))]], [WIDTH - QR_SIZE - 6, QR_SIZE + 6]
    )
    top.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0)]))
    band = Table(
        [
            [
                _p(
                    _(
                        "Paper slip: written by hand while the system is down, entered in the cage as soon as it is back."
                    ),
                    LABEL,
                )
            ]
        ],
        [WIDTH],
    )
    band.setStyle(TableStyle([("BACKGROUND", (0, 0), (-1, -1), SHADE)]))
    story = [top, Spacer(1, 6), band, Spacer(1, 8)]
    for field in kind.fields:
        for line in field.on_paper(kind):
            drawn = _line(line, denominations)
            story += [*(drawn if isinstance(drawn, list) else [drawn]), Spacer(1, 5)]
    when = _boxed(
        [[_p(_("Date"), LABEL), "", _p(_("Time written"), LABEL), ""]],
        [WIDTH * 0.15, WIDTH * 0.35, WIDTH * 0.2, WIDTH * 0.3],
        [WRITE_IN],
    )
    story += [when, Spacer(1, 8), _signatures(kind)]
    return story


def _footer(book: PaperBook, printed: PaperBookPrint, reprint: bool) -> str:
    by = printer_name(printed.printed_by, book.event) if printed.printed_by_id else _("the command line")
    text = _("Book %(first)s to %(last)s, printed %(when)s by %(by)s") % {
        "first": paper_serial(book.first),
        "last": paper_serial(book.last),
        "when": moment(printed.printed_at),
        "by": by,
    }
    if reprint:
        text += " · " + _("REPRINT")
    return text


def render_book(printed: PaperBookPrint) -> bytes:
    """The PDF of one printing of a book, in the active language."""
    book = printed.book
    # The first printing is the book; any later one is a reprint.
    reprint = book.prints.filter(pk__lt=printed.pk).exists()
    denominations = list(book.event.denominations.all())
    story = []
    for number in range(book.first, book.last + 1):
        if story:
            story.append(PageBreak())
        story += _slip(book, number, denominations, reprint)
    buffer = io.BytesIO()
    kind = SLIP_KINDS[book.slip_type]
    document = SimpleDocTemplate(
        buffer,
        pagesize=letter,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=f"{kind.label} {paper_serial(book.first)}–{paper_serial(book.last)}",
        author=book.event.name,
    )
    # Each page numbered "page N of M", so a slip missing from a book shows.
    document.build(story, canvasmaker=page_canvas(draft="", generated=_footer(book, printed, reprint)))
    return buffer.getvalue()
