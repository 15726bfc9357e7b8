"""The cage's state on one sheet: where every chip and dollar is at the moment it is printed.

Printed at each shift change and whenever the network or the power looks doubtful (README), so the
team knows where everything stands when the screen goes dark: every place's chips by denomination
and its cash (a runner's row is what that runner holds), the chips in patrons' hands, the slips in
transit or waiting for a signature, and each table, open or closed. It shows what the cage home
shows its reader and no more: a place counted blind keeps its figures hidden on paper too.
"""

import io
from xml.sax.saxutils import escape

from django.utils import timezone
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from cage.selectors.paper import printer_name
from cage.services.ledger import chips_label
from core.local import moment
from core.pdf_layout import content_widths, page_canvas

PAGE_WIDTH, PAGE_HEIGHT = landscape(letter)
MARGIN = 0.5 * inch
WIDTH = PAGE_WIDTH - 2 * MARGIN - 12
INK = colors.HexColor("#1f2933")
MUTED = colors.HexColor("#52606d")
RULE = colors.HexColor("#9aa5b1")
SHADE = colors.HexColor("#e6ebf0")

BODY = ParagraphStyle("inventory-body", fontName="Helvetica", fontSize=10, leading=12.5, textColor=INK)
RIGHT = ParagraphStyle("inventory-right", parent=BODY, alignment=2)
HEAD = ParagraphStyle("inventory-head", parent=BODY, fontName="Helvetica-Bold")
HEAD_RIGHT = ParagraphStyle("inventory-head-right", parent=HEAD, alignment=2)
TITLE = ParagraphStyle("inventory-title", parent=BODY, fontName="Helvetica-Bold", fontSize=18, leading=22)
SECTION = ParagraphStyle(
    "inventory-section", parent=BODY, fontName="Helvetica-Bold", fontSize=12.5, leading=15, spaceBefore=10, spaceAfter=4
)
NOTE = ParagraphStyle("inventory-note", parent=BODY, textColor=MUTED)


def _p(text, style=BODY) -> Paragraph:
    return Paragraph(escape(str(text)), style)


def _grid(rows: list[list], *, total_row: bool = False) -> Table:
    table = Table(rows, colWidths=content_widths(rows, WIDTH), repeatRows=1, hAlign="LEFT")
    style = [
        ("GRID", (0, 0), (-1, -1), 0.5, RULE),
        ("BACKGROUND", (0, 0), (-1, 0), SHADE),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ]
    if total_row:
        style.append(("BACKGROUND", (0, -1), (-1, -1), SHADE))
    table.setStyle(TableStyle(style))
    return table


def _inventory(inventory) -> list:
    head = [_p(_("Place"), HEAD)]
    head += [_p(chips_label(d.key), HEAD_RIGHT) for d in inventory.denominations]
    head += [_p(_("Cash"), HEAD_RIGHT), _p(_("Total"), HEAD_RIGHT)]
    rows = [head]
    for row in inventory.rows:
        if row.hidden or row.withheld or row.at_opener:
            why = (
                _("counted blind: not shown until its count is in") if row.hidden else _("not shown yet (blind count)")
            )
            rows.append([_p(row.label), _p(why, NOTE)] + [""] * (len(head) - 2))
            continue
        cells = [_p(row.label)]
        cells += [_p(f"{c.count_shown} · {c.dollars}" if c.count else "", RIGHT) for c in row.chips]
        cells += [_p(row.cash_dollars if row.cash else "", RIGHT), _p(row.total_dollars, RIGHT)]
        rows.append(cells)
    if not inventory.blind:
        totals = inventory.totals
        cells = [_p(totals.label, HEAD)]
        cells += [_p(f"{c.count_shown} · {c.dollars}", HEAD_RIGHT) for c in totals.chips]
        cells += [_p(totals.cash_dollars, HEAD_RIGHT), _p(totals.total_dollars, HEAD_RIGHT)]
        rows.append(cells)
    story = [
        _p(_("Inventory: chips (number · dollars) and cash in each place"), SECTION),
        _grid(rows, total_row=not inventory.blind),
    ]
    if inventory.outstanding_items:
        held = ", ".join(f"{d}: {c.count_shown} ({c.dollars})" for d, c in inventory.outstanding_items)
        story.append(Spacer(1, 4))
        story.append(
            _p(
                _("Chips in patrons' hands: %(chips)s; %(total)s in all.")
                % {"chips": held, "total": inventory.outstanding_dollars}
            )
        )
    return story


def _pending(pending) -> list:
    story = [_p(_("In transit and waiting for signatures"), SECTION)]
    if not pending:
        return story + [_p(_("Nothing in transit; every slip is signed."), NOTE)]
    rows = [
        [
            _p(_("Slip"), HEAD),
            _p(_("About"), HEAD),
            _p(_("Amount"), HEAD_RIGHT),
            _p(_("State"), HEAD),
            _p(_("Still to sign"), HEAD),
        ]
    ]
    for item in pending:
        missing = ", ".join(f"{c.label} ({c.roles_label()})" for c in item.missing)
        about = f"{item.what} · {item.chips}" if item.chips else item.what
        rows.append([_p(item.slip.number), _p(about), _p(item.dollars, RIGHT), _p(item.state_label), _p(missing)])
    return story + [_grid(rows)]


def _tables(states) -> list:
    story = [_p(_("Tables"), SECTION)]
    if not states:
        return story + [_p(_("No tables yet."), NOTE)]
    rows = [
        [
            _p(_("Table"), HEAD),
            _p(_("Game"), HEAD),
            _p(_("State"), HEAD),
            _p(_("Opener"), HEAD_RIGHT),
            _p(_("Fills"), HEAD_RIGHT),
            _p(_("Credits"), HEAD_RIGHT),
        ]
    ]
    for state in states:
        rows.append(
            [
                _p(state.table.code),
                _p(state.game),
                _p(_("open") if state.is_open else _("closed")),
                _p(state.opener_dollars, RIGHT),
                _p(f"{state.fills.count} · {state.fills.dollars}" if state.fills.count else "", RIGHT),
                _p(f"{state.credits.count} · {state.credits.dollars}" if state.credits.count else "", RIGHT),
            ]
        )
    return story + [_grid(rows)]


def render_inventory(state: dict, *, printed_by) -> bytes:
    """The PDF of the cage's state (cage.selectors.cage_state), in the active language."""
    event, day, now = state["event"], state["day"], timezone.now()
    when = moment(now)
    heading = _("Cage inventory at %(when)s") % {"when": when}
    facts = [event.name, _("Licence %(number)s") % {"number": event.licence_number}]
    if day is not None:
        facts.append(_("gaming day %(date)s (%(status)s)") % {"date": day.date, "status": day.get_status_display()})
    story = [_p(heading, TITLE), _p(" · ".join(str(f) for f in facts)), Spacer(1, 4)]
    story += _inventory(state["inventory"])
    story += _pending(state["pending"])
    story += _tables(state["table_states"])
    by = printer_name(printed_by, event) if printed_by is not None else ""
    footer = _(
        "Printed %(when)s by %(by)s. Where things stood at that moment: any slip after it is not on this sheet."
    ) % {"when": when, "by": by}

    buffer = io.BytesIO()
    document = SimpleDocTemplate(
        buffer,
        pagesize=landscape(letter),
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=heading,
        author=event.name,
    )
    document.build(story, canvasmaker=page_canvas(draft="", generated=footer))
    return buffer.getvalue()
