"""One cage slip as a printable page: printed at the window, stapled to the paper bundle, read later by an inspector.

Only layout lives here. The caller builds the `sheet` (see render_slip_pdf) with every text already in the
reader's language; the labels this module adds are marked for translation. Everything from the sheet is
escaped before it reaches a Paragraph, because reportlab reads its text as markup.

The same sheet also prints on an 80 mm receipt (cage.receipt): the words both layouts add to the sheet
(the licence line, the written and printed lines, the chips' rows, a signer, the stamps, the QR code's
caption) are made here, once, and the receipt takes them from here.
"""

import io
from xml.sax.saxutils import escape

from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from cage.paper_pdf import qr_code
from core.local import moment, weekday
from core.money import count_text, dollars
from core.pdf_layout import content_widths

PAGE_WIDTH, PAGE_HEIGHT = letter
MARGIN = 0.6 * inch
# SimpleDocTemplate's frame pads its content by 6 pt on each side; WIDTH is what is left for the story,
# and LEFT and RIGHT are its edges, which the footer and the REPRINT stamp line up with.
WIDTH = PAGE_WIDTH - 2 * MARGIN - 12
LEFT, RIGHT = MARGIN + 6, PAGE_WIDTH - MARGIN - 6
INK = colors.HexColor("#1f2933")
MUTED = colors.HexColor("#52606d")
RULE = colors.HexColor("#9aa5b1")
SHADE = colors.HexColor("#e6ebf0")
STAMP_RED = colors.HexColor("#c81e1e")

# Sizes are for reading at arm's length: nothing the inspector needs is smaller than 11 pt.
BODY = ParagraphStyle("slip-body", fontName="Helvetica", fontSize=12, leading=15, textColor=INK)
SMALL = ParagraphStyle("slip-small", parent=BODY, fontSize=10, leading=12, textColor=MUTED)
EVENT = ParagraphStyle("slip-event", parent=BODY, fontName="Helvetica-Bold", fontSize=15, leading=18)
TITLE = ParagraphStyle("slip-title", parent=BODY, fontName="Helvetica-Bold", fontSize=32, leading=36)
LICENCE = ParagraphStyle("slip-licence", parent=EVENT, alignment=2)
STATE = ParagraphStyle("slip-state", parent=BODY, fontName="Helvetica-Bold", fontSize=14, leading=17, alignment=2)
HEADING = ParagraphStyle(
    "slip-heading",
    parent=BODY,
    fontName="Helvetica-Bold",
    fontSize=13,
    leading=16,
    spaceBefore=10,
    spaceAfter=4,
    keepWithNext=1,  # a heading never ends a page alone
)
CELL = ParagraphStyle("slip-cell", parent=BODY, fontSize=11, leading=13)
CELL_RIGHT = ParagraphStyle("slip-cell-right", parent=CELL, alignment=2)
CELL_HEAD = ParagraphStyle("slip-cell-head", parent=CELL, fontName="Helvetica-Bold")
CELL_HEAD_RIGHT = ParagraphStyle("slip-cell-head-right", parent=CELL_HEAD, alignment=2)
FACT_LABEL = ParagraphStyle("slip-fact", parent=CELL, textColor=MUTED)
CAPTION = ParagraphStyle("slip-caption", parent=BODY, fontSize=10, leading=12, textColor=MUTED)
# The close slip's figures: a whole day's sheets, smaller than a slip's own lines.
FIGURE = ParagraphStyle("slip-figure", parent=BODY, fontSize=8.5, leading=10.5)
FIGURE_RIGHT = ParagraphStyle("slip-figure-right", parent=FIGURE, alignment=2)
FIGURE_HEAD = ParagraphStyle("slip-figure-head", parent=FIGURE, fontName="Helvetica-Bold")
# A seal is read and typed character by character: a fixed-width face, on a line of its own.
SEAL = ParagraphStyle("slip-seal", parent=BODY, fontName="Courier-Bold", fontSize=11, leading=14)
SIGNER = ParagraphStyle("slip-signer", parent=BODY, fontName="Helvetica-Bold", fontSize=11, leading=13)
# VOID (or REFUSED) in the flow, under the header: read first, and over nothing else.
STAMP = ParagraphStyle(
    "slip-stamp", parent=BODY, fontName="Helvetica-Bold", fontSize=34, leading=38, alignment=1, textColor=STAMP_RED
)
STAMP_TEXT = ParagraphStyle(
    "slip-stamp-text", parent=BODY, fontName="Helvetica-Bold", fontSize=13, leading=16, alignment=1, textColor=STAMP_RED
)
QR_CAPTION = ParagraphStyle("slip-qr-caption", parent=BODY, fontSize=8, leading=9.5, textColor=MUTED, alignment=1)
# Big enough for a tablet's camera held over the table: about 25 mm.
QR_SIZE = 1.0 * inch


