"""The report's charts, drawn with reportlab's own graphics, and the chips still in patrons' hands.

Each chart is a reportlab Drawing built from the cage-report/1 figures: the PDF places it as a
flowable, the report page shows the same Drawing as inline SVG. Each carries its title and a
caption that lists every value, so a reader who cannot see the bars (or a test) reads the same.
"""

import re
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from django.utils.translation import gettext as _
from reportlab.graphics import renderSVG
from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.charts.legends import Legend
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib import colors

from cage.models import Account
from cage.services.ledger import balances, chips_label
from core.money import dollars
from core.rules import listed
from reports.names import day_shown
from reports.services import cents_of

WIDTH, HEIGHT = 480, 200
BLUE = colors.HexColor("#2f6690")
RED = colors.HexColor("#b42318")
GREEN = colors.HexColor("#3a7d44")
INK = colors.HexColor("#1f2933")


@dataclass
class Chart:
    """A Drawing with what a person reads instead of it."""

    key: str
    title: str
    caption: str
    drawing: Drawing

    def label(self) -> str:
        """What a screen reader says for the chart: its title, then every value."""
        return _("%(title)s: %(values)s") % {"title": self.title, "values": self.caption}

    def svg(self) -> str:
        """The Drawing as an inline <svg> element: titled, described, and labelled for screen readers."""
        text = renderSVG.drawToString(self.drawing)
        text = text[text.index("<svg") :]
        text = text.replace("<title>...</title>", f"<title>{escape(self.title)}</title>", 1)
        text = text.replace("<desc>...</desc>", f"<desc>{escape(self.caption)}</desc>", 1)
        # reportlab names PDF fonts; a browser knows the families
        text = text.replace(
            "font-family: Helvetica-Bold;", "font-family: Helvetica, Arial, sans-serif; font-weight: bold;"
        )
        text = text.replace("font-family: Helvetica;", "font-family: Helvetica, Arial, sans-serif;")
        # scale with the page: the viewBox keeps the proportions, the width follows the column
        text = re.sub(r'^<svg width="[^"]*" height="[^"]*"', "<svg", text, count=1)
        # The page's Content-Security-Policy allows no inline style: reportlab's style="…" become
        # the SVG presentation attributes they spell (fill, stroke, font-size…), which it allows.
        text = STYLE_ATTRIBUTE.sub(_presentation_attributes, text)
        # several charts share the page: ids of their own
        text = text.replace('id="clip"', f'id="chart-{self.key}-clip"').replace(
            "url(#clip)", f"url(#chart-{self.key}-clip)"
        )
        text = text.replace('id="group"', f'id="chart-{self.key}-group"', 1)
        return text.replace(
            "<svg",
            f'<svg role="img" aria-label={quoteattr(self.label())} class="chart" id="chart-{self.key}"',
            1,
        )


STYLE_ATTRIBUTE = re.compile(r' style="([^"]*)"')


def _presentation_attributes(match: re.Match) -> str:
    """' style="fill: red; stroke: none"' → ' fill="red" stroke="none"'."""
    attributes = []
    for declaration in match.group(1).split(";"):
        name, colon, value = (part.strip() for part in declaration.partition(":"))
        if colon and name and value:
            attributes.append(f" {name}={quoteattr(value)}")
    return "".join(attributes)


def _axis_step(top: int) -> int:
    """A round step in whole dollars for a value axis reaching `top` dollars, about five steps."""
    raw = max(top, 1) / 5
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000, 20000, 50000):
        if step >= raw:
            return step
    return int(raw) + 1


