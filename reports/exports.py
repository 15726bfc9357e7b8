"""The event's figures as CSV, as XLSX and as the PDF financial report for the licensing authority
(T&C 2.7).

All are laid out from reports.figures.event_figures; nothing here computes a figure of its own.
The CSV is cage-report/1 row by row, the same in every language; the XLSX is the same rows
(figure_rows) with amounts as numbers and headings in the active language; the PDF is in the
active one.
"""

import datetime
import io
import re
from dataclasses import dataclass
from xml.sax.saxutils import escape

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import ngettext, pgettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import inch
from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from cage.models import Slip
from cage.selectors.bank_slips import (
    deposits_to_the_bank,
    disbursed_by_purpose,
    disbursements,
    expenses_by_cheque,
    trust_reconciliation,
)
from cage.selectors.seals import day_seals
from cage.selectors.slips import signed_in_full
from cage.slip_types import EXPENSES
from core import xlsx
from core.local import moment
from core.money import cents_str, dollars, hours_text
from core.pdf_layout import RED, content_widths, page_canvas, words_whole
from core.rules import cite
from core.xlsx import Cents
from events import csv_safe
from events.models import Event, Role, game_name
from reports.charts import chip_liability, report_charts
from reports.filing import filed
from reports.missing_chips import missing_chips, missing_chips_words
from reports.names import day_shown, named_variances
from reports.services import (
    bank_reconciliation_lines,
    cents_of,
    difference_words,
    net_proceeds_lines,
    proceeds_use_lines,
    reconciliation,
    report_state,
)

# The event totals as people read them on the report page; the keys stay the JSON report's own.
TOTAL_LABELS = {
    "win": _lazy("Win"),
    "chip_sales": _lazy("Chip sales"),
    "redemptions": _lazy("Redemptions"),
    "chips_outstanding": _lazy("Chips outstanding"),
    "tips": _lazy("Tips (dealers' pool)"),
    "cash_over_short": _lazy("Cash over/short"),
    "chip_over_short": _lazy("Chip over/short"),
    "expenses": _lazy("Expenses"),
    "net_proceeds": _lazy("Net proceeds"),
}


def expense_lines(event: Event) -> list[dict]:
    """The expenses behind the total, for the report's schedule (voided ones count for nothing)."""
    # Approved ones only: an expense prepared and waiting for the DRIC has paid nothing yet.
    slips = signed_in_full(Slip.objects.filter(event=event, slip_type__in=EXPENSES)).select_related("day")
    return [
        {
            "date": slip.day.date.isoformat(),
            "category": str(EXPENSE_CATEGORY_NAMES.get(slip.details["category"], slip.details["category"])),
            "description": slip.details["description"],
            "invoice": slip.details.get("invoice", ""),
            "amount": cents_str(slip.details["cash"]),
        }
        for slip in slips
    ]


FIGURE_COLUMNS = ["section", "date", "subject", "measure", "value", "note"]


def figure_rows(figures: dict) -> list[list]:
    """Every figure of the report as one row: section, date, subject, measure, value, note; the
    value in cents (core.xlsx.Cents) and the date a date, for the CSV and the workbook alike."""

    def row(section, date, subject, measure, value, note=""):
        return [section, datetime.date.fromisoformat(date) if date else "", subject, measure, _cell(value), note]

    rows = []
    for t in figures["tables"]:
        rows += [row("tables", t["date"], t["table"], m, t[m], t["game"]) for m in TABLE_MEASURES]
    rows += [row("games", g["date"], g["game"], "win", g["win"]) for g in figures["games"]]
    for d in figures["days"]:
        rows += [row("days", d["date"], "", m, v) for m, v in d.items() if m != "date"]
    rows += [row("event_totals", "", figures["event"], m, v) for m, v in figures["event_totals"].items()]
    rows += [
        row("tip_shares", t["date"], t["person"], "amount", t["amount"], "hours " + t["hours"])
        for t in figures["tip_shares"]
    ]
    rows += [
        row("variances", v["date"], v["account"], v["instrument"], v["amount"], v["reason"])
        for v in figures["variances"]
    ]
    return rows


TABLE_MEASURES = ("opener", "fills", "credits", "closer", "win")
_AMOUNT = re.compile(r"-?\d+\.\d\d")


def _cell(value):
    """A cage-report/1 amount ("-2.00") in cents; anything else as the report gives it."""
    return Cents(cents_of(value)) if isinstance(value, str) and _AMOUNT.fullmatch(value) else value