def _p(text, style=BODY) -> Paragraph:
    return Paragraph(escape(str(text)), style)


def _when(at) -> str:
    """An aware datetime in the event's local time, in the reader's language's format."""
    return moment(at)


def _day(date) -> str:
    # The weekday helps people at a fair that runs several days.
    return weekday(date)


# --- the words both layouts add to the sheet (cage.receipt prints them too) ---------------------


def licence_line(sheet: dict) -> str:
    return _("Licence %(number)s") % {"number": sheet["licence_number"]}


def written_line(sheet: dict) -> str:
    return _("Gaming day %(day)s · written %(at)s") % {"day": _day(sheet["gaming_day"]), "at": _when(sheet["at"])}


def printed_line(sheet: dict) -> str:
    """What the paper says of its own printing: when, and whether it is a copy for reading."""
    if sheet.get("for_reading"):
        return _("%(title)s · copy for reading printed %(at)s") % {
            "title": sheet["title"],
            "at": _when(sheet["printed_at"]),
        }
    return _("%(title)s · printed %(at)s") % {"title": sheet["title"], "at": _when(sheet["printed_at"])}


def piece_rows(heading: str, lines: list[dict], total_label: str) -> list[list[str]]:
    """Chips or bills and coins as text: a header, label, count and value per line, and a total row."""
    rows = [[heading, _("Count"), _("Value")]]
    rows += [[line["label"], count_text(line["count"]), dollars(line["cents"])] for line in lines]
    rows.append(
        [
            total_label,
            count_text(sum(line["count"] for line in lines)),
            dollars(sum(line["cents"] for line in lines)),
        ]
    )
    return rows


def signer_label(capacity: str, role: str) -> str:
    return _("%(capacity)s (%(role)s)") % {"capacity": capacity, "role": role}


def copy_stamp(sheet: dict) -> str | None:
    """What this copy is stamped, if anything: a copy for reading, or one of the cage's reprints."""
    if sheet.get("for_reading"):
        # A copy for reading is never one of the cage's copies: its stamp stands where REPRINT would.
        return _("Copy for reading: not the original")
    if sheet.get("reprint"):
        return _("REPRINT")
    return None


def cancel_stamp(sheet: dict) -> tuple[str, str] | None:
    """A voided slip's stamp and the void's text; or a refused slip's, with the refusal's."""
    if sheet.get("voided"):
        return _("VOID"), sheet["voided"]
    if sheet.get("refused"):
        # Refused by the DRIC: it moved nothing, and its paper must not pass for a done slip.
        return _("REFUSED"), sheet["refused"]
    return None


def count_caption() -> str:
    """Under a count's expected and counted figures."""
    return _("Expected: what the books held when the count was made. Variance: counted - expected.")


def qr_caption() -> str:
    """Under the QR code, which holds the address of the slip's page (sheet["url"])."""
    return _("Scan to open this slip's page")


# --- the letter-size page ---------------------------------------------------------------------


def _ruled(rows, widths, *, right=(), total_row=False) -> Table:
    """A grid with a shaded header; `right` lists the columns of figures, set flush right."""
    table = Table(rows, colWidths=widths, hAlign="LEFT", repeatRows=1)
    style = [
        ("FONT", (0, 0), (-1, -1), "Helvetica", 11),
        ("TEXTCOLOR", (0, 0), (-1, -1), INK),
        ("GRID", (0, 0), (-1, -1), 0.5, RULE),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 3),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
        ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 11),
        ("BACKGROUND", (0, 0), (-1, 0), SHADE),
    ]
    style += [("ALIGN", (col, 0), (col, -1), "RIGHT") for col in right]
    if total_row:
        style += [("FONT", (0, -1), (-1, -1), "Helvetica-Bold", 11), ("LINEABOVE", (0, -1), (-1, -1), 1.2, INK)]
    table.setStyle(TableStyle(style))
    return table


def _pieces(heading: str, lines: list[dict], total_label: str) -> Table:
    """Chips or bills and coins: label, count, value, and a total row."""
    rows = piece_rows(heading, lines, total_label)
    for row in rows[1:-1]:
        row[0] = _p(row[0], CELL)  # a label wraps rather than run into the count
    return _ruled(rows, [WIDTH - 3.3 * inch, 1.5 * inch, 1.8 * inch], right=(1, 2), total_row=True)


