"""The financial report (T&C 2.7) as the PDF the designated persons sign, read back with poppler."""

import copy
import datetime
import subprocess

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from cage.importer import import_records
from cage.services import day as day_services
from cage.services import slips as slip_services
from events import services as event_services
from reports.figures import event_figures
from reports.models import ReportSignature
from reports.services import figures_digest, report_sign
from tests.conftest import DAY, PASSWORD, give_login, make_cast
from tests.refusals import refuses
from tests.reports.test_exports import poppler  # noqa: F401  (the fixture that skips without poppler-utils)
from tests.reports.test_figures import EXAMPLE

pytestmark = pytest.mark.django_db
SLUG = "lakeside-fair-2026"


def pdf_pages(path) -> list[str]:
    """The PDF's text page by page, each line with its runs of spaces made one."""
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True).stdout
    pages = [page for page in text.split("\f") if page.strip()]
    return ["\n".join(" ".join(line.split()) for line in page.splitlines()) for page in pages]


def render(slug, tmp_path, name="report.pdf") -> list[str]:
    pdf = tmp_path / name
    call_command("event_report", slug, "--format", "pdf", "--out", str(pdf))
    return pdf_pages(pdf)


def lines_of(pages) -> set[str]:
    return {line for page in pages for line in page.splitlines()}


def local(signature) -> str:
    """The date and time of a signature as the report prints it, in the event's time zone."""
    return timezone.localtime(signature.signed_at).strftime("%Y-%m-%d %H:%M")


def example():
    event = import_records(copy.deepcopy(EXAMPLE))
    for code in ("ann", "gus", "cora", "rita"):
        give_login(event.people.get(code=code), code)
    return event


def sign_as(client, username, slug=SLUG):
    client.logout()
    assert client.login(username=username, password=PASSWORD)
    return client.post(reverse("reports:event_sign", args=[slug]), follow=True)


def test_the_worked_example_reads_back_section_by_section_with_every_figure(tmp_path, poppler):  # noqa: F811
    example()
    pages = render(SLUG, tmp_path)
    text = "\n".join(pages)
    lines = lines_of(pages)
    # the sections, in order
    order = [
        "A. Licensee and event",
        "B. Results",
        "C. Expenses (paid from the licensee's trust account)",
        "D. Net proceeds and the trust account",
        "E. Certification",
    ]
    positions = [text.index(heading) for heading in order]
    assert positions == sorted(positions)
    # (A)
    for line in (
        "Licensee Lakeside Agricultural Society",
        "Licence number F-2026-0117, issued by Alcohol and Gaming Commission of Ontario",
        "Event Lakeside Fall Fair Casino",
        "Venue Lakeside Fairgrounds, Hall B",
        "Gaming days 2026-09-11",
        "Registered supplier Northern Gaming Supply Ltd.",
        "Designated Representative in Charge Ann Leblanc",
        "General Cashier Gus Tremblay",
        "Chip Cashier Cora Singh",
    ):
        assert line in lines, line
    # (B) by table, by game, by day and for the event; chips; tips; over/short
    assert "2026-09-11 BJ-1 Blackjack $500.00 $200.00 $0.00 $820.00 $120.00" in lines
    assert "2026-09-11 BJ-2 Blackjack $500.00 $0.00 $300.00 $350.00 $150.00" in lines
    assert "2026-09-11 WOF-1 Wheel of Fortune $200.00 $100.00 $0.00 $180.00 -$120.00" in lines
    assert "2026-09-11 Blackjack $270.00" in lines and "Event Wheel of Fortune -$120.00" in lines
    assert "2026-09-11 $150.00 $2,000.00 $1,780.00 $40.00 $0.00 -$2.00" in lines
    assert "Event $150.00 $2,000.00 $1,780.00 $40.00 $0.00 -$2.00" in lines
    assert "Chip sales $2,000.00" in lines and "Redemptions $1,780.00" in lines
    assert "Chips outstanding (sold, never redeemed) $30.00" in lines
    assert "Tips pooled $40.00" in lines and "Tips paid to dealers $40.00" in lines
    assert "Tips belong to the dealers: they are not revenue and are not part of the net proceeds." in lines
    assert "2026-09-11 Dana Kowalski 4 $16.00" in lines and "2026-09-11 Del Martin 2 $8.00" in lines
    assert "Cash over/short $0.00" in lines and "Chip over/short -$2.00" in lines
    assert "2026-09-11 chip bank $1 chips -$2.00 two $1 chips missing" in lines
    # (C) expenses by category with their invoices
    assert "Supplier equipment 2026-09-11 Table and wheel rental, one day NGS-5531 $60.00" in lines
    assert "Licence fee 2026-09-11 Licence fee LIC-0117 $25.00" in lines
    assert "Expenses, total $85.00" in lines
    # (D) net proceeds, the deposits, the reconciliation and its difference in words
    assert "less expenses -$85.00" in lines and "Net proceeds $95.00" in lines
    assert "2026-09-11 Deposit 1 $1,000.00" in lines and "Deposit 1 not yet confirmed" in lines
    assert "Trust account: not named yet." in lines
    assert "Deposits to the trust account $1,000.00" in lines
    assert "less floats drawn from the trust account -$1,000.00" in lines
    assert "Net to the trust account -$85.00" in lines
    assert "Difference (net proceeds - net to the trust account) $180.00" in lines
    assert "The deposits fall short of the net proceeds by $180.00: $180.00 is cash still held at the cage" in text
    # (E) every day is closed: a certification, nobody has signed yet: blank lines
    assert "DRAFT" not in text
    assert any(line.startswith("Chip Cashier Cora Singh ________________") for line in lines)
    # no codes or usernames where people read
    assert "wheel_of_fortune" not in text and "chip_bank" not in text and "supplier_equipment" not in text
    # page numbers and the generation time on every page
    for number, page in enumerate(pages, start=1):
        assert f"page {number} of {len(pages)}" in page
        assert "Generated " in page