def figures_csv(figures: dict) -> str:
    """Every figure of the report as one row: section, date, subject, measure, value, note.

    The published format (`event_report --format csv`, docs/cage-records.md): codes and keys, the
    same in every language, like the JSON it is read from."""
    out = io.StringIO()
    writer = csv_safe.writer(out)
    writer.writerow(FIGURE_COLUMNS)
    writer.writerows(figure_rows(figures))
    return out.getvalue()


def figure_headings() -> list[str]:
    # The CSV's columns, named for people: which part of the report, the day, what the figure is of
    # (a table, a game, a dealer, a place), which figure, the amount, and a note.
    return [
        pgettext("a part of the report", "Section"),
        _("Date"),
        _("Subject"),
        _("Measure"),
        _("Value"),
        _("Note"),
    ]


def figures_xlsx(event: Event, figures: dict, made: xlsx.Made) -> bytes:
    """The CSV's rows and columns as a workbook: amounts as currency, dates as dates. Its title and
    headings are in the reader's language; its cells keep the published format's codes ("tables",
    "win", "BJ-1"), as the CSV and the JSON do, so that what is worked out from one file reads the
    other, in either language. The report for people to read is the PDF."""
    dates = list(event.days.order_by("date").values_list("date", flat=True)) or [None]
    title = _("%(event)s: the event's figures, %(days)s") % {
        "event": event.name,
        "days": xlsx.days_words(dates[0], dates[-1]),
    }
    sheet = xlsx.Sheet(str(_("Event figures")), title, figure_headings(), figure_rows(figures))
    return xlsx.workbook([sheet], made)


CELL = ParagraphStyle("cell", fontName="Helvetica", fontSize=9, leading=11)
CELL_BOLD = ParagraphStyle("cell-bold", parent=CELL, fontName="Helvetica-Bold")
CELL_RIGHT = ParagraphStyle("cell-right", parent=CELL, alignment=2)
CELL_RIGHT_BOLD = ParagraphStyle("cell-right-bold", parent=CELL_BOLD, alignment=2)
# The frame's width on a letter page with the report's margins (the frame pads 6 pt each side).
FRAME_WIDTH = letter[0] - 1.4 * inch - 12


def _text(value: str) -> Paragraph:
    """Free text (a reason, a description) as a wrapped cell; escaped, since reportlab reads markup."""
    return Paragraph(escape(str(value)), CELL)


def _grid(rows, widths, *, header=True, right=(), bold_last=False):
    """A ruled table, left on the page; `right` lists the columns of figures, set flush right;
    `widths` None: as wide as the content asks, within the frame.

    Every text is a Paragraph, so that a heading too long for its column ("Cash over/short")
    wraps between words instead of running over the next column; each column is widened to its
    longest word where the widths asked for are too narrow (core.pdf_layout)."""
    right = set(right)
    last = len(rows) - 1

    def cell(value, r, c):
        if not isinstance(value, str):
            return value
        bold = (header and r == 0) or (bold_last and r == last)
        style = (CELL_RIGHT_BOLD if bold else CELL_RIGHT) if c in right else (CELL_BOLD if bold else CELL)
        return Paragraph(escape(value), style)

    rows = [[cell(value, r, c) for c, value in enumerate(row)] for r, row in enumerate(rows)]
    widths = content_widths(rows, FRAME_WIDTH) if widths is None else words_whole(rows, list(widths), FRAME_WIDTH)
    table = Table(rows, colWidths=widths, repeatRows=1 if header else 0, hAlign="LEFT")
    style = [
        ("FONT", (0, 0), (-1, -1), "Helvetica", 9),
        ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#9aa5b1")),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 4),
        ("RIGHTPADDING", (0, 0), (-1, -1), 4),
    ]
    style += [("ALIGN", (col, 0), (col, -1), "RIGHT") for col in right]
    if header:
        style += [
            ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 9),
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e6ebf0")),
        ]
    if bold_last:
        style += [("FONT", (0, -1), (-1, -1), "Helvetica-Bold", 9)]
    table.setStyle(TableStyle(style))
    return table


# --- the PDF financial report (T&C 2.7) ---------------------------------------------------------

