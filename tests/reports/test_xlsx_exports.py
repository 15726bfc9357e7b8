"""The event's figures and a day's control sheets as XLSX workbooks, the twins of their CSV files:
read back with openpyxl as a spreadsheet reads them, figure for figure against the CSV; amounts as
numbers in a currency format, dates and times as such; a title, when it was made and by whom;
French headings for a French reader; no cell that runs as a formula; refused to whoever is refused
the CSV. And the writer itself (core.xlsx)."""

import copy
import csv
import datetime
import io
import zipfile
from decimal import Decimal

import openpyxl
import pytest
from django.urls import reverse
from django.utils import timezone, translation

from audit.models import AuditEntry
from cage.importer import import_records
from cage.models import Slip
from core import xlsx
from core.money import shortest_decimal
from events import csv_safe
from reports.daily import day_sheets
from reports.daily_exports import ROW_KINDS, day_sheets_of, typed_rows
from tests.cage.test_fully_blind import count_the_bank, reconciled
from tests.conftest import PASSWORD, Client, give_login, login
from tests.reports.test_figures import EXAMPLE

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]

SLUG, DATE = "lakeside-fair-2026", "2026-09-11"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
HYPERLINK = '=HYPERLINK("https://evil.example/pay","Click to pay")'
MONEY_EN, MONEY_FR = '"$"#,##0.00', '#,##0.00"\u00a0$"'


@pytest.fixture
def example(db):
    """The worked example's closed day, with logins for the DRIC, a runner and a dealer; its runner
    Ron is named like a spreadsheet formula."""
    data = copy.deepcopy(EXAMPLE)
    next(p for p in data["people"] if p["id"] == "ron")["name"] = HYPERLINK
    event = import_records(data)
    people = {p.code: p for p in event.people.all()}
    for code in ("ann", "rita", "dana"):
        give_login(people[code], code)
    return event


def logged_in(username="ann", **headers) -> Client:
    client = Client(**headers)
    assert client.login(username=username, password=PASSWORD)
    return client


def day_url(**query) -> str:
    url = reverse("reports:day", args=[SLUG, DATE])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def download(client, url, filename):
    response = client.get(url)
    assert response.status_code == 200, url
    assert response["Content-Type"] == XLSX
    assert response["Content-Disposition"] == f'attachment; filename="{filename}"'
    directives = {d.strip() for d in response["Cache-Control"].split(",")}
    assert {"no-store", "private", "no-cache"} <= directives
    return openpyxl.load_workbook(io.BytesIO(response.content)), response


def csv_of(client, url) -> list[dict]:
    return list(csv.DictReader(io.StringIO(client.get(url).content.decode("utf-8-sig"))))


def body(ws) -> list[list]:
    return [list(row) for row in ws.iter_rows(min_row=5)]


def as_csv_text(cell) -> str:
    """What the CSV writes for a workbook's cell: an amount to the cent, a count or hours as they
    are, a date in ISO, a time to the minute, text as the CSV's guard writes it."""
    value = cell.value
    if value is None:
        return ""
    if cell.data_type == "n":
        number = Decimal(str(value))
        if cell.number_format in (MONEY_EN, MONEY_FR):
            return str(number.quantize(Decimal("0.01")))
        return shortest_decimal(number)
    if isinstance(value, datetime.datetime) and cell.number_format == xlsx.DATE_FORMAT:
        return value.date().isoformat()
    if isinstance(value, datetime.time):
        return value.strftime("%H:%M")
    return csv_safe.neutralise(value)


def assert_title_rows(ws, title, who):
    assert ws["A1"].value == title and ws["A1"].font.b
    assert ws["A2"].value == "Made on" and ws["B2"].is_date
    assert abs(ws["B2"].value - timezone.localtime().replace(tzinfo=None)) < datetime.timedelta(minutes=2)
    assert ws["B2"].number_format == "yyyy-mm-dd hh:mm"
    assert (ws["A3"].value, ws["B3"].value) == ("Made by", who)
    assert all(c.font.b for c in ws[4] if c.value is not None)
    assert ws.freeze_panes == "A5"