def test_a_page_looks_like_a_report(tmp_path, poppler):  # noqa: F811
    example()
    pdf = tmp_path / "report.pdf"
    call_command("event_report", SLUG, "--format", "pdf", "--out", str(pdf))
    subprocess.run(["pdftoppm", "-png", "-r", "50", "-f", "1", "-l", "1", str(pdf), str(tmp_path / "page")], check=True)
    png = next(tmp_path.glob("page-*1.png"))
    assert png.read_bytes().startswith(b"\x89PNG") and png.stat().st_size > 10_000


def test_while_a_day_is_open_every_page_says_draft_and_nobody_certifies(tmp_path, poppler, client):  # noqa: F811
    cast = make_cast()
    pages = render(cast.event.slug, tmp_path)
    assert len(pages) >= 2
    for page in pages:
        assert "DRAFT" in page
    text = "\n".join(pages)
    assert "gaming days still open: 2026-09-11" in text
    assert "E. Certification" not in text and "certify" not in text
    assert "This draft carries no certification" in text
    # nobody signs a draft: not in the service, not on the page
    with refuses("report.draft"):
        report_sign(event=cast.event, person=cast.dric)
    assert client.login(username="lakeside-dric", password=PASSWORD)
    page = client.get(reverse("reports:event", args=["lakeside"])).content.decode()
    assert "DRAFT" in page and "Sign the financial report" not in page
    response = client.post(reverse("reports:event_sign", args=["lakeside"]), follow=True)
    assert "draft until every gaming day is closed" in response.content.decode()
    assert not ReportSignature.objects.exists()


def test_each_designated_person_signs_from_their_own_session(tmp_path, poppler, client):  # noqa: F811
    example()
    page = sign_as(client, "ann").content.decode()
    assert "Ann Leblanc signed the financial report as DRIC." in page
    pages = render(SLUG, tmp_path, "one.pdf")
    lines = lines_of(pages)
    ann = ReportSignature.objects.get(person__code="ann")
    assert ann.role == "dric" and ann.figures_digest == figures_digest(event_figures(ann.event))
    assert any(line.startswith(f"Designated Representative in Charge Ann Leblanc {local(ann)}") for line in lines)
    assert any(line.startswith("General Cashier Gus Tremblay ________________") for line in lines)
    assert "Sign the financial report" not in page  # she has signed
    # twice: refused
    again = sign_as(client, "ann").content.decode()
    assert "Ann Leblanc already signed the financial report on" in again and "(T&amp;C 2.7)" in again
    assert ReportSignature.objects.count() == 1
    # the General Cashier sees the button on the page and signs, then the Chip Cashier
    client.logout()
    assert client.login(username="gus", password=PASSWORD)
    assert "Sign the financial report" in client.get(reverse("reports:event", args=[SLUG])).content.decode()
    sign_as(client, "gus")
    sign_as(client, "cora")
    pages = render(SLUG, tmp_path, "three.pdf")
    lines = lines_of(pages)
    for title, code, name in (
        ("Designated Representative in Charge", "ann", "Ann Leblanc"),
        ("General Cashier", "gus", "Gus Tremblay"),
        ("Chip Cashier", "cora", "Cora Singh"),
    ):
        signature = ReportSignature.objects.get(person__code=code)
        assert any(line.startswith(f"{title} {name} {local(signature)}") for line in lines), title
    assert "________________" not in "\n".join(pages)
    assert (
        "Certified by the three designated persons."
        in client.get(reverse("reports:event", args=[SLUG])).content.decode()
    )


