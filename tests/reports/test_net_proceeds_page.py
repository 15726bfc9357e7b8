"""The report page shows how net proceeds is derived, from the win, with the figures the financial
report's section D prints (reports.services.net_proceeds_lines): the same lines, the same totals."""

import pytest
from django.urls import reverse

from cage.importer import import_records
from core.money import dollars
from reports.figures import report_figures
from reports.services import cents_of, net_proceeds_lines
from tests.conftest import Client, give_login
from tests.records_generator import generated_event
from tests.reports.test_charts import cells

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(db):
    data = generated_event(seed=5, days=2, records_per_day=30)
    data["event"]["slug"] = "net-page"
    event = import_records(data)
    give_login(event.people.get(code="ann"), "ann-net-page")
    return event


def test_the_report_page_derives_net_proceeds_from_the_win_as_the_pdf_does(client, event):
    client.force_login(event.people.get(code="ann").user)
    html = client.get(reverse("reports:event", args=[event.slug])).content.decode()
    totals = report_figures(event)[0]["event_totals"]
    lines = net_proceeds_lines(totals)
    rows = cells(html, "net-proceeds")
    assert rows == [[label, dollars(cents)] for label, cents in lines]
    assert [row[0] for row in rows] == [
        "Win",
        "plus chips outstanding",
        "plus cash over/short",
        "less expenses",
        "Net proceeds",
    ]
    # The lines add up to the last, which is the totals' net proceeds.
    assert sum(cents for _label, cents in lines[:-1]) == lines[-1][1] == cents_of(totals["net_proceeds"])
    assert cents_of(totals["expenses"]) > 0 and lines[3][1] == -cents_of(totals["expenses"])


def test_the_pdf_prints_the_same_lines(event):
    from reports.exports import _net_proceeds, _Styles  # noqa: PLC2701 - the section the page mirrors

    figures = report_figures(event)[0]
    story = _net_proceeds(event, figures, _Styles.made())
    grid = story[1]
    printed = [[cell.text for cell in row] for row in grid._cellvalues]
    assert printed == [[label, dollars(cents)] for label, cents in net_proceeds_lines(figures["event_totals"])]


def test_in_french_the_page_keeps_the_derivation(event):
    client = Client(HTTP_ACCEPT_LANGUAGE="fr-CA,fr;q=0.9")
    client.force_login(event.people.get(code="ann").user)
    html = client.get(reverse("reports:event", args=[event.slug])).content.decode()
    rows = cells(html, "net-proceeds")
    assert len(rows) == 5 and rows[-1][0] == "Produit net"
