"""One gaming day's figures and its daily control sheets, checked against the worked example.

docs/examples/lakeside-one-day.json is imported as it stands; its worked report
(lakeside-one-day.report.json) gives the day's win, sales, redemptions, tips, chips outstanding
and variance, and the sheets must agree with it.
"""

import copy
import csv
import datetime
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from cage import services
from cage.importer import import_records
from cage.models import Slip
from core.money import cents_str
from events import services as event_services
from events.models import GamingDay, Role
from reports.daily import day_figures, day_sheets, sheets_json
from reports.daily_exports import sheet_csv, sheets_csv, sheets_pdf
from reports.figures import event_figures
from tests.cage.helpers import FILL_SIGNED, close_clean_day, open_table, stock
from tests.conftest import EXAMPLES, PASSWORD, give_login
from tests.reports.test_exports import pdf_text, poppler  # noqa: F401  (poppler: a fixture)
from tests.reports.test_figures import EXAMPLE
from tests.reports.test_variance_reasons import pictures

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]
REPORT = json.loads((EXAMPLES / "lakeside-one-day.report.json").read_text())
SLUG, DATE = "lakeside-fair-2026", "2026-09-11"
ROOT = Path(__file__).resolve().parents[2]


def example_day() -> GamingDay:
    return import_records(copy.deepcopy(EXAMPLE)).days.get()


def sheet(data, key):
    return next(s for s in data["sheets"] + data["figures"]["sheets"] if s.key == key)


def rows(data, key, drop=("row",)):
    return [{k: v for k, v in r.items() if k not in drop} for r in sheet(data, key).plain()]


# --- 1. the day's figures --------------------------------------------------------------------------


def test_the_days_figures_agree_with_the_worked_report():
    figures = day_figures(example_day())
    totals = {k: cents_str(v) for k, v in figures["totals"].items()}
    day = REPORT["days"][0]
    for key in ("win", "chip_sales", "redemptions", "tips", "cash_over_short", "chip_over_short"):
        assert totals[key] == day[key], key
    assert totals["win"] == "150.00"
    # One day: chips outstanding at its end is the event's.
    assert totals["chips_outstanding"] == REPORT["event_totals"]["chips_outstanding"] == "30.00"
    assert totals["deposits"] == "1000.00"
    worked = [{k: r[k] for k in ("table", "opener", "fills", "credits", "closer", "win")} for r in REPORT["tables"]]
    assert sorted(worked, key=lambda r: r["table"]) == sorted(
        (
            {"table": r["table"], **{k: cents_str(r[k]) for k in ("opener", "fills", "credits", "closer", "win")}}
            for r in figures["tables"]
        ),
        key=lambda r: r["table"],
    )
    assert {g["game"]: cents_str(g["win"]) for g in figures["games"]} == {g["game"]: g["win"] for g in REPORT["games"]}
    assert [(v["place"], v["chips_or_cash"], cents_str(v["amount"]), v["reason"]) for v in figures["variances"]] == [
        ("chip bank", "$1 chips", "-2.00", "two $1 chips missing")
    ]
    assert [(d["slip"], cents_str(d["amount"])) for d in figures["deposits"]] == [("Deposit 1", "1000.00")]


def test_chips_outstanding_adds_up_every_day_to_this_one():
    from tests.reports.test_figures import two_days

    event = two_days()
    first, second = event.days.order_by("date")
    # At the end of the first day: the worked example's; at the end of the last: the event's.
    assert cents_str(day_figures(first)["totals"]["chips_outstanding"]) == "30.00"
    event_totals = event_figures(event)["event_totals"]
    assert cents_str(day_figures(second)["totals"]["chips_outstanding"]) == event_totals["chips_outstanding"]
    assert event_totals["chips_outstanding"] != "30.00"