def _bars(title: str, labels: list[str], series: list[list[int]], names: list[str], fills: list) -> Drawing:
    """A vertical bar chart of cents, shown in dollars; several series are grouped side by side."""
    drawing = Drawing(WIDTH, HEIGHT)
    drawing.add(String(0, HEIGHT - 14, title, fontName="Helvetica-Bold", fontSize=11, fillColor=INK))
    chart = VerticalBarChart()
    chart.x, chart.y = 62, 36
    chart.width = WIDTH - 62 - (110 if len(series) > 1 else 12)
    chart.height = HEIGHT - 36 - 30
    data = [[c / 100 for c in values] for values in series] or [[0]]
    chart.data = data if labels else [[0]]
    values = [v for row in data for v in row] + [0]
    low, high = min(values), max(values)
    step = _axis_step(int(max(high, -low, abs(high - low))) or 1)
    chart.valueAxis.valueMin = (low // step) * step if low < 0 else 0
    chart.valueAxis.valueMax = max(-(-high // step) * step, step) if high > 0 else 0
    if chart.valueAxis.valueMax == chart.valueAxis.valueMin:
        chart.valueAxis.valueMax = chart.valueAxis.valueMin + step
    chart.valueAxis.valueStep = step
    chart.valueAxis.labelTextFormat = lambda v: dollars(round(v * 100))
    chart.valueAxis.labels.fontName = "Helvetica"
    chart.valueAxis.labels.fontSize = 8
    chart.valueAxis.visibleGrid = True
    chart.valueAxis.gridStrokeColor = colors.HexColor("#d9e2ec")
    chart.categoryAxis.categoryNames = labels or [""]
    chart.categoryAxis.labels.fontName = "Helvetica"
    chart.categoryAxis.labels.fontSize = 8
    chart.categoryAxis.labels.boxAnchor = "n"
    # the category axis sits at zero, so a loss is a bar below it
    chart.categoryAxis.joinAxisMode = "value"
    chart.categoryAxis.joinAxisPos = 0
    chart.categoryAxis.labelAxisMode = "low"
    chart.barSpacing = 2
    chart.groupSpacing = 10
    for i, fill in enumerate(fills):
        chart.bars[i].fillColor = fill
        chart.bars[i].strokeColor = None
    drawing.add(chart)
    if len(series) > 1:
        legend = Legend()
        legend.x, legend.y = WIDTH - 100, HEIGHT - 40
        legend.fontName, legend.fontSize = "Helvetica", 8
        legend.alignment = "right"
        legend.colorNamePairs = list(zip(fills, names, strict=True))
        drawing.add(legend)
    if not labels:
        drawing.add(String(WIDTH / 2, HEIGHT / 2, _("Nothing to show yet."), fontName="Helvetica", textAnchor="middle"))
    return drawing


def _listed(pairs: list[tuple[str, int]]) -> str:
    return listed(
        _("%(label)s %(amount)s") % {"label": label, "amount": dollars(cents)} for label, cents in pairs
    ) or _("nothing yet")


def win_by_day(figures: dict) -> Chart:
    pairs = [(day_shown(d["date"]), cents_of(d["win"])) for d in figures["days"]]
    title = _("Win by day")
    fills = [GREEN]
    drawing = _bars(title, [p[0] for p in pairs], [[p[1] for p in pairs]], [title], fills)
    chart = drawing.contents[1]
    for i, (_label, cents) in enumerate(pairs):
        if cents < 0:
            chart.bars[(0, i)].fillColor = RED
    return Chart("win-by-day", title, _listed(pairs), drawing)


def win_by_table(figures: dict) -> Chart:
    """Each table's win over the event's days; a table that lost sits below the axis, in red."""
    wins: dict[str, int] = {}
    for row in figures["tables"]:
        wins[row["table"]] = wins.get(row["table"], 0) + cents_of(row["win"])
    pairs = sorted(wins.items())
    title = _("Win by table")
    drawing = _bars(title, [p[0] for p in pairs], [[p[1] for p in pairs]], [title], [GREEN])
    chart = drawing.contents[1]
    for i, (_label, cents) in enumerate(pairs):
        if cents < 0:
            chart.bars[(0, i)].fillColor = RED
    return Chart("win-by-table", title, _listed(pairs), drawing)


def sales_and_redemptions(figures: dict) -> Chart:
    days = figures["days"]
    sales = [cents_of(d["chip_sales"]) for d in days]
    redeemed = [cents_of(d["redemptions"]) for d in days]
    title = _("Chip sales and redemptions by day")
    names = [_("Chip sales"), _("Redemptions")]
    dates = [day_shown(d["date"]) for d in days]
    drawing = _bars(title, dates, [sales, redeemed], names, [BLUE, colors.HexColor("#f4a259")])
    caption = listed(
        _("%(date)s: chip sales %(sales)s, redemptions %(redeemed)s")
        % {"date": date, "sales": dollars(s), "redeemed": dollars(r)}
        for date, s, r in zip(dates, sales, redeemed, strict=True)
    ) or _("nothing yet")
    return Chart("sales-redemptions", title, caption, drawing)


def report_charts(figures: dict) -> list[Chart]:
    """The three charts of the report, in the order the page and the PDF show them."""
    return [win_by_day(figures), win_by_table(figures), sales_and_redemptions(figures)]


def chip_liability(event) -> dict:
    """The chips in patrons' hands: the patrons account's chip balance per denomination, as a
    count of chips and dollars, with the total. Reads only; an event nobody sold chips at has none."""
    patrons = Account.objects.filter(event=event, kind=Account.Kind.PATRONS).first()
    held = balances([patrons]).get(patrons.id, {}) if patrons else {}
    rows = [
        {
            "label": chips_label(d.key),
            "count": held.get(d.id, 0) // d.value_cents,
            "cents": held.get(d.id, 0),
            "dollars": dollars(held.get(d.id, 0)),
        }
        for d in event.denominations.all()
        if held.get(d.id)
    ]
    total = sum(r["cents"] for r in rows)
    return {"rows": rows, "cents": total, "dollars": dollars(total), "count": sum(r["count"] for r in rows)}