DESIGNATED_TITLES = {
    Role.DRIC: _lazy("Designated Representative in Charge"),
    Role.GENERAL_CASHIER: _lazy("General Cashier"),
    Role.CHIP_CASHIER: _lazy("Chip Cashier"),
}
EXPENSE_CATEGORY_NAMES = {
    "supplier_equipment": _lazy("Supplier equipment"),
    "supplier_services": _lazy("Supplier services"),
    "licence_fee": _lazy("Licence fee"),
    "bank_charges": _lazy("Bank charges"),
    "advertising": _lazy("Advertising"),
    "other": _lazy("Other"),
}


def _money(text: str) -> str:
    """A cage-report/1 amount ("-2.00") as people read money ("-$2.00")."""
    return dollars(cents_of(text))


def _expense_rows(event: Event) -> list[dict]:
    """The standing expenses (both signed, not voided), by category: read from the cheque register's
    own reading (cage.selectors.bank_slips.expenses_by_cheque), which section C lists the cheques of."""
    rows = [
        {
            "category": line.slip.details["category"],
            "date": line.slip.day.date.isoformat(),
            "description": line.slip.details["description"],
            "invoice": line.slip.details.get("invoice", ""),
            "cents": line.cents,
        }
        for line in expenses_by_cheque(event)
    ]
    order = list(EXPENSE_CATEGORY_NAMES)
    rows.sort(key=lambda r: order.index(r["category"]) if r["category"] in order else len(order))
    return rows


SEAL = ParagraphStyle("report-seal", fontName="Courier", fontSize=8, leading=10)


def _seals(event: Event, para, heading) -> list:
    """One line per gaming day: its seal (core.chain), the digest of the records as the day locked,
    which the day's signed sheets and close slip carry too."""
    rows = [[_("Gaming day"), _("Seal of the day's records")]]
    for day, seal in day_seals(event):
        rows.append(
            [
                date_format(day, "DATE_FORMAT"),
                Paragraph(seal, SEAL) if seal else para(_("not sealed: the day is not closed")),
            ]
        )
    return [
        Spacer(1, 0.2 * inch),
        KeepTogether(
            [
                para(_("Seals of the gaming days"), heading),
                para(
                    _(
                        "Each day's seal is printed on its signed sheets and close slip; python manage.py "
                        "verify_records checks a copy of the records against them."
                    )
                ),
                Spacer(1, 0.1 * inch),
                _grid(rows, [1.6 * inch, 5.3 * inch]),
            ]
        ),
    ]


@dataclass(frozen=True)
class _Styles:
    """The report's paragraph styles. A heading never sits alone at the foot of a page: it goes over
    with what it heads."""

    title: ParagraphStyle
    body: ParagraphStyle
    heading: ParagraphStyle
    sub: ParagraphStyle
    alert: ParagraphStyle

    @classmethod
    def made(cls):
        styles = getSampleStyleSheet()
        body = styles["BodyText"]
        return cls(
            title=styles["Title"],
            body=body,
            heading=ParagraphStyle("report-heading", parent=styles["Heading2"], keepWithNext=1),
            sub=ParagraphStyle("report-subheading", parent=styles["Heading4"], keepWithNext=1),
            alert=ParagraphStyle("alert", parent=body, textColor=RED, fontName="Helvetica-Bold"),
        )

    def para(self, text, style=None):
        return Paragraph(escape(str(text)), style or self.body)


def figures_pdf(event: Event, figures: dict, variance_notes: list[dict]) -> bytes:
    """The financial report on the results of the event, to be signed and filed (T&C 2.7).

    `figures` and `variance_notes` as reports.figures.report_figures gives them. A draft on every
    page until every gaming day is closed; then the certification, with each designated person's
    signature as given in the app."""
    state = report_state(event, figures)
    pdf = _Styles.made()
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=letter,
        leftMargin=0.7 * inch,
        rightMargin=0.7 * inch,
        topMargin=0.75 * inch,
        bottomMargin=0.75 * inch,
        title=_("Financial report: %(event)s") % {"event": event.name},
        author=event.licensee.name,
    )
    story = [Paragraph(escape(_("Financial report: Fair or Exhibition Gaming Event")), pdf.title)]
    if state.draft:
        story.append(
            pdf.para(
                _("DRAFT: not for filing and not certified; %(reason)s.") % {"reason": state.draft_reason()}, pdf.alert
            )
        )
    if state.stale:
        story.append(pdf.para(state.stale_note(), pdf.alert))
    story += _licensee_and_event(event, state, pdf)
    story += _wins(event, figures, pdf)
    story += _chips_in_hand(event, figures, pdf)
    story += _tips(event, figures, pdf)
    story += _over_short(event, figures, variance_notes, pdf)
    story += _charts(figures, pdf)
    story += _expenses(event, figures, pdf)
    story += _net_proceeds(event, figures, pdf)
    story += _certification(state, pdf)
    story += _seals(event, pdf.para, pdf.heading)
    generated = _("Generated %(time)s; %(event)s, licence %(licence)s") % {
        "time": moment(timezone.now()),
        "event": event.name,
        "licence": event.licence_number,
    }
    draft = state.draft_reason() if state.draft else ""
    doc.build(story, canvasmaker=page_canvas(draft=draft, generated=generated))
    return buffer.getvalue()