def test_the_nightly_close_shows_the_days_figures_above_the_signatures(client, cast):
    stock(cast)
    open_table(cast)
    services.fill(day=cast.day, table=cast.bj, chips={"5": 40}, signed=cast.signed(**FILL_SIGNED))
    assert client.login(username=cast.dric.user.username, password=PASSWORD)
    response = client.get(reverse("cage:day_close", args=[cast.event.slug]))
    html = response.content.decode()
    assert response.status_code == 200
    section = html[html.index('id="day-figures"') :]
    assert 'id="day-figures"' in html and "Summary" in section and "Win by table" in section
    # BJ-1 is still open: its opener and fill, no closer and no win yet.
    assert (
        '<td>BJ-1</td><td>Blackjack</td><td class="num">$500.00</td><td class="num">$200.00</td><td class="num">$0.00</td><td class="num"></td><td class="num"></td>'
        in section
    )
    assert reverse("reports:day", args=[cast.event.slug, cast.day.date.isoformat()]) in section
    # Above what stands in the way and the close's signatures.
    assert html.index('id="day-figures"') < html.index('id="close-problems"')


# --- 2 and 3. the daily sheets for the worked example -----------------------------------------------


def test_master_game_report_subtotals_per_game_and_the_days_total():
    data = day_sheets(example_day())
    assert rows(data, "master_game_report", drop=()) == [
        {"row": "line", "game": "Blackjack", "table": "BJ-1", "opener": "500.00", "fills": "200.00",
         "credits": "0.00", "closer": "820.00", "win": "120.00"},
        {"row": "line", "game": "Blackjack", "table": "BJ-2", "opener": "500.00", "fills": "0.00",
         "credits": "300.00", "closer": "350.00", "win": "150.00"},
        {"row": "subtotal", "game": "Blackjack subtotal", "table": "", "opener": "1000.00", "fills": "200.00",
         "credits": "300.00", "closer": "1170.00", "win": "270.00"},
        {"row": "line", "game": "Wheel of Fortune", "table": "WOF-1", "opener": "200.00", "fills": "100.00",
         "credits": "0.00", "closer": "180.00", "win": "-120.00"},
        {"row": "subtotal", "game": "Wheel of Fortune subtotal", "table": "", "opener": "200.00", "fills": "100.00",
         "credits": "0.00", "closer": "180.00", "win": "-120.00"},
        {"row": "total", "game": "Day's total", "table": "", "opener": "1200.00", "fills": "300.00",
         "credits": "300.00", "closer": "1350.00", "win": "150.00"},
    ]  # fmt: skip


def test_a_table_still_open_claims_no_closer_or_win_in_its_row_its_subtotal_or_the_days_total(cast):
    stock(cast)
    open_table(cast)  # BJ-1 opens with $500.00 and is still open
    bj2 = event_services.table_create(event=cast.event, code="BJ-2", game="blackjack")
    open_table(cast, table=bj2, chips={"5": 20})
    services.table_close(
        day=cast.day, table=bj2, chips={"5": 20}, signed=cast.signed(counted_by="dealer", verified_by="chip_cashier")
    )
    master = sheet(day_sheets(cast.day), "master_game_report")
    shown = [[text for text, _ in row["cells"]] for row in master.shown()]
    assert shown == [
        ["Blackjack", "BJ-1", "$500.00", "$0.00", "$0.00", "open", "open"],
        ["Blackjack", "BJ-2", "$100.00", "$0.00", "$0.00", "$100.00", "$0.00"],
        ["Blackjack subtotal", "", "$600.00", "$0.00", "$0.00", "open", "open"],
        ["Day's total", "", "$600.00", "$0.00", "$0.00", "open", "open"],
    ]
    # CSV and JSON leave the cells empty: nothing there to read as a figure.
    assert [(r["closer"], r["win"]) for r in master.plain()] == [("", ""), ("100.00", "0.00"), ("", ""), ("", "")]


