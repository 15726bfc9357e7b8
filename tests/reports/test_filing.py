"""The financial report's due date and its filing (reports.filing, events.report_due; T&C 2.7):
filed only once certified by the three designated persons, with the trust account named and every
deposit confirmed by its bank slip; the event's page reminds as the date nears."""

import copy
import datetime
import json

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from cage.importer import import_records
from cage.models import Slip
from cage.services.bank_slips import bank_slip_check, bank_slip_enter
from cage.services.cheques import cheque_enter, disbursement_enter
from events.models import ApprovedPurpose, Event
from events.proceeds import purpose_add
from events.report_due import report_due_set
from events.trust_account import trust_account_set
from reports.filing import filing, reminder, report_file
from reports.models import ReportFiling
from reports.services import figures_digest, report_sign, report_state
from tests.conftest import PASSWORD, give_login
from tests.refusals import refuses
from tests.reports.test_exports import poppler  # noqa: F401  (the fixture that skips without poppler-utils)
from tests.reports.test_figures import EXAMPLE
from tests.reports.test_financial_report import SLUG, lines_of, render

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()
NOON = timezone.make_aware(datetime.datetime.combine(TODAY, datetime.time(12)))


@pytest.fixture(autouse=True)
def noon_today(monkeypatch):
    """The clock reads noon of TODAY throughout: the module reads its date once, as it is collected,
    and a run that straddled midnight would otherwise certify and file on dates a day apart."""
    monkeypatch.setattr(timezone, "now", lambda: NOON)


def example():
    """The worked example, its cage left with no cash: the $180 its bank counted at the close went
    to the trust account with the night's deposit (a report is filed once every dollar is deposited)."""
    data = copy.deepcopy(EXAMPLE)
    records = data["days"][0]["records"]
    next(r for r in records if r["type"] == "deposit")["cash"] = "1180.00"
    next(r for r in records if r["type"] == "count" and r["account"] == "bank_cash")["cash"] = "0.00"
    event = import_records(data)
    for code in ("ann", "gus", "cora", "rita"):
        give_login(event.people.get(code=code), code)
    return event


def people(event):
    return {code: event.people.get(code=code) for code in ("ann", "gus", "cora", "rita")}


def certify(event):
    for code in ("ann", "gus", "cora"):
        report_sign(event=event, person=event.people.get(code=code))


def confirm_the_deposit(event):
    trust_account_set(
        event=event, bank="Caisse Desjardins", branch="Lakeside", last_four="4821", opening_balance=500_000
    )
    purpose_add(event=event, name="Lakeside Food Bank")
    deposit = Slip.objects.get(event=event, slip_type="deposit")
    entered = bank_slip_enter(
        deposit=deposit, number="TD-558812", stamped_on=datetime.date(2026, 9, 12), person=people(event)["gus"]
    )
    bank_slip_check(bank_slip=entered, person=people(event)["ann"])
    for number, expense in enumerate(Slip.objects.filter(event=event, slip_type="expense").order_by("pk"), 101):
        cheque_enter(
            expense=expense,
            number=str(number),
            written_on=datetime.date(2026, 9, 12),
            payee="Northern Gaming Supply Ltd." if number == 101 else "AGCO",
            person=people(event)["gus"],
        )


def state_of(event):
    event = Event.objects.get(pk=event.pk)
    return filing(event, report_state(event))


def test_the_report_is_filed_once_certified_with_every_deposit_confirmed():
    event = example()
    ann = people(event)["ann"]
    assert state_of(event).state == "signing"
    with refuses("filing.not_certified"):
        report_file(event=event, person=ann, filed_on=TODAY)
    certify(event)
    assert state_of(event).state == "certified"
    assert state_of(event).missing == [
        "the trust account is not named",
        "the trust account's opening balance is not entered",
        "no charitable purpose the licence approved is entered",
        "deposits not yet confirmed by their bank slips: Deposit 1",
        "expenses without the cheque that pays them: Expense 1, Expense 2",
    ]
    with refuses("filing.incomplete") as refused:
        report_file(event=event, person=ann, filed_on=TODAY)
    assert "the trust account is not named; the trust account's opening balance is not entered; no charitable " in str(
        refused.value
    )
    # The bank slip is part of the figures they certified: each signs again.
    confirm_the_deposit(event)
    assert state_of(event).state == "signing"
    certify(event)
    assert state_of(event).missing == []
    for person in (people(event)["rita"], None):
        with refuses("filing.not_designated"):
            report_file(event=event, person=person, filed_on=TODAY)
    for filed_on in (TODAY + datetime.timedelta(days=1), TODAY - datetime.timedelta(days=1)):
        with refuses("filing.date"):
            report_file(event=event, person=ann, filed_on=filed_on)
    assert not ReportFiling.objects.exists()
    report_file(event=event, person=people(event)["gus"], filed_on=TODAY)
    done = ReportFiling.objects.get(event=event)
    assert (done.filed_on, done.filed_by.code, done.figures_digest) == (TODAY, "gus", report_state(event).digest)
    assert state_of(event).state == "filed"
    with refuses("filing.already_filed"):
        report_file(event=event, person=ann, filed_on=TODAY)