def _licensee_and_event(event: Event, state, pdf: _Styles) -> list:
    """(A) the licensee, the licence and the event, and who the designated persons are."""
    para, heading = pdf.para, pdf.heading
    story = []
    licensee = event.licensee
    licensee_name = licensee.name
    if licensee.charitable_registration_number:
        licensee_name = _("%(name)s (charity no. %(number)s)") % {
            "name": licensee.name,
            "number": licensee.charitable_registration_number,
        }
    supplier = event.supplier
    if event.supplier_registration_number:
        supplier = _("%(name)s (registration no. %(number)s)") % {
            "name": event.supplier,
            "number": event.supplier_registration_number,
        }
    rows = [
        [_("Licensee"), para(licensee_name)],
        [
            _("Licence number"),
            para(
                _("%(number)s, issued by %(authority)s")
                % {"number": event.licence_number, "authority": event.licensing_authority}
            ),
        ],
        [_("Event"), para(event.name)],
        [_("Venue"), para(event.venue)],
        [_("Gaming days"), para(", ".join(day_shown(d.date) for d in state.days) or _("none yet"))],
        [_("Registered supplier"), para(supplier)],
        [_("Games"), para(", ".join(game_name(code) for code in event.games))],
    ]
    if event.report_due_on:
        rows.append([_("Financial report due on"), para(day_shown(event.report_due_on))])
    rows += [
        [para(DESIGNATED_TITLES[role]), para(", ".join(p.name for p in people) or _("nobody designated"))]
        for role, people in state.designated.items()
    ]
    story += [para(_("A. Licensee and event"), heading), _grid(rows, [2.6 * inch, 4.5 * inch], header=False)]
    return story


def _wins(event: Event, figures: dict, pdf: _Styles) -> list:
    """(B) the results: win by table, by game, by day and for the event, and the chips sold and redeemed."""
    para, heading, sub = pdf.para, pdf.heading, pdf.sub
    story = []
    totals = figures["event_totals"]
    story += [para(_("B. Results"), heading), para(_("Win by table (win = closer - opener - fills + credits)"), sub)]
    story.append(
        _grid(
            [[_("Date"), _("Table"), _("Game"), _("Opener"), _("Fills"), _("Credits"), _("Closer"), _("Win")]]
            + [
                [day_shown(t["date"]), t["table"], game_name(t["game"])]
                + [_money(t[k]) for k in ("opener", "fills", "credits", "closer", "win")]
                for t in figures["tables"]
            ],
            # as wide as the longest heading needs ("Remplissages"), within the page's 7.1 inches
            [0.82 * inch, 0.55 * inch, 1.4 * inch, 0.85 * inch, 0.98 * inch, 0.75 * inch, 0.8 * inch, 0.78 * inch],
            right=range(3, 8),
        )
        if figures["tables"]
        else para(_("No table has closed yet."))
    )
    by_game: dict[str, int] = {}
    for g in figures["games"]:
        by_game[g["game"]] = by_game.get(g["game"], 0) + cents_of(g["win"])
    story += [
        para(_("Win by game"), sub),
        _grid(
            [[_("Date"), _("Game"), _("Win")]]
            + [[day_shown(g["date"]), game_name(g["game"]), _money(g["win"])] for g in figures["games"]]
            + [[_("Event"), game_name(code), dollars(win)] for code, win in sorted(by_game.items())],
            [1.2 * inch, 2.5 * inch, 1.2 * inch],
            right=(2,),
        ),
        para(_("By day and for the event"), sub),
        _grid(
            [
                [
                    _("Date"),
                    _("Win"),
                    _("Chip sales"),
                    _("Redemptions"),
                    _("Tips"),
                    _("Cash over/short"),
                    _("Chip over/short"),
                ]
            ]
            + [
                [day_shown(d["date"])]
                + [
                    _money(d[k])
                    for k in ("win", "chip_sales", "redemptions", "tips", "cash_over_short", "chip_over_short")
                ]
                for d in figures["days"]
            ]
            + [
                [_("Event")]
                + [
                    _money(totals[k])
                    for k in ("win", "chip_sales", "redemptions", "tips", "cash_over_short", "chip_over_short")
                ]
            ],
            [0.85 * inch] + [0.95 * inch] * 4 + [1.22 * inch] * 2,
            right=range(1, 7),
            bold_last=True,
        ),
        para(_("Chips"), sub),
        _grid(
            [
                [_("Chip sales"), _money(totals["chip_sales"])],
                [_("Redemptions"), _money(totals["redemptions"])],
                [_("Chips outstanding (sold, never redeemed)"), _money(totals["chips_outstanding"])],
            ],
            [3.5 * inch, 1.4 * inch],
            header=False,
            right=(1,),
        ),
    ]
    return story


