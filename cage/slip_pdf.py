"""One cage slip as a printable page: printed at the window, stapled to the paper bundle, read later by an inspector.

Only layout lives here. The caller builds the `sheet` (see render_slip_pdf) with every text already in the
reader's language; the labels this module adds are marked for translation. Everything from the sheet is
escaped before it reaches a Paragraph, because reportlab reads its text as markup.
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


def _p(text, style=BODY) -> Paragraph:
    return Paragraph(escape(str(text)), style)


def _when(at) -> str:
    """An aware datetime in the event's local time, in the reader's language's format."""
    return moment(at)


def _day(date) -> str:
    # The weekday helps people at a fair that runs several days.
    return weekday(date)


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
    rows = [[heading, _("Count"), _("Value")]]
    rows += [[_p(line["label"], CELL), count_text(line["count"]), dollars(line["cents"])] for line in lines]
    rows.append(
        [
            total_label,
            count_text(sum(line["count"] for line in lines)),
            dollars(sum(line["cents"] for line in lines)),
        ]
    )
    return _ruled(rows, [WIDTH - 3.3 * inch, 1.5 * inch, 1.8 * inch], right=(1, 2), total_row=True)


def _header(sheet: dict) -> list:
    top = Table(
        [
            [_p(sheet["event"], EVENT), _p(_("Licence %(number)s") % {"number": sheet["licence_number"]}, LICENCE)],
            [_p(sheet["licensee"]), ""],
        ],
        colWidths=[WIDTH * 0.65, WIDTH * 0.35],
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
    title = Table(
        [[_p(sheet["title"], TITLE), _p(sheet["state"], STATE)]],
        colWidths=[WIDTH * 0.6, WIDTH * 0.4],
    )
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
    when = _("Gaming day %(day)s · written %(at)s") % {"day": _day(sheet["gaming_day"]), "at": _when(sheet["at"])}
    return [top, title, Spacer(1, 3), _p(when), Spacer(1, 6)]


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
    if sheet.get("voided"):
        # Also in the flow, level and wrapped, so the void reads plainly under the diagonal stamp.
        story += [_p(_("Voided"), HEADING), _p(sheet["voided"])]
    if sheet.get("void_notes"):
        story += [_p(_("Voids"), HEADING), *[_p(_named(what, note)) for what, note in sheet["void_notes"]]]
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
    caption = _p(_("Expected: what the books held when the count was made. Variance: counted - expected."), CAPTION)
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
    who = _("%(capacity)s (%(role)s)") % {"capacity": line["capacity"], "role": line["role"]}
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
    """Draws the stamps after the page's content, so they lie on top of what they cancel."""

    def __init__(self, *args, sheet: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.sheet = sheet

    def afterPage(self):
        canvas = self.canv
        canvas.saveState()
        # Level stamps first: poppler's text reader drops level text that follows rotated text on a page.
        if self.sheet.get("for_reading"):
            _reading_stamp(canvas)
        elif self.sheet.get("reprint"):
            _reprint_stamp(canvas)
        if self.sheet.get("voided"):
            _void_stamp(canvas, self.sheet["voided"])
        elif self.sheet.get("refused"):
            # Refused by the DRIC: it moved nothing, and its paper must not pass for a done slip.
            _void_stamp(canvas, self.sheet["refused"], label=_("REFUSED"))
        canvas.restoreState()


def _void_stamp(canvas, text: str, *, label: str | None = None) -> None:
    canvas.saveState()
    canvas.translate(PAGE_WIDTH / 2, PAGE_HEIGHT / 2)
    canvas.rotate(35)
    canvas.setFillColor(STAMP_RED)
    canvas.setStrokeColor(STAMP_RED)
    # See-through, so every figure under the stamp can still be read.
    canvas.setFillAlpha(0.28)
    canvas.setStrokeAlpha(0.5)
    # As large as the stamp's box takes: "VOID" at 140 pt, a longer word (French "ANNULÉE") smaller.
    label = label or _("VOID")
    big = 140
    while big > 60 and canvas.stringWidth(label, "Helvetica-Bold", big) > 470:
        big -= 2
    canvas.setFont("Helvetica-Bold", big)
    canvas.drawCentredString(0, -10, label)
    canvas.setFillAlpha(0.6)
    # The void's text must stay inside the stamp's box; the flow prints it whole in any case.
    size = 16
    while size > 9 and canvas.stringWidth(text, "Helvetica-Bold", size) > 470:
        size -= 1
    while canvas.stringWidth(text, "Helvetica-Bold", size) > 470:
        text = text[:-2] + "…"
    canvas.setFont("Helvetica-Bold", size)
    canvas.drawCentredString(0, -42, text)
    canvas.setLineWidth(4)
    canvas.roundRect(-250, -62, 500, 175, 12, stroke=1, fill=0)
    canvas.restoreState()


def _reprint_stamp(canvas) -> None:
    # Top right, in the margin above the header: clear of the VOID stamp and of every figure.
    label = _("REPRINT")
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


def _reading_stamp(canvas) -> None:
    # Across the top margin, where REPRINT would stand: the whole width, so no trimming of the
    # sheet leaves a copy for reading that could pass for the cage's original.
    label = _("Copy for reading: not the original")
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
        if sheet.get("for_reading"):
            printed = _("%(title)s · copy for reading printed %(at)s") % {
                "title": sheet["title"],
                "at": _when(sheet["printed_at"]),
            }
        else:
            printed = _("%(title)s · printed %(at)s") % {"title": sheet["title"], "at": _when(sheet["printed_at"])}
        canvas.drawString(LEFT, y, printed)
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
    story = _header(sheet) + _facts(sheet) + _money(sheet) + _day_figures(sheet) + _signatures(sheet) + _seal(sheet)
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
    voided (None or the void's text), reprint (bool), for_reading (optional bool: a reader's copy, stamped
    so instead of REPRINT), printed_at (aware datetime).
    """
    # "page 1 of N" needs N before the first footer is drawn: lay the slip out once to count its pages.
    # A slip is small, so the second pass costs little; it lays out the same story, so N holds.
    _draft, pages = _build(sheet, None)
    pdf, _same = _build(sheet, pages)
    return pdf


def _named(name: str, value: str) -> str:
    """ "Void refused: …", as the reader's language punctuates it (a no-break space before a French colon)."""
    return pgettext("a value after its name", "%(name)s: %(value)s") % {"name": name, "value": value}