def test_a_cheque_corrected_after_signing_calls_for_signing_again_and_none_is_corrected_once_filed(tmp_path, poppler):  # noqa: F811
    event = example()
    confirm_the_deposit(event)
    certify(event)
    gus = people(event)["gus"]
    expense = Slip.objects.filter(event=event, slip_type="expense").order_by("pk").first()
    # The cheque register is part of the figures signed: a corrected payee leaves them to sign again.
    cheque_enter(expense=expense, number="101", written_on=datetime.date(2026, 9, 12), payee="Northern", person=gus)
    state = report_state(Event.objects.get(pk=event.pk))
    assert state.stale and not state.certified
    certify(event)
    report_file(event=event, person=gus, filed_on=TODAY)
    digest = report_state(event).digest
    with refuses("filing.records_fixed") as refused:
        cheque_enter(expense=expense, number="999", written_on=TODAY, payee="Someone else", person=gus)
    assert "filed on " in str(
        refused.value
    ) and "no entry or correction is taken for the cheque of Expense 1 any more" in str(refused.value)
    deposit = Slip.objects.get(event=event, slip_type="deposit")
    with refuses("filing.records_fixed"):
        bank_slip_enter(deposit=deposit, number="TD-1", stamped_on=datetime.date(2026, 9, 12), person=gus)
    with refuses("filing.records_fixed") as refused:
        disbursement_enter(
            purpose=ApprovedPurpose.objects.get(event=event),
            number="3001",
            written_on=TODAY,
            payee="Food bank",
            amount=100,
            person=gus,
        )
    assert "no entry or correction is taken for a cheque for Lakeside Food Bank any more" in str(refused.value)
    with refuses("filing.records_fixed"):
        trust_account_set(event=event, bank="RBC", branch="Main", last_four="1111", by=people(event)["ann"])
    event = Event.objects.get(pk=event.pk)
    assert (event.trust_bank, expense.cheque.number, report_state(event).digest) == ("Caisse Desjardins", "101", digest)
    assert ReportFiling.objects.get(event=event).figures_digest == digest
    # The JSON says where the filing stands beside the figures, which it does not change.
    out = tmp_path / "report.json"
    call_command("event_report", SLUG, "--format", "json", "--out", str(out))
    report = json.loads(out.read_text())
    assert report.pop("filing") == {"state": "filed", "due_on": None, "filed_on": TODAY.isoformat(), "filed_by": "gus"}
    assert figures_digest(report) == digest
    lines = lines_of(render(SLUG, tmp_path))
    assert f"Filed with the licensing authority on {TODAY.isoformat()}, recorded by Gus Tremblay." in lines


def test_the_due_date_falls_after_the_event_and_the_event_page_reminds_as_it_nears(client):
    event = example()
    with refuses("filing.due_before_the_end"):
        report_due_set(event=event, due_on=event.last_day - datetime.timedelta(days=1))
    assert reminder(event) == ""
    report_due_set(event=event, due_on=TODAY + datetime.timedelta(days=30))
    assert reminder(event) == ""  # further than two weeks away
    report_due_set(event=event, due_on=TODAY + datetime.timedelta(days=10))
    assert reminder(event).startswith("The financial report is due on ") and "in 10 days" in reminder(event)
    assert "1 day late" in reminder(event, today=TODAY + datetime.timedelta(days=11))
    assert client.login(username="ann", password=PASSWORD)
    page = client.get(reverse("events:detail", args=[SLUG])).content.decode()
    assert 'id="report-reminder"' in page and "in 10 days, and is not filed yet." in page
    assert client.login(username="rita", password=PASSWORD)
    assert 'id="report-reminder"' not in client.get(reverse("events:detail", args=[SLUG])).content.decode()


def test_the_report_page_records_the_filing_and_refuses_in_words(client):
    event = example()
    confirm_the_deposit(event)
    certify(event)
    assert client.login(username="cora", password=PASSWORD)
    url = reverse("reports:event", args=[SLUG])
    page = client.get(url).content.decode()
    assert "Certified, not filed yet" in page and 'id="file-report"' in page
    assert 'id="report-due"' not in page  # the DRIC or the administrator sets the due date
    future = (TODAY + datetime.timedelta(days=3)).isoformat()
    refused = client.post(reverse("reports:report_file", args=[SLUG]), {"filed_on": future}, follow=True)
    text = refused.content.decode()
    assert f"{future} is not a filing date of this report: it is filed on or after the day it was certified" in text
    assert f'value="{future}"' in text  # the box keeps what was typed
    client.post(reverse("reports:report_file", args=[SLUG]), {"filed_on": TODAY.isoformat()})
    page = client.get(url).content.decode()
    assert f"Filed on {TODAY.isoformat()} by Cora Singh." in page and 'id="file-report"' not in page
    assert 'id="filed-late"' not in page  # no due date: never late
    # The trust account's page says its records stand as filed, and offers no form any more.
    client.logout()
    assert client.login(username="gus", password=PASSWORD)
    trust = client.get(reverse("reports:trust", args=[SLUG])).content.decode()
    assert 'id="trust-filed"' in trust and "<form" not in trust.split("</header>")[-1].split('id="language')[0]


