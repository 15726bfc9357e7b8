"""The register of slips as an XLSX workbook (?export=xlsx), the CSV's twin: the same rows and
columns, read back with openpyxl as a spreadsheet reads them; amounts as numbers in a currency
format, days as dates, times as times; a title, when it was made and by whom; French headings for
a French reader; no cell that runs as a formula; refused to whoever is refused the CSV."""

import csv
import datetime
import io
import re
import zipfile
from decimal import Decimal

import openpyxl
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from audit.models import AuditEntry
from cage import services
from cage.models import Slip
from core import xlsx
from events import csv_safe
from events.models import Person
from tests.cage.helpers import tables_written
from tests.cage.test_fully_blind import count_the_bank, reconciled
from tests.cage.test_registers import HEADER, SECOND, csv_rows, in_french, register_url, two_days
from tests.conftest import PASSWORD, login

pytestmark = pytest.mark.django_db

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
HYPERLINK = '=HYPERLINK("https://evil.example/pay","Click to pay")'


@pytest.fixture
def busy(cast):
    """The register's own two days (tests/cage/test_registers.py): a closed day and a busy one."""
    return two_days(cast)


def workbook(client, cast, **query):
    response = client.get(register_url(cast, export="xlsx", **query))
    assert response.status_code == 200
    assert response["Content-Type"] == XLSX
    assert response["Content-Disposition"] == f'attachment; filename="{cast.event.slug}.register.xlsx"'
    return openpyxl.load_workbook(io.BytesIO(response.content)), response


def body(ws) -> list[list]:
    """The rows under the heading (row 4), as openpyxl reads them."""
    return [[c for c in row] for row in ws.iter_rows(min_row=5)]


def as_csv_text(cell) -> str:
    """What the CSV writes for a workbook's cell: an amount to the cent, a date in ISO, a time to
    the minute, text as the CSV's guard writes it."""
    value = cell.value
    if value is None:
        return ""
    if cell.data_type == "n":
        return str(Decimal(str(value)).quantize(Decimal("0.01")))
    if isinstance(value, datetime.datetime) and cell.number_format == xlsx.DATE_FORMAT:
        return value.date().isoformat()
    if isinstance(value, datetime.time):
        return value.strftime("%H:%M")
    return csv_safe.neutralise(value)


def test_the_workbook_is_the_csv_row_for_row_with_numbers_dates_and_times(client, busy):
    login(client, busy, "auditor")
    book, _response = workbook(client, busy)
    assert book.sheetnames == ["Register of slips"]
    ws = book.active
    rows = body(ws)
    assert [c.value for c in ws[4]] == HEADER
    assert [[as_csv_text(c) for c in row] for row in rows] == csv_rows(client, busy)
    fill = next(row for row in rows if row[0].value == "Fill 1")
    day, time, amount = fill[1], fill[2], fill[6]
    assert day.is_date and day.value.date().isoformat() == SECOND and day.number_format == "yyyy-mm-dd"
    assert isinstance(time.value, datetime.time) and time.number_format == "hh:mm"
    assert amount.data_type == "n" and amount.number_format == '"$"#,##0.00'
    # $200.00 of fills: 40 × $5, a number a spreadsheet adds up, and the CSV's figure.
    assert Decimal(str(amount.value)) == Decimal("200.00")
    # A slip that moves no value (a day close) has no amount: an empty cell, as in the CSV.
    close = next(row for row in rows if row[0].value == "Day close 1")
    assert close[6].value is None


def test_the_title_says_what_when_and_who_and_the_heading_stays_in_sight(client, busy):
    login(client, busy, "dric")
    before = timezone.localtime().replace(tzinfo=None, second=0, microsecond=0)
    ws = workbook(client, busy)[0].active
    after = timezone.localtime().replace(tzinfo=None)
    assert ws["A1"].value == f"{busy.event.name}: register of slips, gaming days 2026-09-11 to {SECOND}"
    assert ws["A1"].font.b
    assert ws["A2"].value == "Made on" and ws["A2"].data_type == "s"
    assert ws["B2"].is_date and ws["B2"].number_format == "yyyy-mm-dd hh:mm"
    assert before <= ws["B2"].value <= after
    assert ws["C2"].value in ("EST", "EDT")
    assert (ws["A3"].value, ws["B3"].value) == ("Made by", busy.dric.name)
    assert all(c.font.b for c in ws[4])
    assert ws.freeze_panes == "A5"
    assert ws.auto_filter.ref.startswith("A4:J")
    # Each column as wide as its widest cell, within reason.
    widths = {col: ws.column_dimensions[col].width for col in "ABCDEFGHIJ"}
    assert all(8 <= w <= xlsx.WIDEST for w in widths.values()) and widths["I"] > widths["C"]


def test_a_filtered_workbook_says_so_in_its_title_and_holds_the_filtered_rows_in_their_order(client, busy):
    login(client, busy, "dric")
    query = {"type": "fill", "day": busy.day.pk, "sort": "-amount"}
    ws = workbook(client, busy, **query)[0].active
    assert ws["A1"].value == f"{busy.event.name}: register of slips, gaming day {SECOND} (Slip type: Fill)"
    assert [row[0].value for row in body(ws)] == [row[0] for row in csv_rows(client, busy, **query)]
    assert [row[0].value for row in body(ws)] == ["Fill 1", "Fill 2"]