def _header(sheet: dict) -> list:
    # The QR code at the header's right: the dealer scans the runner's slip and lands on its page.
    qr_width = QR_SIZE + 14 if sheet.get("url") else 0
    inner = WIDTH - qr_width
    top = Table(
        [
            [_p(sheet["event"], EVENT), _p(licence_line(sheet), LICENCE)],
            [_p(sheet["licensee"]), ""],
        ],
        colWidths=[inner * 0.65, inner * 0.35],
    )
    top.setStyle(
        TableStyle(
            [
                ("ALIGN", (1, 0), (1, -1), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("LINEBELOW", (0, -1), (-1, -1), 1.5, INK),
                ("BOTTOMPADDING", (0, -1), (-1, -1), 6),
            ]
        )
    )
    title = Table([[_p(sheet["title"], TITLE), _p(sheet["state"], STATE)]], colWidths=[inner * 0.6, inner * 0.4])
    title.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 10),
            ]
        )
    )
    head = [top, title]
    if qr_width:
        qr = [qr_code(sheet["url"], QR_SIZE), _p(qr_caption(), QR_CAPTION)]
        beside = Table([[head, qr]], colWidths=[inner, qr_width])
        beside.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                    ("TOPPADDING", (0, 0), (-1, -1), 0),
                    ("LEFTPADDING", (1, 0), (1, 0), 14),
                ]
            )
        )
        head = [beside]
    return [*head, Spacer(1, 3), _p(written_line(sheet)), Spacer(1, 6)]


def _cancel_box(sheet: dict) -> list:
    """VOID (or REFUSED) as a stamp of its own in the flow, boxed under the header, with the void's
    text: read first, and lying over no figure, name or signature (drawn across the page, it crossed
    the signatures table)."""
    stamp = cancel_stamp(sheet)
    if stamp is None:
        return []
    label, text = stamp
    box = Table([[_p(label, STAMP)], [_p(text, STAMP_TEXT)]], colWidths=[WIDTH], hAlign="LEFT")
    box.setStyle(
        TableStyle(
            [
                ("BOX", (0, 0), (-1, -1), 3, STAMP_RED),
                ("TOPPADDING", (0, 0), (-1, 0), 6),
                ("BOTTOMPADDING", (0, 0), (-1, 0), 2),
                ("BOTTOMPADDING", (0, -1), (-1, -1), 10),
            ]
        )
    )
    return [box, Spacer(1, 8)]


def _facts(sheet: dict) -> list:
    if not sheet["facts"]:
        return []
    rows = [[_p(label, FACT_LABEL), _p(value, CELL)] for label, value in sheet["facts"]]
    table = Table(rows, colWidths=[1.8 * inch, WIDTH - 1.8 * inch], hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("LINEBELOW", (0, 0), (-1, -1), 0.4, RULE),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 3),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ]
        )
    )
    return [table, Spacer(1, 4)]


def _money(sheet: dict) -> list:
    story = []
    if sheet["chips"]:
        story += [_p(_("Chips"), HEADING), _pieces(_("Denomination"), sheet["chips"], _("Total chips"))]
    if sheet.get("cash") is not None:
        story.append(_p(_("Cash: %(amount)s") % {"amount": dollars(sheet["cash"])}, HEADING))
        if sheet.get("cash_lines"):
            story.append(_pieces(_("Bills and coins"), sheet["cash_lines"], _("Total cash")))
    total = Table([[_("Slip total"), dollars(sheet["total"])]], colWidths=[WIDTH / 2, WIDTH / 2], hAlign="LEFT")
    total.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), "Helvetica-Bold", 15),
                ("ALIGN", (1, 0), (1, 0), "RIGHT"),
                ("BOX", (0, 0), (-1, -1), 1.5, INK),
                ("TOPPADDING", (0, 0), (-1, -1), 5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 7),
            ]
        )
    )
    if not sheet.get("day_sheets"):  # a day close moves nothing: its figures are the day's
        story += [Spacer(1, 8), total]
    story += _count_lines(sheet)
    if sheet.get("reason"):
        story += [_p(_("Reason"), HEADING), _p(sheet["reason"])]
    if sheet.get("reason_details"):
        story += [_p(_("Details"), HEADING), _p(sheet["reason_details"])]
    if sheet.get("void_notes"):
        story += [_p(_("Voids"), HEADING), *[_p(named(what, note)) for what, note in sheet["void_notes"]]]
    return story