def test_a_due_date_is_set_from_the_report_page_by_the_dric(client):
    example()
    assert client.login(username="ann", password=PASSWORD)
    due = reverse("reports:report_due", args=[SLUG])
    answer = client.post(due, {"report_due_on": "2026-09-01"})
    # Back at the page's top, where the refusal is said: never scrolled past it to the box.
    assert answer["Location"].endswith("?report_due_on=2026-09-01")
    refused = client.get(answer["Location"]).content.decode()
    assert "Not recorded: the financial report" in refused and "is before its last day" in refused
    assert 'value="2026-09-01"' in refused and Event.objects.get(slug=SLUG).report_due_on is None
    client.post(due, {"report_due_on": "2026-10-11"})
    assert Event.objects.get(slug=SLUG).report_due_on == datetime.date(2026, 10, 11)
    assert "due on 2026-10-11" in client.get(reverse("reports:event", args=[SLUG])).content.decode()


def test_a_report_is_not_filed_while_the_cage_still_holds_cash_not_deposited():
    # The worked example as it is: its bank counted $180 at the close, never deposited.
    event = import_records(copy.deepcopy(EXAMPLE))
    confirm_the_deposit(event)
    certify(event)
    assert state_of(event).missing == [
        "cash still held at the cage, not deposited to the trust account: $180.00",
    ]
    with refuses("filing.incomplete") as refused:
        report_file(event=event, person=event.people.get(code="ann"), filed_on=TODAY)
    assert "cash still held at the cage, not deposited to the trust account: $180.00" in str(refused.value)
    assert not ReportFiling.objects.exists()


def test_a_report_filed_after_its_due_date_says_how_late_and_a_changed_figure_marks_the_old_signatures(
    client,
    tmp_path,
    poppler,  # noqa: F811
):
    event = example()
    due = event.last_day + datetime.timedelta(days=30)
    report_due_set(event=event, due_on=due)
    confirm_the_deposit(event)
    certify(event)
    # A payee corrected after they signed: the page marks each signature as given to other figures.
    expense = Slip.objects.filter(event=event, slip_type="expense").order_by("pk").first()
    gus = people(event)["gus"]
    cheque_enter(expense=expense, number="101", written_on=datetime.date(2026, 9, 12), payee="NGS Ltd.", person=gus)
    assert client.login(username="ann", password=PASSWORD)
    page = client.get(reverse("reports:event", args=[SLUG])).content.decode()
    assert page.count("(before the figures changed: to sign again)") == 3
    assert "those signatures do not cover the figures shown here; each signs again." in page
    certify(event)
    report_file(event=event, person=gus, filed_on=TODAY)
    late = (TODAY - due).days
    page = client.get(reverse("reports:event", args=[SLUG])).content.decode()
    assert f"It was due on {due.isoformat()}: filed {late} days late." in page
    assert "(before the figures changed" not in page
    text = " ".join(" ".join(render(SLUG, tmp_path)).split())
    assert f"It was due on {due.isoformat()}: filed {late} days late." in text


def test_one_signature_given_too_early_is_spoken_of_alone_and_the_page_asks_to_sign_last(client):
    event = example()
    report_sign(event=event, person=people(event)["cora"])
    # The General Cashier, who cannot name the trust account, is told who does.
    assert client.login(username="gus", password=PASSWORD)
    trust = reverse("reports:trust", args=[SLUG])
    assert "The DRIC or the licensee's administrator names it" in client.get(trust).content.decode()
    client.logout()
    assert client.login(username="ann", password=PASSWORD)
    assert 'id="trust-account-who"' not in client.get(trust).content.decode()  # she has the form
    url = reverse("reports:event", args=[SLUG])
    page = " ".join(client.get(url).content.decode().split())
    # Nothing of the trust account is entered yet: signing now would have to be done again.
    assert 'id="sign-report"' in page and 'id="sign-last"' in page
    assert "Sign once nothing is missing for the filing (below)" in page
    confirm_the_deposit(event)
    page = " ".join(client.get(url).content.decode().split())
    assert "that signature does not cover the figures shown here; it is given again." in page
    assert "Cora Singh (Chip Cashier" in page and 'id="sign-last"' not in page
