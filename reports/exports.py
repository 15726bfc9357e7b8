"""The event's figures as CSV and as the PDF financial report for the licensing authority (T&C 2.7).

Both are laid out from reports.figures.event_figures; nothing here computes a figure of its own.
"""

import csv
import io
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import inch
from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from cage.models import Slip, SlipType
from cage.money import cents_str
from events import games
from events.models import Event, Role
from reports.names import named_variances

TOTAL_LABELS = {
    "win": "Win",
    "chip_sales": "Chip sales",
    "redemptions": "Redemptions",
    "chips_outstanding": "Chips outstanding",
    "tips": "Tips (dealers' pool)",
    "cash_over_short": "Cash over/short",
    "chip_over_short": "Chip over/short",
    "expenses": "Expenses",
    "net_proceeds": "Net proceeds",
}


def expense_lines(event: Event) -> list[dict]:
    """The expenses behind the total, for the report's schedule (voided ones count for nothing)."""
    slips = Slip.objects.filter(event=event, slip_type=SlipType.EXPENSE, voided_by__isnull=True).select_related("day")
    return [
        {
            "date": slip.day.date.isoformat(),
            "category": slip.details["category"].replace("_", " "),
            "description": slip.details["description"],
            "invoice": slip.details.get("invoice", ""),
            "amount": cents_str(slip.details["cash"]),
        }
        for slip in slips
    ]