def test_a_choice_not_in_its_list_sends_no_workbook(client, busy):
    login(client, busy, "dric")
    response = client.get(register_url(busy, export="xlsx", day="abc"))
    assert response.status_code == 400 and response["Content-Type"].startswith("text/html")
    assert "is not in this list" in response.content.decode()


def test_the_page_links_the_workbook_beside_the_csv_with_the_same_filters(client, busy):
    login(client, busy, "dric")
    html = client.get(register_url(busy, type="fill", sort="-amount", page=1)).content.decode()
    csv_link = re.search(r'href="\?([^"]*)" id="export-csv"', html).group(1)
    xlsx_link = re.search(r'href="\?([^"]*)" id="export-xlsx"', html).group(1)
    assert xlsx_link == csv_link.replace("export=csv", "export=xlsx") and "type=fill" in xlsx_link
    assert "page=" not in xlsx_link
    assert "Download these slips as a spreadsheet (XLSX)" in html


def test_in_french_the_headings_title_and_formats_are_french(client, busy):
    login(client, busy, "dric")
    in_french(client)
    ws = workbook(client, busy)[0].active
    heading = [c.value for c in ws[4]]
    assert heading[:3] == ["Fiche", "Journée de jeu", "Heure"] and heading[6] == "Montant"
    assert ws.title == "Registre des fiches"
    fill = next(row for row in body(ws) if row[0].value == "Remplissage 1")
    assert fill[6].number_format == '#,##0.00"\u00a0$"' and Decimal(str(fill[6].value)) == Decimal("200.00")
    assert fill[2].number_format == 'h"\u00a0h\u00a0"mm'
    # The same figures as the French CSV, row for row.
    assert [as_csv_text(row[6]) for row in body(ws)] == [row[6] for row in csv_rows_fr(client, busy)]


def csv_rows_fr(client, cast):
    """The CSV as a French reader downloads it (csv_rows checks for the English heading)."""
    response = client.get(register_url(cast, export="csv"))
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))[1:]


def test_text_that_looks_like_a_formula_stays_text(client, busy):
    """A runner named like a formula, an expense described "=1+2" and an opener's reason that is a
    DDE call: each is a text cell as written, never a formula, in the file itself."""
    Person.objects.filter(pk=busy.runner2.pk).update(name=HYPERLINK)
    login(client, busy, "dric")
    book, response = workbook(client, busy)
    rows = {row[0].value: row for row in body(book.active)}
    assert rows["Fill 2"][4].value == HYPERLINK
    assert rows["Expense 1"][9].value == "=1+2"
    assert rows["Opener 2"][9].value == "=cmd|' /C calc'!A0"
    for cell in (rows["Fill 2"][4], rows["Expense 1"][9], rows["Opener 2"][9]):
        assert cell.data_type == "s" and cell.quotePrefix
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        sheet = archive.read("xl/worksheets/sheet1.xml").decode()
    assert "<f>" not in sheet and "<f " not in sheet and "HYPERLINK" in sheet
    # The CSV guards the same cells its own way.
    assert next(row for row in csv_rows(client, busy) if row[0] == "Fill 2")[4] == "'" + HYPERLINK


def test_a_blind_days_amounts_stay_hidden_in_the_workbook(client, cast):
    reconciled(cast)
    login(client, cast, "chip_cashier")
    rows = body(workbook(client, cast)[0].active)
    sale = next(row for row in rows if row[0].value == "Chip sale 1")
    assert sale[6].value == "Hidden until the counts are in (blind count)" and sale[6].data_type == "s"
    assert sale[5].value == "Hidden until the counts are in (blind count)"
    count_the_bank(cast)
    sale = next(row for row in body(workbook(client, cast)[0].active) if row[0].value == "Chip sale 1")
    assert sale[6].data_type == "n"


@pytest.mark.parametrize("persona", ["runner", "dealer"])
def test_whoever_is_refused_the_csv_is_refused_the_workbook(client, busy, persona):
    login(client, busy, persona)
    for export in ("csv", "xlsx"):
        response = client.get(register_url(busy, export=export))
        assert response.status_code == 403 and response["Content-Type"].startswith("text/html")
        assert "Fill 1" not in response.content.decode()


def test_someone_with_no_role_on_the_event_is_refused_the_workbook(client, busy, outsider):
    assert client.login(username="outsider", password=PASSWORD)
    assert client.get(register_url(busy, export="xlsx")).status_code == 403


def test_the_workbook_is_kept_by_no_browser_and_its_only_write_is_the_audit_trail(client, busy):
    login(client, busy, "auditor")
    before = Slip.objects.count()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(register_url(busy, export="xlsx", type="fill"))
    assert response.status_code == 200
    directives = {d.strip() for d in response["Cache-Control"].split(",")}
    assert {"no-store", "private", "no-cache"} <= directives
    assert tables_written(queries) == ["audit_auditentry", "audit_auditlink"]
    assert Slip.objects.count() == before
    entry = AuditEntry.objects.filter(event=busy.event, action="exported").latest("pk")
    assert entry.new == {"what": "register", "format": "xlsx", "rows": 2}
    assert client.post(register_url(busy, export="xlsx")).status_code in (403, 405)


def test_a_busy_register_writes_every_row(client, busy):
    for _n in range(30):
        services.sale(
            day=busy.day, chips={"1": 1}, cash=100, signed=busy.signed(sold_by="chip_cashier"), allow_pending=True
        )
    login(client, busy, "dric")
    rows = body(workbook(client, busy)[0].active)
    assert len(rows) == len(csv_rows(client, busy)) == 17 + 30