def _count_lines(sheet: dict) -> list:
    """A count's expected, counted and variance per chip denomination and for cash: printed once
    the count is in, so the paper shows what the blind count was checked against."""
    lines = sheet.get("count_lines") or []
    if not lines:
        return []

    def figure(line, key):
        count = line[f"{key}_count"]
        text = line[key] if count is None else f"{count:,} · {line[key]}"
        return _p(text, CELL_RIGHT)

    rows = [
        [
            _p(_("Chips or cash"), CELL_HEAD),
            _p(_("Expected"), CELL_HEAD_RIGHT),
            _p(_("Counted"), CELL_HEAD_RIGHT),
            _p(_("Variance"), CELL_HEAD_RIGHT),
        ]
    ]
    for line in lines:
        variance = (
            _("%(amount)s (%(how)s)") % {"amount": line["variance"], "how": line["how"]} if line["variance"] else "—"
        )
        rows.append(
            [_p(line["what"], CELL), figure(line, "expected"), figure(line, "counted"), _p(variance, CELL_RIGHT)]
        )
    table = _ruled(rows, [1.3 * inch, 1.75 * inch, 1.75 * inch, WIDTH - 4.8 * inch])
    caption = _p(count_caption(), CAPTION)
    return [KeepTogether([_p(_("Expected and counted"), HEADING), table, Spacer(1, 2), caption])]


def _signatures(sheet: dict) -> list:
    story = []
    if sheet["signatures"]:
        rows = [[_("Signed as"), _("Role"), _("Name"), _("Time")]]
        rows += [
            [_p(s["capacity"], CELL), _p(s["role"], CELL), _p(s["name"], CELL), _when(s["signed_at"])]
            for s in sheet["signatures"]
        ]
        widths = [1.7 * inch, 1.7 * inch, WIDTH - 5.0 * inch, 1.6 * inch]
        story += [_p(_("Signatures"), HEADING), _ruled(rows, widths)]
    if sheet["to_sign"]:
        # keepWithNext does not reach into a KeepTogether: the heading goes inside the first line's.
        title = [_p(_("Still to sign"), HEADING)]
        for line in sheet["to_sign"]:
            story.append(KeepTogether(title + _blank_line(line)))
            title = []
    return story


def _day_figures(sheet: dict) -> list:
    """The close slip's day, as its three designated persons approve it (reports.daily's sheets)."""
    if not sheet.get("day_sheets"):
        return []
    story = [_p(_("The day's figures"), HEADING)]
    for day_sheet in sheet["day_sheets"]:
        story.append(_p(day_sheet.title, CELL_HEAD))
        if not day_sheet.rows:
            story += [_p(day_sheet.empty, CAPTION), Spacer(1, 4)]
            continue
        rows = [[_p(str(c.label), FIGURE_HEAD) for c in day_sheet.columns]]
        for row in day_sheet.shown():
            rows.append(
                [
                    Paragraph(
                        f"<b>{escape(text)}</b>" if row["strong"] else escape(text), FIGURE_RIGHT if right else FIGURE
                    )
                    for text, right in row["cells"]
                ]
            )
        right = [i for i, c in enumerate(day_sheet.columns) if c.money or c.num]
        story.append(_ruled(rows, content_widths(rows, WIDTH), right=right))
        story += [_p(note, CAPTION) for note in day_sheet.notes]
        story.append(Spacer(1, 4))
    return story


def _seal(sheet: dict) -> list:
    if not sheet.get("seal"):
        return []
    caption = _p(_("To check a copy of the records against it, its first 16 digits are enough."), CAPTION)
    return [Spacer(1, 6), KeepTogether([_p(_("Seal of the day's records"), SIGNER), _p(sheet["seal"], SEAL), caption])]


def _blank_line(line: dict) -> list:
    """Room for a pen: a signature line, a printed-name line and a time line, each captioned below."""
    who = signer_label(line["capacity"], line["role"])
    table = Table(
        [
            ["", "", "", "", ""],
            [_p(who, SIGNER), "", _p(_("Name (print)"), CAPTION), "", _p(_("Time"), CAPTION)],
        ],
        colWidths=[3.2 * inch, 0.25 * inch, 2.2 * inch, 0.25 * inch, WIDTH - 5.9 * inch],
        rowHeights=[0.42 * inch, None],
        hAlign="LEFT",
    )
    table.setStyle(
        TableStyle(
            [
                ("LINEBELOW", (0, 0), (0, 0), 1, INK),
                ("LINEBELOW", (2, 0), (2, 0), 1, INK),
                ("LINEBELOW", (4, 0), (4, 0), 1, INK),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 1), (-1, 1), 2),
            ]
        )
    )
    return [table, Spacer(1, 4)]