def test_fill_and_credit_register_lists_the_void_and_the_serials():
    data = day_sheets(example_day())
    assert rows(data, "fill_credit_register") == [
        {"slip": "Fill 1", "time": "13:30", "table": "BJ-2", "runner": "Ron Gagnon", "chips": "40 × $5",
         "amount": "200.00", "state": "Voided", "void": "Void 1: slip written for BJ-2, chips went to BJ-1"},
        {"slip": "Fill 2", "time": "13:33", "table": "BJ-1", "runner": "Ron Gagnon", "chips": "40 × $5",
         "amount": "200.00", "state": "Complete", "void": ""},
        {"slip": "Fill 3", "time": "15:10", "table": "WOF-1", "runner": "Ron Gagnon", "chips": "100 × $1",
         "amount": "100.00", "state": "Complete", "void": ""},
        {"slip": "Credit 1", "time": "17:45", "table": "BJ-2", "runner": "Rita Okafor", "chips": "60 × $5",
         "amount": "300.00", "state": "Complete", "void": ""},
    ]  # fmt: skip
    assert sheet(data, "fill_credit_register").notes == [
        "Fill serials of this day: 1–3.",
        "Fill serials issued in the event up to this day: 1–3, none missing.",
        "Credit serials of this day: 1.",
        "Credit serials issued in the event up to this day: 1, none missing.",
    ]


def test_a_fill_in_transit_is_shown_so(cast):
    stock(cast)
    open_table(cast)
    signed = cast.signed(issued_by="chip_cashier", carried_by="runner")
    services.fill(day=cast.day, table=cast.bj, chips={"5": 4}, signed=signed, allow_pending=True)
    data = day_sheets(cast.day)
    [row] = rows(data, "fill_credit_register")
    assert (row["slip"], row["state"], row["amount"]) == ("Fill 1", "In transit", "20.00")
    [runner] = [r for r in rows(data, "runner_reconciliation") if r["runner"] == cast.runner.name]
    assert runner["holding_chips"] == "20.00"


def test_variance_tips_runners_cage_and_staffing_sheets():
    data = day_sheets(example_day())
    assert rows(data, "variances") == [
        {"slip": "Count 2", "time": "23:50", "place": "chip bank", "chips_or_cash": "$1 chips", "amount": "-2.00",
         "reason": "two $1 chips missing", "details": "", "opener_check": ""}
    ]  # fmt: skip
    tips = rows(data, "tip_distribution")
    shares = [(r["dealer"], r["hours"], r["amount"]) for r in tips if r["slip"] == "Tip payout 1"]
    worked = [
        (n, s["hours"], s["amount"])
        for n, s in zip(("Dana Kowalski", "Dev Patel", "Del Martin"), REPORT["tip_shares"], strict=True)
    ]
    assert shares[:3] == worked
    assert shares[3] == ("paid out", "10", "40.00")
    assert tips[-1]["signed"] == "Paid by: Gus Tremblay; Verified by: Cora Singh; Authorized by: Ann Leblanc"
    assert {r["runner"]: r for r in rows(data, "runner_reconciliation")}["Rita Okafor"] == {
        "runner": "Rita Okafor",
        "opening": "0.00",
        "issued": "400.00",
        "sold": "300.00",
        "cash_taken": "300.00",
        "returned": "400.00",
        "carried": "1",
        "holding_chips": "0.00",
        "holding_cash": "0.00",
    }
    assert {r["runner"]: r for r in rows(data, "runner_reconciliation")}["Ron Gagnon"]["carried"] == "2"  # fmt: skip
    cage = {(r["place"], r["line"]): r["amount"] for r in rows(data, "cage_accountability")}
    assert cage[("bank cash", "Expected")] == "180.00" and cage[("bank cash", "Counted (Count 1)")] == "180.00"
    assert cage[("bank cash", "Over/short")] == "0.00" and cage[("bank cash", "Deposit")] == "-1000.00"
    assert cage[("chip bank", "Expected")] == "3820.00" and cage[("chip bank", "Counted (Count 2)")] == "3818.00"
    assert cage[("chip bank", "Over/short")] == REPORT["days"][0]["chip_over_short"]
    # Voided Fill 1 and its void leave the chip bank's fills at the two that stand.
    assert cage[("chip bank", "Fill")] == "-300.00"
    staffing = [(r["position"], r["person"]) for r in rows(data, "staffing")]
    assert staffing == [("DRIC", "Ann Leblanc"), ("General Cashier", "Gus Tremblay"), ("Chip Cashier", "Cora Singh")]