def test_only_the_three_designated_persons_sign(client):
    event = example()
    # a runner: refused by the rule
    with refuses("report.not_designated"):
        report_sign(event=event, person=event.people.get(code="rita"))
    # a designated person of another event signs nothing here
    other = make_cast("other-fair")
    with refuses("report.not_designated"):
        report_sign(event=event, person=other.dric)
    # an auditor's session may read the report but not sign it
    auditor = event_services.person_add(event=event, code="aud", name="Audrey Roy", born_on=datetime.date(1970, 1, 1))
    event_services.role_assign(person=auditor, role="auditor", by=None)
    give_login(auditor, "audrey")
    assert client.login(username="audrey", password=PASSWORD)
    assert client.get(reverse("reports:event", args=[SLUG])).status_code == 200
    assert client.post(reverse("reports:event_sign", args=[SLUG])).status_code == 403
    assert not ReportSignature.objects.exists()


def test_figures_that_change_after_signing_are_named_on_the_report(tmp_path, poppler, client):  # noqa: F811
    cast = make_cast()
    close = {"prepared_by": cast.general_cashier, "verified_by": cast.chip_cashier, "approved_by": cast.dric}
    day_services.close_day(day=cast.day, signed=close)
    report_sign(event=cast.event, person=cast.dric)
    assert "changed after the report was signed" not in "\n".join(render("lakeside", tmp_path, "before.pdf"))
    # a second gaming day, with an expense paid from the trust account
    day2 = event_services.day_open(day=event_services.day_add(event=cast.event, date=DAY + datetime.timedelta(days=1)))
    slip_services.expense(
        day=day2,
        category="bank_charges",
        description="Deposit bag fee",
        cash=1250,
        invoice="BNK-77",
        signed={"approved_by": cast.dric},
    )
    pages = render("lakeside", tmp_path, "open.pdf")
    assert all("DRAFT" in page for page in pages)
    day_services.close_day(day=day2, signed=close)
    pages = render("lakeside", tmp_path, "after.pdf")
    text = "\n".join(pages)
    assert "DRAFT" not in text
    assert "The figures changed after the report was signed by Dric (DRIC, " in text.replace("\n", " ")
    assert "Bank charges 2026-09-12 Deposit bag fee BNK-77 $12.50" in lines_of(pages)
    assert "Gaming days 2026-09-11, 2026-09-12" in lines_of(pages)
    # the page says it too, and the DRIC may sign the new figures
    assert client.login(username="lakeside-dric", password=PASSWORD)
    page = client.get(reverse("reports:event", args=["lakeside"])).content.decode()
    assert "changed after the report was signed" in page and "Sign the financial report" in page
    client.post(reverse("reports:event_sign", args=["lakeside"]))
    assert ReportSignature.objects.filter(person=cast.dric).count() == 2
    assert "changed after the report was signed" not in "\n".join(render("lakeside", tmp_path, "resigned.pdf"))


def test_the_report_page_and_the_json_stay_as_they_were(client, tmp_path, poppler):  # noqa: F811
    event = example()
    before = event_figures(event)
    sign_as(client, "ann")
    assert event_figures(event) == before
    response = client.get(reverse("reports:event_json", args=[SLUG]))
    assert response.json() == before and "signature" not in response.content.decode()
    pdf = client.get(reverse("reports:event_pdf", args=[SLUG]))
    assert pdf["Content-Type"] == "application/pdf"
    (tmp_path / "r.pdf").write_bytes(pdf.content)
    assert "Net proceeds $95.00" in lines_of(pdf_pages(tmp_path / "r.pdf"))
    # a GET writes nothing
    assert client.get(reverse("reports:event_sign", args=[SLUG])).status_code == 405
    assert ReportSignature.objects.count() == 1