def _chips_in_hand(event: Event, figures: dict, pdf: _Styles) -> list:
    """The chips in patrons' hands, by denomination."""
    para, sub = pdf.para, pdf.sub
    story = []
    liability = chip_liability(event)
    story += [
        para(_("Chips in patrons' hands (chip liability by denomination)"), sub),
        _grid(
            [[_("Chips"), pgettext("number of chips", "Count"), _("Amount")]]
            + [[r["label"], str(r["count"]), r["dollars"]] for r in liability["rows"]]
            + [[_("Total"), str(liability["count"]), liability["dollars"]]],
            [2.0 * inch, 1.0 * inch, 1.4 * inch],
            right=(1, 2),
            bold_last=True,
        ),
    ]
    return story


def _tips(event: Event, figures: dict, pdf: _Styles) -> list:
    """The dealers' tips: pooled, paid and still in the pool, and each share (T&C 2.6)."""
    para, sub = pdf.para, pdf.sub
    story = []
    totals = figures["event_totals"]
    names = dict(event.people.values_list("code", "name"))
    paid = sum(cents_of(t["amount"]) for t in figures["tip_shares"])
    story += [
        para(_("Dealers' tips (%(rule)s)") % {"rule": cite("T&C 2.6")}, sub),
        _grid(
            [
                [_("Tips pooled"), _money(totals["tips"])],
                [_("Tips paid to dealers"), dollars(paid)],
                [_("Still in the tip pool"), dollars(cents_of(totals["tips"]) - paid)],
            ],
            [3.5 * inch, 1.4 * inch],
            header=False,
            right=(1,),
        ),
        para(_("Tips belong to the dealers: they are not revenue and are not part of the net proceeds.")),
    ]
    if figures["tip_shares"]:
        story.append(
            _grid(
                [[_("Date"), _("Dealer"), _("Hours"), _("Amount")]]
                + [
                    [
                        day_shown(t["date"]),
                        names.get(t["person"], t["person"]),
                        hours_text(t["hours"]),
                        _money(t["amount"]),
                    ]
                    for t in figures["tip_shares"]
                ],
                [1.2 * inch, 2.0 * inch, 0.9 * inch, 1.1 * inch],
                right=(2, 3),
            )
        )
    return story


def _over_short(event: Event, figures: dict, variance_notes: list[dict], pdf: _Styles) -> list:
    """Cash and chips over/short, and each variance with its reason."""
    para, sub = pdf.para, pdf.sub
    story = []
    totals = figures["event_totals"]
    story += [
        para(_("Over/short (counted - expected)"), sub),
        _grid(
            [
                [_("Cash over/short"), _money(totals["cash_over_short"])],
                [_("Chip over/short"), _money(totals["chip_over_short"])],
            ],
            [3.5 * inch, 1.4 * inch],
            header=False,
            right=(1,),
        ),
    ]
    if figures["variances"]:
        story += [
            Spacer(1, 0.08 * inch),
            _grid(
                [[_("Date"), _("Place"), _("Chips or cash"), _("Amount"), _("Reason"), _("Details")]]
                + [
                    [
                        day_shown(v["date"]),
                        _text(v["place"]),
                        _text(v["chips_or_cash"]),
                        _money(v["amount"]),
                        _text(v["reason"]),
                        _text(v["details"]),
                    ]
                    for v in named_variances(event, figures["variances"], variance_notes)
                ],
                None,  # free text: the columns take the room their words ask for
                right=(3,),
            ),
        ]
    return story