# --- the event's figures ------------------------------------------------------------------------


def test_the_reports_workbook_is_its_csv_row_for_row(example):
    client = logged_in()
    book, _response = download(client, reverse("reports:event_xlsx", args=[SLUG]), f"{SLUG}.report.xlsx")
    ws = book.active
    assert ws.title == "Event figures"
    assert_title_rows(ws, f"{example.name}: the event's figures, gaming day {DATE}", "Ann Leblanc")
    assert [c.value for c in ws[4]] == ["Section", "Date", "Subject", "Measure", "Value", "Note"]
    rows = csv_of(client, reverse("reports:event_csv", args=[SLUG]))
    assert [[as_csv_text(c) for c in row] for row in body(ws)] == [list(r.values()) for r in rows]
    for row in body(ws):
        value = row[4]
        assert value.data_type == "n" and value.number_format == MONEY_EN, [c.value for c in row]
    net = next(row for row in body(ws) if row[3].value == "net_proceeds")
    assert Decimal(str(net[4].value)) == Decimal("95.00") and net[1].value is None
    win = next(row for row in body(ws) if row[2].value == "WOF-1" and row[3].value == "win")
    assert Decimal(str(win[4].value)) == Decimal("-120.00")
    assert win[1].is_date and win[1].value.date().isoformat() == DATE and win[1].number_format == "yyyy-mm-dd"


def test_the_report_page_links_the_workbook_beside_the_csv(example):
    page = logged_in().get(reverse("reports:event", args=[SLUG])).content.decode()
    csv_link = f'<a href="{reverse("reports:event_csv", args=[SLUG])}">CSV</a>'
    assert f'{csv_link}\n · <a href="{reverse("reports:event_xlsx", args=[SLUG])}" id="report-xlsx">XLSX</a>' in page


def test_in_french_the_reports_headings_and_money_are_french_and_its_codes_stay(example):
    french = logged_in(HTTP_ACCEPT_LANGUAGE="fr-CA,fr;q=0.9")
    ws = download(french, reverse("reports:event_xlsx", args=[SLUG]), f"{SLUG}.report.xlsx")[0].active
    assert ws.title == "Chiffres de l’activité"
    assert [c.value for c in ws[4]][1] == "Date"
    assert {row[4].number_format for row in body(ws)} == {MONEY_FR}
    # The cells are the published format's, as its CSV's are in either language.
    english = download(logged_in(), reverse("reports:event_xlsx", args=[SLUG]), f"{SLUG}.report.xlsx")[0].active
    assert [[c.value for c in row] for row in body(ws)] == [[c.value for c in row] for row in body(english)]


def test_the_reports_workbook_waits_for_the_blind_counts_as_its_csv_does(client, cast):
    reconciled(cast)
    login(client, cast, "general_cashier")
    url = reverse("reports:event_xlsx", args=[cast.event.slug])
    response = client.get(url, follow=True)
    assert response.redirect_chain == [(reverse("reports:event", args=[cast.event.slug]), 302)]
    assert "wait until tonight&#x27;s counts are in" in response.content.decode()
    assert not AuditEntry.objects.filter(event=cast.event, action="exported").exists()
    count_the_bank(cast)
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == XLSX


# --- a day's control sheets ---------------------------------------------------------------------


def test_each_sheets_workbook_is_its_csv_row_for_row(example):
    client = logged_in()
    data = day_sheets(example.days.get())
    for sheet in day_sheets_of(data):
        url = day_url(format="xlsx", sheet=sheet.key)
        ws = download(client, url, f"{SLUG}-{DATE}-{sheet.key}.xlsx")[0].active
        assert ws.title == sheet.title[:31]
        assert_title_rows(ws, f"{example.name}: {sheet.title}, gaming day {DATE}", "Ann Leblanc")
        assert [c.value for c in ws[4]] == ["Row", *(c.label for c in sheet.columns)]
        lines = csv_of(client, day_url(format="csv", sheet=sheet.key))
        assert [[as_csv_text(c) for c in row[1:]] for row in body(ws)] == [
            [line[c.key] for c in sheet.columns] for line in lines
        ], sheet.key
        assert [row[0].value for row in body(ws)] == [ROW_KINDS[line["row"]] for line in lines]
        for row in body(ws):
            assert all(c.font.b for c in row) == (row[0].value in ("subtotal", "total"))