def test_staffing_reads_the_roster(cast):
    local = timezone.get_current_timezone()
    start = datetime.datetime(2026, 9, 11, 11, 0, tzinfo=local)
    event_services.shift_add(
        day=cast.day, person=cast.dric, role=Role.DRIC, starts_at=start, ends_at=start + datetime.timedelta(hours=6)
    )
    data = day_sheets(cast.day)
    assert rows(data, "staffing")[0] == {
        "position": "DRIC", "person": cast.dric.name, "from": "11:00", "until": "17:00", "source": "roster"
    }  # fmt: skip


# --- page, CSV, PDF, roles, queries, command -----------------------------------------------------


@pytest.fixture
def example(db):
    event = import_records(copy.deepcopy(EXAMPLE))
    people = {p.code: p for p in event.people.all()}
    for code in ("ann", "rita", "dana"):
        give_login(people[code], code)
    return event


def test_the_day_page_shows_every_sheet_and_is_linked_from_the_report(client, example):
    client.login(username="ann", password=PASSWORD)
    url = reverse("reports:day", args=[SLUG, DATE])
    assert url in client.get(reverse("reports:event", args=[SLUG])).content.decode()
    html = client.get(url).content.decode()
    for key in ("master_game_report", "fill_credit_register", "variances", "tip_distribution",
                "runner_reconciliation", "cage_accountability", "staffing"):  # fmt: skip
        assert f'id="sheet-{key}"' in html
    assert "$1,350.00" in html and "Void 1: slip written for BJ-2, chips went to BJ-1" in html
    assert client.get(reverse("reports:day", args=[SLUG, "2026-09-12"])).status_code == 404


@pytest.mark.parametrize("who", ["rita", "dana"])
def test_runners_and_dealers_are_refused(client, example, who):
    client.login(username=who, password=PASSWORD)
    url = reverse("reports:day", args=[SLUG, DATE])
    for query in ("", "?format=csv", "?format=pdf"):
        assert client.get(url + query).status_code == 403


def test_csv_of_one_sheet_and_of_every_sheet(client, example):
    client.login(username="ann", password=PASSWORD)
    url = reverse("reports:day", args=[SLUG, DATE])
    response = client.get(url + "?format=csv&sheet=master_game_report")
    assert response["Content-Type"] == "text/csv"
    lines = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert lines[-1] == {"row": "total", "game": "Day's total", "table": "", "opener": "1200.00", "fills": "300.00",
                         "credits": "300.00", "closer": "1350.00", "win": "150.00"}  # fmt: skip
    everything = list(csv.DictReader(io.StringIO(client.get(url + "?format=csv").content.decode())))
    assert {
        "date": DATE,
        "sheet": "totals",
        "line": "1",
        "row": "line",
        "column": "amount",
        "value": "150.00",
    } in everything
    assert {"date": DATE, "sheet": "staffing", "line": "1", "row": "line", "column": "person",
            "value": "Ann Leblanc"} in everything  # fmt: skip