def _charts(figures: dict, pdf: _Styles) -> list:
    """The report's charts, each with its caption."""
    para, sub = pdf.para, pdf.sub
    story = []
    # keepWithNext does not reach into a KeepTogether: the heading goes inside the first chart's.
    title = [para(_("Charts"), sub)]
    for chart in report_charts(figures):
        caption = para(chart.label(), CELL)
        story += [KeepTogether([*title, chart.drawing, caption]), Spacer(1, 0.12 * inch)]
        title = []
    return story


def _expenses(event: Event, figures: dict, pdf: _Styles) -> list:
    """(C) the expenses paid from the trust account, by category."""
    para, heading = pdf.para, pdf.heading
    story = []
    totals = figures["event_totals"]
    expenses = _expense_rows(event)
    story += [
        para(_("C. Expenses (paid from the licensee's trust account)"), heading),
    ]
    if expenses:
        rows = [[_("Category"), _("Date"), _("Description"), _("Invoice"), _("Amount")]]
        for category in dict.fromkeys(e["category"] for e in expenses):
            lines = [e for e in expenses if e["category"] == category]
            label = str(EXPENSE_CATEGORY_NAMES.get(category, category))
            rows += [
                [label, day_shown(e["date"]), _text(e["description"]), _text(e["invoice"] or "-"), dollars(e["cents"])]
                for e in lines
            ]
            if len(lines) > 1:
                rows.append(
                    [
                        _("%(category)s, total") % {"category": label},
                        "",
                        "",
                        "",
                        dollars(sum(e["cents"] for e in lines)),
                    ]
                )
        rows.append([_("Expenses, total"), "", "", "", _money(totals["expenses"])])
        story.append(
            _grid(rows, [1.4 * inch, 0.9 * inch, 2.5 * inch, 1.1 * inch, 1.0 * inch], right=(4,), bold_last=True)
        )
    else:
        story.append(para(_("None.")))
    story += _cheques(event, pdf)
    chips = missing_chips(cents_of(totals["chip_over_short"]), expenses_by_cheque(event))
    if chips.missing or chips.billed:
        story.append(pdf.para(missing_chips_words(chips), pdf.alert if chips.pending else None))
    return story


def _net_proceeds(event: Event, figures: dict, pdf: _Styles) -> list:
    """(D) the net proceeds, the deposits and the trust account's reconciliation."""
    para, heading, sub = pdf.para, pdf.heading, pdf.sub
    story = []
    totals = figures["event_totals"]
    rec = reconciliation(event, figures)
    deposits = deposits_to_the_bank(event)
    story += [
        para(_("D. Net proceeds and the trust account"), heading),
        _grid(
            [[label, dollars(cents)] for label, cents in net_proceeds_lines(totals)],
            [3.5 * inch, 1.4 * inch],
            header=False,
            right=(1,),
            bold_last=True,
        ),
        para(_("Deposits to the trust account"), sub),
        _grid(
            [[_("Date"), _("Slip"), _("Amount")]]
            + [[day_shown(d.slip.day.date), d.slip.number, dollars(d.cents)] for d in deposits]
            + [[_("Deposits, total"), "", dollars(rec["deposits"])]],
            [1.2 * inch, 2.3 * inch, 1.4 * inch],
            right=(2,),
            bold_last=True,
        )
        if deposits
        else para(_("No deposit to the trust account yet.")),
        para(_("Reconciliation"), sub),
        _grid(
            [
                [_("Deposits to the trust account"), dollars(rec["deposits"])],
                [_("less floats drawn from the trust account"), dollars(-rec["floats"])],
                [_("less expenses paid from the trust account"), dollars(-rec["expenses"])],
                [_("Net to the trust account"), dollars(rec["net_trust"])],
                [_("Net proceeds"), dollars(rec["net_proceeds"])],
                [_("Difference (net proceeds - net to the trust account)"), dollars(rec["difference"])],
            ],
            [3.9 * inch, 1.4 * inch],
            header=False,
            right=(1,),
            bold_last=True,
        ),
        para(difference_words(rec)),
        para(_("The trust account and the bank deposit slips"), sub),
        *_bank_slips(event, deposits, pdf),
        *_bank_reconciliation(event, pdf),
        *_use_of_proceeds(event, rec["net_proceeds"], pdf),
    ]
    return story