def test_the_master_game_reports_figures_are_numbers_in_dollars(example):
    ws = download(logged_in(), day_url(format="xlsx", sheet="master_game_report"), f"{SLUG}-{DATE}-master_game_report.xlsx")[0].active  # fmt: skip
    total = body(ws)[-1]
    assert [c.value for c in total[:3]] == ["total", "Day's total", None]
    assert [Decimal(str(c.value)) for c in total[3:]] == [Decimal(x) for x in ("1200", "300", "300", "1350", "150")]
    assert {c.number_format for c in total[3:]} == {MONEY_EN} and all(c.data_type == "n" for c in total[3:])


def test_times_counts_and_hours_are_numbers_too(example):
    client = logged_in()
    fills = body(download(client, day_url(format="xlsx", sheet="fill_credit_register"), f"{SLUG}-{DATE}-fill_credit_register.xlsx")[0].active)  # fmt: skip
    assert fills[0][2].value == datetime.time(13, 30) and fills[0][2].number_format == "hh:mm"
    tips = body(download(client, day_url(format="xlsx", sheet="tip_distribution"), f"{SLUG}-{DATE}-tip_distribution.xlsx")[0].active)  # fmt: skip
    dana = next(row for row in tips if row[3].value == "Dana Kowalski")
    assert dana[4].value == 4 and dana[4].data_type == "n" and dana[4].number_format == "General"
    runners = body(download(client, day_url(format="xlsx", sheet="runner_reconciliation"), f"{SLUG}-{DATE}-runner_reconciliation.xlsx")[0].active)  # fmt: skip
    rita = next(row for row in runners if row[1].value == "Rita Okafor")
    assert rita[7].value == 1 and rita[7].data_type == "n" and rita[7].number_format == "#,##0"


def test_the_days_workbook_holds_every_cell_of_the_days_csv(example):
    client = logged_in()
    book, _response = download(client, day_url(format="xlsx"), f"{SLUG}-{DATE}-sheets.xlsx")
    data = day_sheets(example.days.get())
    sheets = day_sheets_of(data)
    assert book.sheetnames == [s.title for s in sheets] + ["Reviewed and approved", "Seal of the day's records"]
    cells = {(r["sheet"], int(r["line"]), r["column"]): r for r in csv_of(client, day_url(format="csv"))}
    seen = 0
    for ws, sheet in zip(book.worksheets, sheets, strict=False):
        for line, row in enumerate(body(ws), start=1):
            for column, cell in zip(sheet.columns, row[1:], strict=True):
                written = cells[(sheet.key, line, column.key)]
                assert as_csv_text(cell) == written["value"] and row[0].value == ROW_KINDS[written["row"]]
                seen += 1
    signed, seal = book["Reviewed and approved"], book["Seal of the day's records"]
    assert [c.value for c in signed[4]] == ["Capacity", "Role", "Name", "Date and time", "Slip"]
    for line, row in enumerate(body(signed), start=1):
        assert [c.value for c in row[:3]] + [row[4].value] == [
            cells[("sign_off", line, k)]["value"] for k in ("capacity", "role", "name", "slip")
        ]
        at = datetime.datetime.fromisoformat(cells[("sign_off", line, "signed_at")]["value"])
        assert row[3].value == at.replace(tzinfo=None, microsecond=0) and row[3].number_format == "yyyy-mm-dd hh:mm"
        seen += 5
    assert body(seal)[0][0].value == cells[("seal", 1, "digest")]["value"]
    assert seen + 1 == len(cells)