def test_the_sheets_csv_gives_the_closes_signatures_as_the_pdf_does(client, example):
    """The example's day is closed: the CSV names each capacity's signer and time, as the PDF does."""
    client.login(username="ann", password=PASSWORD)
    rows = list(
        csv.DictReader(
            io.StringIO(client.get(reverse("reports:day", args=[SLUG, DATE]) + "?format=csv").content.decode())
        )
    )
    signed = {(r["line"], r["column"]): r["value"] for r in rows if r["sheet"] == "sign_off"}
    close = Slip.objects.get(slip_type="close_day")
    signatures = {s.capacity: s for s in close.signatures.select_related("person")}
    for line, (capacity, label, role) in enumerate(
        (("prepared_by", "Prepared by", "General Cashier"), ("verified_by", "Verified by", "Chip Cashier"),
         ("approved_by", "Approved by", "DRIC")), start=1):  # fmt: skip
        signature = signatures[capacity]
        assert signed[(str(line), "capacity")] == label and signed[(str(line), "role")] == role
        assert signed[(str(line), "name")] == signature.person.name
        assert signed[(str(line), "signed_at")] == timezone.localtime(signature.signed_at).isoformat()
        assert signed[(str(line), "slip")] == close.number
    assert len(signed) == 15  # three capacities, five columns each


def test_the_pdf_reads_back_with_every_sheet(client, example, tmp_path, poppler):  # noqa: F811
    client.login(username="ann", password=PASSWORD)
    response = client.get(reverse("reports:day", args=[SLUG, DATE]) + "?format=pdf")
    assert response["Content-Type"] == "application/pdf"
    pdf = tmp_path / "day.pdf"
    pdf.write_bytes(response.content)
    text = pdf_text(pdf)
    lines = {" ".join(line.split()) for line in text.splitlines()}
    for title in ("Master game report", "Fill and credit register", "Variance report", "Tip distribution",
                  "Runner reconciliation", "Cage accountability", "Staffing"):  # fmt: skip
        assert title in lines
    assert "Day's total $1,200.00 $300.00 $300.00 $1,350.00 $150.00" in lines
    assert "Chips outstanding at the end of the day $30.00" in lines
    assert "Tip payout 1 23:30 Dana Kowalski 4 $16.00" in lines
    # The example's day is closed: its sheets print who prepared, verified and approved it, and when.
    signed = {s.capacity: s for s in Slip.objects.get(slip_type="close_day").signatures.select_related("person")}
    for capacity, label, role in (
        ("prepared_by", "Prepared by", "General Cashier"),
        ("verified_by", "Verified by", "Chip Cashier"),
        ("approved_by", "Approved by", "DRIC"),
    ):
        at = f"{timezone.localtime(signed[capacity].signed_at):%Y-%m-%d %H:%M}"
        assert f"{label} {role} {signed[capacity].person.name} {at} signed in the app" in lines
    assert "Signed in the app when the day closed (Day close 1)." in lines
    assert "Signature:" not in text