def _use_of_proceeds(event: Event, net_proceeds: int, pdf: _Styles) -> list:
    """The purposes the licence approved, the cheques that used the net proceeds for them, and what
    remains to use (events.proceeds, cage.selectors.bank_slips.disbursements)."""
    cheques = disbursements(event)
    purposes = disbursed_by_purpose(event)
    story = [pdf.para(_("Use of the net proceeds"), pdf.sub)]
    if not purposes:
        story.append(pdf.para(_("No charitable purpose the licence approved is entered."), pdf.alert))
    else:
        rows = [[_("Approved purpose"), _("Disbursed")]]
        rows += [[purpose.name, dollars(cents)] for purpose, cents in purposes]
        story.append(_grid(rows, [3.9 * inch, 1.4 * inch], right=(1,)))
    if cheques:
        rows = [[_("Cheque"), _("Date"), _("Payee"), _("Approved purpose"), _("Amount")]]
        rows += [[c.number, day_shown(c.written_on), c.payee, c.purpose.name, dollars(c.amount)] for c in cheques]
        story.append(_grid(rows, [0.9 * inch, 0.95 * inch, 1.9 * inch, 1.95 * inch, 1.0 * inch], right=(4,)))
    disbursed = sum(c.amount for c in cheques)
    story.append(
        _grid(
            [[label, dollars(cents)] for label, cents in proceeds_use_lines(net_proceeds, disbursed)],
            [3.9 * inch, 1.4 * inch],
            header=False,
            right=(1,),
            bold_last=True,
        )
    )
    # One block: its totals stay on the page of its table (a longer block still breaks).
    return [KeepTogether(story)]


def _bank_reconciliation(event: Event, pdf: _Styles) -> list:
    """The trust account's statement as the records say it must stand: from its opening balance,
    the floats, the deposits and the cheques drawn (cage.selectors.bank_slips.trust_reconciliation)."""
    account = trust_reconciliation(event)
    rows = [
        [label, _("not entered") if cents is None else dollars(cents)]
        for label, cents in bank_reconciliation_lines(account)
    ]
    story = [
        pdf.para(_("Bank reconciliation of the trust account"), pdf.sub),
        _grid(rows, [3.9 * inch, 1.4 * inch], header=False, right=(1,), bold_last=True),
    ]
    if account.opening is None:
        story.append(
            pdf.para(
                _(
                    "The trust account's opening balance is not entered: the balance its statement must show is unknown."
                ),
                pdf.alert,
            )
        )
    return [KeepTogether(story)]


def _trust_account(event: Event) -> str:
    if not event.trust_bank:
        return _("Trust account: not named yet.")
    return _("Trust account: %(bank)s, %(branch)s, the account ending in %(last_four)s.") % {
        "bank": event.trust_bank,
        "branch": event.trust_branch,
        "last_four": event.trust_account_last_four,
    }


def _bank_slip(line) -> str:
    b = line.bank_slip
    if b is None:
        return _("not yet confirmed")
    if not line.confirmed:
        return _("%(number)s (not checked yet)") % {"number": b.number}
    return b.number


def _bank_slips(event: Event, lines: list, pdf: _Styles) -> list:
    """The trust account, the bank's deposit slip for each deposit, and the papers to send with the
    report: a copy of each bank-stamped deposit slip (cage.selectors.bank_slips)."""
    para = pdf.para
    story = [para(_trust_account(event), None if event.trust_bank else pdf.alert)]
    if not lines:
        return story
    rows = [[_("Slip"), _("Bank slip"), _("Stamped on"), _("Entered by"), _("Checked by")]]
    for line in lines:
        b = line.bank_slip
        rows.append(
            [
                line.slip.number,
                _bank_slip(line),
                day_shown(b.stamped_on) if b else "",
                # Who entered it and who checked it against the stamped copy (T&C 2.7: two people).
                _text(b.entered_by.name) if b else "",
                _text(b.checked_by.name) if b and b.checked_by_id else "",
            ]
        )
    story.append(_grid(rows, [1.1 * inch, 1.9 * inch, 1.0 * inch, 1.55 * inch, 1.55 * inch]))
    waiting = [line for line in lines if not line.confirmed]
    if waiting:
        story.append(
            para(
                ngettext(
                    "%(n)s deposit not yet confirmed: the report cannot be filed until its bank slip is entered and "
                    "checked.",
                    "%(n)s deposits not yet confirmed: the report cannot be filed until their bank slips are entered "
                    "and checked.",
                    len(waiting),
                )
                % {"n": len(waiting)},
                pdf.alert,
            )
        )
    else:
        story.append(
            para(
                ngettext(
                    "To send with this report: a copy of the bank-stamped deposit slip, number %(numbers)s.",
                    "To send with this report: a copy of each bank-stamped deposit slip, numbers %(numbers)s.",
                    len(lines),
                )
                % {"numbers": ", ".join(line.bank_slip.number for line in lines)}
            )
        )
    return story