def figures_csv(figures: dict) -> str:
    """Every figure of the report as one row: section, date, subject, measure, value, note."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["section", "date", "subject", "measure", "value", "note"])
    for row in figures["tables"]:
        for measure in ("opener", "fills", "credits", "closer", "win"):
            writer.writerow(["tables", row["date"], row["table"], measure, row[measure], row["game"]])
    for row in figures["games"]:
        writer.writerow(["games", row["date"], row["game"], "win", row["win"], ""])
    for row in figures["days"]:
        for measure, value in row.items():
            if measure != "date":
                writer.writerow(["days", row["date"], "", measure, value, ""])
    for measure, value in figures["event_totals"].items():
        writer.writerow(["event_totals", "", figures["event"], measure, value, ""])
    for row in figures["tip_shares"]:
        writer.writerow(["tip_shares", row["date"], row["person"], "amount", row["amount"], f"hours {row['hours']}"])
    for row in figures["variances"]:
        writer.writerow(["variances", row["date"], row["account"], row["instrument"], row["amount"], row["reason"]])
    return out.getvalue()


CELL = ParagraphStyle("cell", fontName="Helvetica", fontSize=9, leading=11)


def _text(value: str) -> Paragraph:
    """Free text (a reason, a description) as a wrapped cell; escaped, since reportlab reads markup."""
    return Paragraph(escape(str(value)), CELL)


def _grid(rows, widths, *, header=True, right=(), bold_last=False):
    """A ruled table, left on the page; `right` lists the columns of figures, set flush right."""
    table = Table(rows, colWidths=widths, repeatRows=1 if header else 0, hAlign="LEFT")
    style = [
        ("FONT", (0, 0), (-1, -1), "Helvetica", 9),
        ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#9aa5b1")),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
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


def figures_pdf(event: Event, figures: dict) -> bytes:
    """The financial report on the results of the event, to be signed and filed (T&C 2.7)."""
    styles = getSampleStyleSheet()
    body, heading = styles["BodyText"], styles["Heading2"]
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=letter,
        leftMargin=0.7 * inch,
        rightMargin=0.7 * inch,
        topMargin=0.7 * inch,
        bottomMargin=0.7 * inch,
        title=f"Financial report: {event.name}",
        author=event.licensee.name,
    )
    licensee = event.licensee
    story = [
        Paragraph("Financial report: Fair or Exhibition Gaming Event", styles["Title"]),
        _grid(
            [
                [
                    "Licensee",
                    licensee.name
                    + (
                        f" (charity no. {licensee.charitable_registration_number})"
                        if licensee.charitable_registration_number
                        else ""
                    ),
                ],
                ["Licence", f"{event.licence_number}, {event.licensing_authority}"],
                ["Event", event.name],
                ["Venue", event.venue],
                ["Dates", f"{event.first_day.isoformat()} to {event.last_day.isoformat()}"],
                [
                    "Registered supplier",
                    event.supplier
                    + (f" (reg. {event.supplier_registration_number})" if event.supplier_registration_number else ""),
                ],
                ["Games", ", ".join(event.game_names())],
            ],
            [1.6 * inch, 5.4 * inch],
            header=False,
        ),
        Paragraph("Results", heading),
        _grid(
            [["", "Amount ($)"]] + [[TOTAL_LABELS[k], v] for k, v in figures["event_totals"].items()],
            [3.5 * inch, 1.4 * inch],
            right=(1,),
            bold_last=True,
        ),
        Paragraph(
            "Net proceeds = win + chips outstanding + cash over/short - expenses: the cash the event leaves "
            "in the licensee's hands, which the trust account deposits must show. Tips belong to the dealers "
            "(T&amp;C 2.6) and are not proceeds.",
            body,
        ),
        Paragraph("Daily figures", heading),
        _grid(
            [["Date", "Win", "Chip sales", "Redemptions", "Tips", "Cash o/s", "Chip o/s"]]
            + [
                [
                    d["date"],
                    d["win"],
                    d["chip_sales"],
                    d["redemptions"],
                    d["tips"],
                    d["cash_over_short"],
                    d["chip_over_short"],
                ]
                for d in figures["days"]
            ],
            [1.0 * inch] * 7,
            right=range(1, 7),
        ),
        Paragraph("Win by game", heading),
        _grid(
            [["Date", "Game", "Win"]]
            + [[g["date"], games.get_game(g["game"]).name_en, g["win"]] for g in figures["games"]],
            [1.2 * inch, 2.5 * inch, 1.2 * inch],
            right=(2,),
        ),
        Paragraph("Table figures (win = closer - opener - fills + credits)", heading),
        _grid(
            [["Date", "Table", "Game", "Opener", "Fills", "Credits", "Closer", "Win"]]
            + [
                [
                    t["date"],
                    t["table"],
                    games.get_game(t["game"]).name_en,
                    t["opener"],
                    t["fills"],
                    t["credits"],
                    t["closer"],
                    t["win"],
                ]
                for t in figures["tables"]
            ],
            [0.9 * inch, 0.6 * inch, 1.3 * inch] + [0.85 * inch] * 5,
            right=range(3, 8),
        ),
    ]
    expenses = expense_lines(event)
    names = dict(event.people.values_list("code", "name"))
    story += [Paragraph("Expenses (paid from the trust account)", heading)]
    story += [
        _grid(
            [["Date", "Category", "Description", "Invoice", "Amount"]]
            + [[e["date"], e["category"], _text(e["description"]), e["invoice"], e["amount"]] for e in expenses],
            [0.9 * inch, 1.4 * inch, 2.6 * inch, 1.0 * inch, 0.9 * inch],
            right=(4,),
        )
        if expenses
        else Paragraph("None.", body)
    ]
    story += [Paragraph("Dealers' tips shared pro rata (T&amp;C 2.6)", heading)]
    story += [
        _grid(
            [["Date", "Dealer", "Hours", "Amount"]]
            + [
                [t["date"], names.get(t["person"], t["person"]), t["hours"], t["amount"]] for t in figures["tip_shares"]
            ],
            [1.2 * inch, 2.0 * inch, 0.9 * inch, 1.1 * inch],
            right=(2, 3),
        )
        if figures["tip_shares"]
        else Paragraph("None.", body)
    ]
    story += [Paragraph("Variances (counted - expected)", heading)]
    story += [
        _grid(
            [["Date", "Place", "Chips or cash", "Amount", "Reason"]]
            + [
                [v["date"], v["place"], v["chips_or_cash"], v["amount"], _text(v["reason"])]
                for v in named_variances(event, figures["variances"])
            ],
            [0.9 * inch, 1.2 * inch, 1.0 * inch, 0.9 * inch, 2.8 * inch],
            right=(3,),
        )
        if figures["variances"]
        else Paragraph("None.", body)
    ]
    designated = {
        role: ", ".join(p.name for p in event.people.filter(assignments__role=role))
        for role in (Role.DRIC, Role.GENERAL_CASHIER)
    }
    story += [
        Spacer(1, 0.3 * inch),
        KeepTogether(
            [
                Paragraph("Certification", heading),
                Paragraph(
                    "We certify that this report is complete and correct and was prepared from the event's records.",
                    body,
                ),
                Spacer(1, 0.35 * inch),
                _grid(
                    [
                        [
                            "Prepared by (General Cashier)",
                            designated[Role.GENERAL_CASHIER],
                            "Signature: ______________________",
                        ],
                        [
                            "Approved by (DRIC)",
                            designated[Role.DRIC],
                            "Signature: ______________________",
                        ],
                    ],
                    [2.9 * inch, 1.7 * inch, 2.4 * inch],
                    header=False,
                ),
            ]
        ),
    ]
    doc.build(story)
    return buffer.getvalue()