def test_every_page_of_the_pdf_says_the_event_the_gaming_day_and_page_n_of_m(client, example, tmp_path, poppler):  # noqa: F811
    client.login(username="ann", password=PASSWORD)
    pdf = tmp_path / "day.pdf"
    pdf.write_bytes(client.get(reverse("reports:day", args=[SLUG, DATE]) + "?format=pdf").content)
    info = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True, text=True).stdout
    pages = int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))
    assert pages >= 3
    event = example.name
    for number in range(1, pages + 1):
        page = subprocess.run(
            ["pdftotext", "-layout", "-f", str(number), "-l", str(number), str(pdf), "-"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        text = " ".join(page.split())
        assert f"{event}, gaming day 2026-09-11; generated " in text, number
        assert f"page {number} of {pages}" in text, number


def test_the_sheets_leave_the_signature_lines_blank_until_the_day_closes_then_print_who_signed(
    cast,
    tmp_path,
    poppler,  # noqa: F811
):
    pdf = tmp_path / "open.pdf"
    pdf.write_bytes(sheets_pdf(day_sheets(cast.day)))
    lines = [" ".join(line.split()) for line in pdf_text(pdf).splitlines()]
    for line in ("Prepared by General Cashier", "Verified by Chip Cashier", "Approved by DRIC"):
        assert line in lines  # the capacity and its role, then room for a pen
    assert "The day is not closed: nobody has signed it in the app yet." in lines
    assert "signed in the app" not in " ".join(lines)
    pictures(pdf, "day-sheets-unsigned")
    # The CSV too: each capacity, with no name nor time yet.
    unsigned = [r for r in csv.DictReader(io.StringIO(sheets_csv(day_sheets(cast.day)))) if r["sheet"] == "sign_off"]
    assert [(r["column"], r["value"]) for r in unsigned if r["line"] == "3"] == [
        ("capacity", "Approved by"), ("role", "DRIC"), ("name", ""), ("signed_at", ""), ("slip", "")]  # fmt: skip

    close = close_clean_day(cast)
    pdf = tmp_path / "closed.pdf"
    pdf.write_bytes(sheets_pdf(day_sheets(cast.day)))
    lines = [" ".join(line.split()) for line in pdf_text(pdf).splitlines()]
    at = {s.capacity: f"{timezone.localtime(s.signed_at):%Y-%m-%d %H:%M}" for s in close.signatures.all()}
    assert f"Prepared by General Cashier {cast.general_cashier.name} {at['prepared_by']} signed in the app" in lines
    assert f"Verified by Chip Cashier {cast.chip_cashier.name} {at['verified_by']} signed in the app" in lines
    assert f"Approved by DRIC {cast.dric.name} {at['approved_by']} signed in the app" in lines
    assert f"Signed in the app when the day closed ({close.number})." in lines
    pictures(pdf, "day-sheets-signed")


def test_the_day_report_command_loads_in_a_fresh_interpreter():
    """`manage.py day_report` reaches cage.selectors.openers before cage.services, which imports it
    back: it must load on its own, not only after another module has loaded cage.services."""
    code = (
        "import django; django.setup(); from django.core.management import load_command_class; "
        "load_command_class('reports', 'day_report')"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_for_tests"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def _queries(day) -> int:
    with CaptureQueriesContext(connection) as ctx:
        day_sheets(day)
    return len(ctx.captured_queries)


def test_a_fixed_number_of_queries_whatever_the_size_of_the_day(cast):
    stock(cast)
    open_table(cast)
    services.fill(day=cast.day, table=cast.bj, chips={"5": 4}, signed=cast.signed(**FILL_SIGNED))
    few = _queries(cast.day)
    for _ in range(6):
        services.fill(day=cast.day, table=cast.bj, chips={"5": 4}, signed=cast.signed(**FILL_SIGNED))
    open_table(cast, cast.wheel, {"1": 50})
    assert _queries(cast.day) == few
    with CaptureQueriesContext(connection) as ctx:
        day_figures(cast.day)
    assert len(ctx.captured_queries) < few


def test_the_command_writes_each_format(example, tmp_path, poppler):  # noqa: F811
    for fmt in ("pdf", "csv", "json"):
        out = tmp_path / f"day.{fmt}"
        call_command("day_report", SLUG, DATE, "--format", fmt, "--out", str(out))
        assert out.stat().st_size > 0
    assert "Master game report" in pdf_text(tmp_path / "day.pdf")
    assert "2026-09-11,master_game_report,6,total,win,150.00" in (tmp_path / "day.csv").read_text()
    data = json.loads((tmp_path / "day.json").read_text())
    assert data["figures"]["win"] == "150.00" and data["figures"]["chips_outstanding"] == "30.00"
    assert data["sheets"]["variances"][0]["amount"] == "-2.00"
    assert sheets_json(day_sheets(example.days.get()))["sheets"] == data["sheets"]
    assert sheet_csv(sheet(day_sheets(example.days.get()), "staffing")).startswith(
        "row,position,person,from,until,source"
    )