def test_in_french_the_sheets_headings_times_and_money_are_french(example):
    french = logged_in(HTTP_ACCEPT_LANGUAGE="fr-CA,fr;q=0.9")
    ws = download(french, day_url(format="xlsx", sheet="master_game_report"), f"{SLUG}-{DATE}-master_game_report.xlsx")[0].active  # fmt: skip
    assert ws.title == "Rapport principal des jeux" and "Rapport principal des jeux" in ws["A1"].value
    assert [c.value for c in ws[4]][1:4] == ["Jeu", "Table", "Inventaire d’ouverture"]
    assert body(ws)[-1][1].value == "Total de la journée" and body(ws)[-1][3].number_format == MONEY_FR
    fills = download(french, day_url(format="xlsx", sheet="fill_credit_register"), f"{SLUG}-{DATE}-fill_credit_register.xlsx")[0].active  # fmt: skip
    assert body(fills)[0][2].value == datetime.time(13, 30)
    assert body(fills)[0][2].number_format == 'h"\u00a0h\u00a0"mm'
    # The French CSV keeps its words for the time; the workbook's time is the same minute.
    assert csv_of(french, day_url(format="csv", sheet="fill_credit_register"))[0]["time"] == "13\u00a0h\u00a030"


def test_text_that_looks_like_a_formula_stays_text_in_the_sheets(example):
    client = logged_in()
    book, response = download(client, day_url(format="xlsx", sheet="fill_credit_register"), f"{SLUG}-{DATE}-fill_credit_register.xlsx")  # fmt: skip
    runner = body(book.active)[0][4]
    assert runner.value == HYPERLINK and runner.data_type == "s" and runner.quotePrefix
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        sheet = archive.read("xl/worksheets/sheet1.xml").decode()
    assert "<f>" not in sheet and "<f " not in sheet
    assert csv_of(client, day_url(format="csv", sheet="fill_credit_register"))[0]["runner"] == "'" + HYPERLINK


def test_the_day_page_links_each_workbook_beside_its_csv(example):
    page = logged_in().get(day_url()).content.decode()
    here = day_url()
    assert f'<a href="{here}?format=xlsx" id="day-xlsx">All sheets (XLSX)</a>' in page
    for key in ("totals", "master_game_report", "staffing"):
        assert (
            f'<a href="{here}?format=csv&amp;sheet={key}">CSV</a> · <a href="{here}?format=xlsx&amp;sheet={key}">XLSX</a>'
            in page
        )


def test_a_blind_figure_is_an_empty_cell_in_the_csv_and_says_why_in_the_workbook(client, cast):
    reconciled(cast)
    login(client, cast, "general_cashier")
    date = cast.day.date.isoformat()
    url = reverse("reports:day", args=[cast.event.slug, date])
    ws = openpyxl.load_workbook(io.BytesIO(client.get(url + "?format=xlsx&sheet=totals").content)).active
    win = next(row for row in body(ws) if row[1].value == "Win")
    assert win[0].value == "blind count" and win[2].value == "hidden until the counts are in (blind count)"
    lines = list(csv.DictReader(io.StringIO(client.get(url + "?format=csv&sheet=totals").content.decode())))
    assert next(line for line in lines if line["measure"] == "Win") == {"row": "blind", "measure": "Win", "amount": ""}
    assert "51" not in str([[c.value for c in row] for row in body(ws)])
    count_the_bank(cast)
    ws = openpyxl.load_workbook(io.BytesIO(client.get(url + "?format=xlsx&sheet=totals").content)).active
    assert next(row for row in body(ws) if row[1].value == "Chip sales")[2].value == 51


def test_the_typed_rows_are_the_json_and_csv_texts(example, cast):
    """Both files are written from the typed rows; their text is what the sheets' JSON has always
    said (Sheet.plain), for a closed day and for one counted blind."""
    reconciled(cast)
    for day in (example.days.get(), cast.day):
        for sheet in day_sheets_of(day_sheets(day)):
            plain = sheet.plain()
            typed = [{"row": kind, **{c.key: str(v) for c, v in zip(sheet.columns, cells, strict=True)}}
                     for kind, cells in typed_rows(sheet)]  # fmt: skip
            assert typed == plain, sheet.key


def test_an_unknown_sheet_is_not_found(example):
    assert logged_in().get(day_url(format="xlsx", sheet="nope")).status_code == 404


# --- who may, and what it writes ------------------------------------------------------------------


