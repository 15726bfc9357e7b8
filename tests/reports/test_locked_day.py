"""A closed day reads the same whenever it is printed: its sheets (page data, PDF, CSV), its slips,
its close slip and its part of the event report depend only on that day and the days before it.
Day one is printed, day two is recorded (fills, a credit, a sale), and day one is printed again:
nothing but the time of printing may change. The seal is printed beside the signatures."""

import datetime
import re
import subprocess
import tempfile

import pytest

from cage import services
from cage.models import DaySeal, Slip, SlipType
from cage.selectors.slip_sheet import slip_sheet
from cage.slip_pdf import render_slip_pdf
from core import chain
from events import services as event_services
from reports.daily import day_sheets
from reports.daily_exports import sheets_csv, sheets_pdf
from reports.exports import figures_pdf
from reports.figures import event_figures
from tests.cage.helpers import CREDIT_SIGNED, FILL_SIGNED, SALE_SIGNED, count_bank_and_close, stock
from tests.reports.test_exports import poppler  # noqa: F401  (a fixture: skips, or fails, without pdftotext)

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]
OPENER = {"counted_by": "dealer", "verified_by": "chip_cashier"}
TRAY = {"1": 100, "5": 80}
AFTER_FILLS = {"1": 100, "5": 100}


def day_one_closed(cast):
    """BJ-1 opened, filled twice and closed; the bank counted; the day closed."""
    stock(cast, chips={"1": 400, "5": 200, "25": 40}, cash=10_000)
    services.table_issue(
        day=cast.day, table=cast.bj, chips=TRAY, signed=cast.signed(issued_by="chip_cashier", received_by="dealer")
    )
    services.table_open(day=cast.day, table=cast.bj, chips=TRAY, signed=cast.signed(**OPENER))
    for _ in range(2):
        services.fill(day=cast.day, table=cast.bj, chips={"5": 10}, signed=cast.signed(**FILL_SIGNED))
    services.table_close(day=cast.day, table=cast.bj, chips=AFTER_FILLS, signed=cast.signed(**OPENER))
    return count_bank_and_close(cast, cash=10_000, chips={"1": 300, "5": 100, "25": 40})


def day_two_at_work(cast):
    day2 = event_services.day_open(
        day=event_services.day_add(event=cast.event, date=cast.day.date + datetime.timedelta(days=1))
    )
    services.table_open(day=day2, table=cast.bj, chips=AFTER_FILLS, signed=cast.signed(**OPENER))
    for _ in range(3):
        services.fill(day=day2, table=cast.bj, chips={"5": 4}, signed=cast.signed(**FILL_SIGNED))
    services.credit(day=day2, table=cast.bj, chips={"5": 2}, signed=cast.signed(**CREDIT_SIGNED))
    services.sale(day=day2, chips={"1": 5}, cash=500, signed=cast.signed(**SALE_SIGNED))
    return day2


def pdf_text(pdf: bytes) -> str:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as file:
        file.write(pdf)
        file.flush()
        text = subprocess.run(
            ["pdftotext", "-layout", file.name, "-"], check=True, capture_output=True, text=True
        ).stdout
    # The time of printing is the one thing that changes.
    return re.sub(r"(generated|Generated|printed) [^\n;·]*", r"\1 (time)", text)


def printed(cast) -> dict:
    day = cast.day
    day.refresh_from_db()
    sheets = day_sheets(day)
    close = Slip.objects.get(day=day, slip_type=SlipType.CLOSE_DAY)
    fill = Slip.objects.get(day=day, slip_type=SlipType.FILL, serial=2)
    figures = event_figures(cast.event)
    return {
        "csv": sheets_csv(sheets),
        "pdf": pdf_text(sheets_pdf(sheets)),
        "close slip": pdf_text(render_slip_pdf(slip_sheet(close))),
        "fill slip": pdf_text(render_slip_pdf(slip_sheet(fill))),
        "report's day": [d for d in figures["days"] if d["date"] == day.date.isoformat()],
    }


@pytest.mark.usefixtures("poppler")
def test_a_closed_day_prints_the_same_after_later_days_are_recorded(cast):
    day_one_closed(cast)
    before = printed(cast)
    day_two_at_work(cast)
    after = printed(cast)
    for what in before:
        assert after[what] == before[what], what
    assert "Fill serials of this day: 1–2." in before["pdf"]
    assert "Fill serials issued in the event up to this day: 1–2, none missing." in before["pdf"]


@pytest.mark.usefixtures("poppler")
def test_the_seal_is_printed_on_the_days_sheets_and_its_close_slip(cast):
    day_one_closed(cast)
    seal = DaySeal.objects.get(day=cast.day)
    grouped = chain.grouped(seal.digest)
    out = printed(cast)
    assert seal.digest in out["csv"]
    for what in ("pdf", "close slip"):
        assert grouped in out[what], what


@pytest.mark.usefixtures("poppler")
def test_the_financial_report_prints_one_seal_line_per_day(cast):
    day_one_closed(cast)
    day_two_at_work(cast)
    seal = DaySeal.objects.get(day=cast.day)
    text = pdf_text(figures_pdf(cast.event, event_figures(cast.event), []))
    section = text[text.index("Seals of the gaming days") :]
    assert chain.grouped(seal.digest) in section
    assert "not sealed: the day is not closed" in section


def test_the_close_slips_page_and_the_days_page_show_the_figures_and_the_seal(cast, client):
    from django.urls import reverse

    from tests.conftest import PASSWORD

    close = day_one_closed(cast)
    seal = chain.grouped(DaySeal.objects.get(day=cast.day).digest)
    client.login(username=cast.dric.user.username, password=PASSWORD)
    page = client.get(reverse("cage:slip", args=[cast.event.slug, close.pk])).content.decode()
    assert "The day's figures" in page and "Win by table" in page and seal in page
    assert "Slip total" not in page and 'id="slip-total"' not in page
    day_page = client.get(reverse("reports:day", args=[cast.event.slug, "2026-09-11"])).content.decode()
    assert 'id="day-seal"' in day_page and seal in day_page


def test_a_closed_days_page_shows_the_same_sheets_after_later_days(cast, client):
    """The page's sheets and seal read the same; only its navigation grows a link to the new day."""
    from django.urls import reverse

    from tests.conftest import PASSWORD

    day_one_closed(cast)
    client.login(username=cast.dric.user.username, password=PASSWORD)
    url = reverse("reports:day", args=[cast.event.slug, "2026-09-11"])

    def sheets() -> list[str]:
        page = client.get(url).content.decode()
        return re.findall(r'<section class="day-sheet".*?</section>', page, re.S)

    before = sheets()
    day_two_at_work(cast)
    assert sheets() == before and len(before) > 5