def _cheques(event: Event, pdf: _Styles) -> list:
    """The cheque register: each expense with the trust account's cheque that pays it
    (cage.selectors.bank_slips.expenses_by_cheque)."""
    lines = expenses_by_cheque(event)
    if not lines:
        return []
    rows = [[_("Cheque"), _("Date"), _("Payee"), _("Expense"), _("Amount")]]
    rows += [
        [
            line.cheque.number,
            day_shown(line.cheque.written_on),
            line.cheque.payee,
            line.slip.number,
            dollars(line.cents),
        ]
        for line in lines
        if line.cheque
    ]
    story = [pdf.para(_("Cheques drawn on the trust account"), pdf.sub)]
    if len(rows) > 1:
        story.append(_grid(rows, [1.0 * inch, 0.95 * inch, 2.4 * inch, 1.35 * inch, 1.0 * inch], right=(4,)))
    unpaid = [line.slip.number for line in lines if line.cheque is None]
    if unpaid:
        story.append(
            pdf.para(
                _(
                    "Expenses without the cheque that pays them: %(slips)s; the report cannot be filed until each has it."
                )
                % {"slips": ", ".join(unpaid)},
                pdf.alert,
            )
        )
    return story


def _certification(state, pdf: _Styles) -> list:
    """(E) the certification once every gaming day is closed; a draft says why it has none."""
    para, heading, alert = pdf.para, pdf.heading, pdf.alert
    story = []
    if state.draft:
        story += [
            Spacer(1, 0.2 * inch),
            para(_("This draft carries no certification: %(reason)s.") % {"reason": state.draft_reason()}, alert),
        ]
    else:
        rows = [[_("Position"), _("Name"), _("Signed on"), _("Signature")]]
        for role, people in state.designated.items():
            signature = state.signatures.get(role)
            if signature is None:
                rows.append(
                    [
                        para(DESIGNATED_TITLES[role]),
                        para(", ".join(p.name for p in people)),
                        "________________",
                        "______________________",
                    ]
                )
            else:
                rows.append(
                    [
                        para(DESIGNATED_TITLES[role]),
                        para(signature.person.name),
                        moment(signature.signed_at),
                        para(_("signed in the app by %(name)s") % {"name": signature.person.name}),
                    ]
                )
        block = [
            para(_("E. Certification"), heading),
            para(
                _(
                    "We, the designated persons of the event, certify that this report is complete and correct and "
                    "was prepared from the event's records."
                )
            ),
            Spacer(1, 0.15 * inch),
            _grid(rows, [2.7 * inch, 1.3 * inch, 1.3 * inch, 1.6 * inch]),
        ]
        if state.stale:
            block.append(para(state.stale_note(), alert))
        block.append(para(_filing_words(state.event)))
        story += [Spacer(1, 0.2 * inch), KeepTogether(block)]
    return story


def _filing_words(event: Event) -> str:
    """Where the report's filing stands (reports.filing), as the certification's last line."""
    done = filed(event)
    if done is not None:
        words = _("Filed with the licensing authority on %(date)s, recorded by %(name)s.") % {
            "date": day_shown(done.filed_on),
            "name": done.filed_by.name,
        }
        late = (done.filed_on - event.report_due_on).days if event.report_due_on else 0
        if late > 0:
            words += " " + ngettext(
                "It was due on %(due)s: filed %(n)s day late.", "It was due on %(due)s: filed %(n)s days late.", late
            ) % {"due": day_shown(event.report_due_on), "n": late}
        return words
    if event.report_due_on is not None:
        return _("Not filed yet; due on %(date)s.") % {"date": day_shown(event.report_due_on)}
    return _("Not filed yet.")