@pytest.mark.parametrize("who", ["rita", "dana"])
def test_whoever_is_refused_the_csv_is_refused_the_workbook(example, who):
    client = logged_in(who)
    for csv_url, xlsx_url in (
        (reverse("reports:event_csv", args=[SLUG]), reverse("reports:event_xlsx", args=[SLUG])),
        (day_url(format="csv"), day_url(format="xlsx")),
        (day_url(format="csv", sheet="totals"), day_url(format="xlsx", sheet="totals")),
    ):
        assert client.get(csv_url).status_code == 403
        response = client.get(xlsx_url)
        assert response.status_code == 403 and response["Content-Type"].startswith("text/html")


def test_someone_with_no_role_on_the_event_is_refused_the_workbooks(example, outsider):
    client = logged_in("outsider")
    for url in (reverse("reports:event_xlsx", args=[SLUG]), day_url(format="xlsx")):
        assert client.get(url).status_code == 403
    assert Client().get(reverse("reports:event_xlsx", args=[SLUG])).status_code == 302  # to log in


def test_each_workbook_is_on_the_audit_trail_and_writes_nothing_else(example):
    client = logged_in()
    slips = Slip.objects.count()
    client.get(reverse("reports:event_xlsx", args=[SLUG]))
    client.get(day_url(format="xlsx", sheet="staffing"))
    client.get(day_url(format="xlsx"))
    entries = AuditEntry.objects.filter(event=example, action="exported").order_by("pk")
    assert [e.new for e in entries] == [
        {"what": "event_report", "format": "xlsx"},
        {"what": "day_sheets", "format": "xlsx", "day": DATE},
        {"what": "day_sheets", "format": "xlsx", "day": DATE},
    ]
    assert {e.params["format"] for e in entries} == {"XLSX"}
    assert Slip.objects.count() == slips
    assert client.post(reverse("reports:event_xlsx", args=[SLUG])).status_code == 405


# --- the writer (core.xlsx) -----------------------------------------------------------------------


def test_the_workbook_guards_what_the_csv_guards():
    assert xlsx.FORMULA_STARTS == csv_safe.FORMULA_STARTS


def test_dollars_are_exact_decimals_from_the_cents():
    assert xlsx.Cents(1_000_000_000).dollars == Decimal("10000000.00")
    assert xlsx.Cents(-5).dollars == Decimal("-0.05") and str(xlsx.Cents(-5)) == "-0.05"
    assert xlsx.Cents(1999).dollars == Decimal("19.99")
    assert xlsx.Hours(Decimal("2.50")).__str__() == "2.5" and str(xlsx.Hidden("not counted")) == ""


def test_any_text_is_written_as_text_and_every_tab_is_a_legal_one():
    texts = ["=1+2", "+1", "-x", "@SUM(A1)", "\tTab", "#N/A", "bell\x07here", "x" * 40_000, "plain"]
    made = xlsx.Made(timezone.now(), "=Somebody")
    sheets = [xlsx.Sheet("Day: 1/2 [a]*?", "=title", ["=heading"], [[t] for t in texts]),
              xlsx.Sheet("Day: 1/2 [a]*?", "again", ["h"], []),
              xlsx.Sheet("A name longer than thirty-one characters", "t", ["h"], [])]  # fmt: skip
    with translation.override("fr-ca"):
        book = openpyxl.load_workbook(io.BytesIO(xlsx.workbook(sheets, made)))
    assert book.sheetnames == ["Day  1 2  a", "Day  1 2  a 2", "A name longer than thirty-one ch"[:31]]
    ws = book.worksheets[0]
    cells = [row[0] for row in ws.iter_rows(min_row=5)]
    assert all(c.data_type == "s" for c in cells)
    assert [c.value for c in cells][:6] == texts[:6]
    assert cells[6].value == "bell\ufffdhere" and len(cells[7].value) == 32_767
    assert [c.quotePrefix for c in cells][:6] == [True] * 5 + [False]
    assert ws["A1"].value == "=title" and ws["A1"].data_type == "s" and ws["B3"].value == "=Somebody"
    assert book.properties.creator == "=Somebody"