class _SlipDoc(SimpleDocTemplate):
    """Draws the copy's stamp (REPRINT, or a copy for reading) in the top margin of every page, after
    the page's content. VOID and REFUSED are in the flow (_cancel_box)."""

    def __init__(self, *args, sheet: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.sheet = sheet

    def afterPage(self):
        label = copy_stamp(self.sheet)
        if label is None:
            return
        canvas = self.canv
        canvas.saveState()
        if self.sheet.get("for_reading"):
            _reading_stamp(canvas, label)
        else:
            _reprint_stamp(canvas, label)
        canvas.restoreState()


def _reprint_stamp(canvas, label: str) -> None:
    # Top right, in the margin above the header: clear of every figure.
    canvas.saveState()
    canvas.setFillColor(STAMP_RED)
    canvas.setStrokeColor(STAMP_RED)
    canvas.setFont("Helvetica-Bold", 20)
    width = canvas.stringWidth(label, "Helvetica-Bold", 20)
    right, base = RIGHT, PAGE_HEIGHT - MARGIN + 10
    canvas.setLineWidth(2)
    canvas.rect(right - width - 16, base - 6, width + 16, 26, stroke=1, fill=0)
    canvas.drawRightString(right - 8, base + 1, label)
    canvas.restoreState()


def _reading_stamp(canvas, label: str) -> None:
    # Across the top margin, where REPRINT would stand: the whole width, so no trimming of the
    # sheet leaves a copy for reading that could pass for the cage's original.
    size = 15
    while size > 9 and canvas.stringWidth(label, "Helvetica-Bold", size) > RIGHT - LEFT - 24:
        size -= 1
    canvas.saveState()
    canvas.setFillColor(STAMP_RED)
    canvas.setStrokeColor(STAMP_RED)
    canvas.setFont("Helvetica-Bold", size)
    base = PAGE_HEIGHT - MARGIN + 10
    canvas.setLineWidth(2)
    canvas.rect(LEFT, base - 6, RIGHT - LEFT, 26, stroke=1, fill=0)
    canvas.drawCentredString((LEFT + RIGHT) / 2, base + 1, label)
    canvas.restoreState()


def _footer(sheet: dict, pages: int | None):
    def draw(canvas, doc):
        canvas.saveState()
        canvas.setFont("Helvetica", 10)
        canvas.setFillColor(MUTED)
        y = MARGIN - 24
        canvas.setStrokeColor(RULE)
        canvas.line(LEFT, y + 14, RIGHT, y + 14)
        canvas.drawString(LEFT, y, printed_line(sheet))
        page = _("page %(page)s of %(pages)s") % {"page": doc.page, "pages": pages or doc.page}
        canvas.drawRightString(RIGHT, y, page)
        canvas.restoreState()

    return draw


def _build(sheet: dict, pages: int | None) -> tuple[bytes, int]:
    buffer = io.BytesIO()
    doc = _SlipDoc(
        buffer,
        sheet=sheet,
        pagesize=letter,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=f"{sheet['title']}: {sheet['event']}",
        author=sheet["licensee"],
    )
    story = (
        _header(sheet)
        + _cancel_box(sheet)
        + _facts(sheet)
        + _money(sheet)
        + _day_figures(sheet)
        + _signatures(sheet)
        + _seal(sheet)
    )
    footer = _footer(sheet, pages)
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return buffer.getvalue(), doc.page


def render_slip_pdf(sheet: dict) -> bytes:
    """The slip as a letter-size PDF.

    `sheet` keys: title, event, licensee, licence_number, gaming_day (date), at (aware datetime), facts
    [(label, value)], chips [{label, count, cents}], cash (cents or None), cash_lines (optional, like chips),
    total (cents), reason, reason_details (optional: the counter's words beside a count's reason),
    count_lines (optional: a count's [{what, expected, counted, expected_count, counted_count, variance, how}]),
    state, signatures [{capacity, role, name, signed_at}], to_sign [{capacity, role}],
    voided (None or the void's text), refused (optional: a refused slip's text), reprint (bool), for_reading
    (optional bool: a reader's copy, stamped so instead of REPRINT), printed_at (aware datetime), url (optional:
    the absolute address of the slip's page, printed as a QR code; the pages always give it).
    """
    # "page 1 of N" needs N before the first footer is drawn: lay the slip out once to count its pages.
    # A slip is small, so the second pass costs little; it lays out the same story, so N holds.
    _draft, pages = _build(sheet, None)
    pdf, _same = _build(sheet, pages)
    return pdf


def named(name: str, value: str) -> str:
    """ "Void refused: …", as the reader's language punctuates it (a no-break space before a French colon)."""
    return pgettext("a value after its name", "%(name)s: %(value)s") % {"name": name, "value": value}
