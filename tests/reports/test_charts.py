"""The report page and PDF: money as money, the chips in patrons' hands, and the three charts
drawn with reportlab's graphics (inline SVG on the page, Drawings in the PDF)."""

import copy
import re
import subprocess
from html import unescape
from xml.etree import ElementTree

import pytest
from django.urls import reverse

from cage.importer import import_records
from reports.charts import chip_liability, report_charts
from reports.figures import event_figures
from tests.browser.conftest import ARTIFACTS
from tests.conftest import PASSWORD, give_login
from tests.reports.test_exports import poppler  # noqa: F401  (skips without poppler-utils)
from tests.reports.test_figures import EXAMPLE
from tests.reports.test_financial_report import lines_of, pdf_pages

pytestmark = pytest.mark.django_db
SLUG = "lakeside-fair-2026"
TABLE_CAPTION = "BJ-1 $120.00; BJ-2 $150.00; WOF-1 -$120.00"


def example():
    event = import_records(copy.deepcopy(EXAMPLE))
    give_login(event.people.get(code="ann"), "ann")
    return event


def report_page(client) -> str:
    assert client.login(username="ann", password=PASSWORD)
    return client.get(reverse("reports:event", args=[SLUG])).content.decode()


def cells(html: str, table_id: str) -> list[list[str]]:
    """The rows of one table on the page, each as the text of its cells."""
    table = re.search(rf'<table[^>]*id="{table_id}".*?</table>', html, re.S).group(0)
    return [
        [unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)
    ]


def test_the_page_shows_money_as_money_and_the_json_keeps_its_strings(client):
    event = example()
    before = event_figures(event)
    page = report_page(client)
    totals = dict(cells(page, "totals"))
    assert totals["Net proceeds"] == "$95.00" and totals["Chip sales"] == "$2,000.00"
    assert ">95.00<" not in page and ">$95.00<" in page
    assert ["2026-09-11", "WOF-1", "Wheel of Fortune", "$200.00", "$100.00", "$0.00", "$180.00", "-$120.00"] in cells(
        page, "table-wins"
    )
    assert ["2026-09-11", "Wheel of Fortune", "-$120.00"] in cells(page, "game-wins")
    # the figures and the public JSON stay as they were
    assert event_figures(event) == before
    assert client.get(reverse("reports:event_json", args=[SLUG])).json()["event_totals"]["net_proceeds"] == "95.00"


def test_the_chips_in_patrons_hands_by_denomination():
    event = example()
    liability = chip_liability(event)
    assert [(r["label"], r["count"], r["dollars"]) for r in liability["rows"]] == [
        ("$1 chips", 10, "$10.00"),
        ("$5 chips", 4, "$20.00"),
    ]
    # the ledger agrees with the figures: chips sold and never redeemed
    assert liability["dollars"] == "$30.00" == "$" + event_figures(event)["event_totals"]["chips_outstanding"]


def test_the_page_shows_the_liability_and_three_charts_with_their_values(client):
    example()
    page = report_page(client)
    assert cells(page, "chip-liability")[1:] == [
        ["$1 chips", "10", "$10.00"],
        ["$5 chips", "4", "$20.00"],
        ["Total", "14", "$30.00"],
    ]
    svgs = re.findall(r"<svg[^>]*>", page)
    labels = [unescape(re.search(r'aria-label="([^"]*)"', svg).group(1)) for svg in svgs if 'role="img"' in svg]
    assert labels == [
        "Win by day: 2026-09-11 $150.00",
        f"Win by table: {TABLE_CAPTION}",
        "Chip sales and redemptions by day: 2026-09-11: chip sales $2,000.00, redemptions $1,780.00",
    ]
    captions = [unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<figcaption>(.*?)</figcaption>", page, re.S)]
    assert f"Win by table: {TABLE_CAPTION}" in captions
    # the SVG is reportlab's own drawing: the table codes are there as text, with the loss's axis labels
    table_chart = page[page.index('id="chart-win-by-table"') :]
    table_chart = table_chart[: table_chart.index("</svg>")]
    for text in ("BJ-1", "BJ-2", "WOF-1", "-$100.00", "<title>Win by table</title>"):
        assert text in table_chart


def test_the_charts_carry_their_colours_as_attributes_not_inline_styles(client):
    # The page's Content-Security-Policy refuses inline styles, so reportlab's style="…" must go.
    example()
    page = report_page(client)
    for svg in re.findall(r"<svg.*?</svg>", page, re.S):
        assert " style=" not in svg
        ElementTree.fromstring(svg)  # well-formed: no attribute twice
        assert re.search(r'<rect [^>]*fill="rgb\(', svg)
    ids = re.findall(r' id="([^"]*)"', page)
    assert len(ids) == len(set(ids))


def test_a_loss_is_a_bar_below_the_axis():
    event = example()
    chart = report_charts(event_figures(event))[1]
    bars = chart.drawing.contents[1]
    assert bars.categoryAxis.joinAxisMode == "value" and bars.valueAxis.valueMin < 0 < bars.valueAxis.valueMax
    assert chart.caption == TABLE_CAPTION


def test_an_event_with_no_figures_yet_draws_empty_charts(client):
    figures = {"tables": [], "days": [], "games": []}
    for chart in report_charts(figures):
        assert chart.caption == "nothing yet" and "<svg" in chart.svg()


def test_the_pdf_reads_back_with_every_section_the_liability_and_the_charts(client, tmp_path, poppler):  # noqa: F811
    example()
    assert client.login(username="ann", password=PASSWORD)
    response = client.get(reverse("reports:event_pdf", args=[SLUG]))
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(response.content)
    pages = pdf_pages(pdf)
    text = "\n".join(pages)
    order = [
        "A. Licensee and event",
        "B. Results",
        "Chips in patrons' hands (chip liability by denomination)",
        "Charts",
        "C. Expenses (paid from the licensee's trust account)",
        "D. Net proceeds and the trust account",
        "E. Certification",
    ]
    positions = [text.index(heading) for heading in order]
    assert positions == sorted(positions)
    lines = lines_of(pages)
    assert {"$1 chips 10 $10.00", "$5 chips 4 $20.00", "Total 14 $30.00", "Net proceeds $95.00"} <= lines
    assert f"Win by table: {TABLE_CAPTION}" in lines
    # the charts' own text is drawn on the page: axis labels and the table codes under the bars
    assert "-$100.00" in text and "Chip sales and redemptions by day" in text
    chart_page = next(i for i, page in enumerate(pages, start=1) if "Win by table: BJ-1" in page)
    subprocess.run(["pdftoppm", "-png", "-r", "50", str(pdf), str(tmp_path / "page")], check=True)
    png = sorted(tmp_path.glob("page-*.png"))[chart_page - 1]
    assert png.stat().st_size > 10_000
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "report-pdf-charts.png").write_bytes(png.read_bytes())
