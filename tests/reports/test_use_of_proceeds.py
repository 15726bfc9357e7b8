"""The use of the net proceeds (T&C 1.3, 2.7): the charitable purposes the licence approved, the
cheques from the trust account that used the proceeds for them, and what remains, on the trust
account's page, the report page, the PDF (read back in English and French) and the JSON; a records
file carries them and an archived export re-imports with the same report."""

import datetime
import json

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEntry
from cage.exporter import export_event
from cage.importer import ImportFailed, import_records
from cage.models import Cheque, Slip
from cage.services.cheques import cheque_enter, disbursement_enter
from events.models import ApprovedPurpose, Event
from events.proceeds import purpose_add, purpose_correct
from events.trust_account import trust_account_set
from reports.figures import event_figures
from tests.cage.test_export_records import export, state_in_fresh_database
from tests.conftest import PASSWORD
from tests.databases import sqlite_url
from tests.refusals import refuses
from tests.reports.test_exports import poppler  # noqa: F401  (the fixture that skips without poppler-utils)
from tests.reports.test_financial_report import SLUG, example, lines_of, pdf_pages, render

pytestmark = pytest.mark.django_db
WRITTEN = datetime.date(2026, 9, 14)


def with_the_account(event) -> Event:
    # $100 before the event: the $1,000 float out and back leaves $100 to draw on.
    trust_account_set(
        event=event, bank="Caisse Desjardins", branch="Lakeside", last_four="4821", opening_balance=10_000
    )
    return Event.objects.get(pk=event.pk)


GUS = object()  # the General Cashier, unless another (or nobody) is named


def give(event, purpose, amount, number, person=GUS, **more):
    return disbursement_enter(
        purpose=purpose,
        number=number,
        written_on=more.pop("written_on", WRITTEN),
        payee=more.pop("payee", "Lakeside Food Bank"),
        amount=amount,
        person=event.people.get(code="gus") if person is GUS else person,
        **more,
    )


def test_approved_purposes_are_entered_once_each_as_the_licence_words_them():
    event = example()
    food = purpose_add(event=event, name="  Lakeside   Food Bank ")
    assert food.name == "Lakeside Food Bank"
    for again in ("Lakeside Food Bank", "lakeside food bank "):
        with refuses("purpose.already") as refused:
            purpose_add(event=event, name=again)
    assert "lakeside food bank is already an approved purpose of this event" in str(refused.value)
    for name in ("", "   ", "x" * 201):
        with refuses("purpose.name"):
            purpose_add(event=event, name=name)
    assert list(ApprovedPurpose.objects.filter(event=event).values_list("name", flat=True)) == ["Lakeside Food Bank"]


def test_a_mistyped_purpose_is_corrected_to_the_licence_s_words_and_its_cheques_follow():
    event = with_the_account(example())
    food = purpose_add(event=event, name="Lakeside Food Bnak")
    hockey = purpose_add(event=event, name="Youth hockey")
    give(event, food, 4_000, "2001")
    for name in ("youth HOCKEY", "Youth hockey"):
        with refuses("purpose.already"):
            purpose_correct(purpose=food, name=name)
    with refuses("purpose.name"):
        purpose_correct(purpose=food, name="  ")
    assert ApprovedPurpose.objects.get(pk=food.pk).name == "Lakeside Food Bnak"
    corrected = purpose_correct(purpose=food, name=" Lakeside  Food Bank")
    assert (corrected.pk, corrected.name) == (food.pk, "Lakeside Food Bank")
    # Its own name in other letters' case is no other purpose's.
    assert purpose_correct(purpose=hockey, name="Youth Hockey").name == "Youth Hockey"
    used = event_figures(event)["trust_account"]["use_of_proceeds"]["purposes"]
    assert [(p["name"], p["disbursed"]) for p in used] == [("Lakeside Food Bank", "40.00"), ("Youth Hockey", "0.00")]
    entry = AuditEntry.objects.get(event=event, action="purpose_corrected", new__name="Lakeside Food Bank")
    assert (entry.old, entry.new) == ({"name": "Lakeside Food Bnak"}, {"name": "Lakeside Food Bank"})


def test_a_cheque_for_an_approved_purpose_is_held_to_the_register_s_rules():
    event = with_the_account(example())
    food = purpose_add(event=event, name="Lakeside Food Bank")
    for person in (event.people.get(code="ann"), event.people.get(code="cora"), None):
        with refuses("cheque.not_general_cashier"):
            give(event, food, 4_000, "2001", person=person)
    with refuses("disbursement.amount"):
        give(event, food, 0, "2001")
    for written_on in (datetime.date(2026, 9, 10), timezone.localdate() + datetime.timedelta(days=1)):
        with refuses("disbursement.written_on"):
            give(event, food, 4_000, "2001", written_on=written_on)
    with refuses("cheque.payee_missing"):
        give(event, food, 4_000, "2001", payee=" ")
    # The account holds $100: $40 for the food bank, then the expense's $60 cheque takes the rest.
    cheque = give(event, food, 4_000, "2001")
    assert (cheque.amount, cheque.purpose, cheque.expense) == (4_000, food, None)
    expense = Slip.objects.filter(event=event, slip_type="expense").order_by("pk").first()
    with refuses("cheque.number_used") as refused:
        cheque_enter(expense=expense, number="2001", written_on=WRITTEN, payee="NGS", person=cheque.entered_by)
    assert "cheque 2001 already pays Lakeside Food Bank" in str(refused.value)
    cheque_enter(expense=expense, number="1001", written_on=WRITTEN, payee="NGS", person=cheque.entered_by)
    with refuses("cheque.more_than_held") as refused:
        give(event, food, 100, "2002")
    assert "is more than the trust account holds, $0.00" in str(refused.value)
    # Corrected to less: its own $40 is set aside before the account's balance is checked.
    corrected = give(event, food, 3_000, "2001", cheque=cheque, payee="Lakeside Food Bank Inc.")
    assert (corrected.pk, corrected.amount, Cheque.objects.count()) == (cheque.pk, 3_000, 2)
    with refuses("disbursement.not_one"):
        give(event, food, 1_000, "1001", cheque=Cheque.objects.get(number="1001"))


def test_the_page_takes_the_purposes_and_their_cheques_and_the_report_shows_what_remains(client):
    with_the_account(example())
    trust = reverse("reports:trust", args=[SLUG])
    client.login(username="ann", password=PASSWORD)
    page = client.get(trust).content.decode()
    assert 'id="no-purposes"' in page and 'id="disbursement-form"' not in page
    refused = client.post(reverse("reports:purpose", args=[SLUG]), {"name": " "})
    assert refused.status_code == 200 and not ApprovedPurpose.objects.exists()
    client.post(reverse("reports:purpose", args=[SLUG]), {"name": "Lakeside Food Bank"})
    food = ApprovedPurpose.objects.get()
    client.logout()
    client.login(username="gus", password=PASSWORD)
    data = {
        "disbursement-purpose": food.pk,
        "disbursement-number": "2001",
        "disbursement-written_on": WRITTEN.isoformat(),
        "disbursement-payee": "Lakeside Food Bank",
        "disbursement-amount": "150.00",
    }
    refused = client.post(reverse("reports:disbursement", args=[SLUG]), data)
    text = refused.content.decode()
    assert refused.status_code == 200 and "is more than the trust account holds, $100.00" in text
    assert 'value="150.00"' in text and not Cheque.objects.exists()
    response = client.post(reverse("reports:disbursement", args=[SLUG]), {**data, "disbursement-amount": "35"})
    assert response.status_code == 302 and Cheque.objects.get().amount == 3_500
    page = client.get(trust).content.decode()
    assert "Lakeside Food Bank" in page and "$35.00" in page and 'id="disbursement-form-' in page
    client.logout()
    client.login(username="ann", password=PASSWORD)
    correct = reverse("reports:purpose_correct", args=[SLUG, food.pk])
    page = client.get(trust).content.decode()
    assert f'action="{correct}"' in page and f'id="purpose-form-{food.pk}"' in page
    refused = client.post(correct, {f"purpose-{food.pk}-name": ""}).content.decode()
    assert "Not recorded" in refused and "an approved purpose is entered as the licence words it" in refused
    assert "<details open><summary>Correct Lakeside Food Bank to the licence" in refused
    response = client.post(correct, {f"purpose-{food.pk}-name": "Lakeside Food Bank Inc."})
    assert response.status_code == 302 and ApprovedPurpose.objects.get().name == "Lakeside Food Bank Inc."
    report = " ".join(client.get(reverse("reports:event", args=[SLUG])).content.decode().split())
    assert "Lakeside Food Bank Inc." in report
    # Net proceeds $95.00 (the worked example), $35.00 used, $60.00 still to use.
    assert 'less used for the approved purposes</th><td class="num">-$35.00' in report
    assert 'Net proceeds still to use</th><td class="num"><strong>$60.00</strong>' in report


def test_the_report_accounts_for_the_proceeds_in_english_and_french(tmp_path, poppler):  # noqa: F811
    event = with_the_account(example())
    lines = lines_of(render(SLUG, tmp_path))
    assert "No charitable purpose the licence approved is entered." in lines
    food = purpose_add(event=event, name="Lakeside Food Bank")
    purpose_add(event=event, name="Youth hockey equipment")
    give(event, food, 4_000, "2001")
    lines = lines_of(render(SLUG, tmp_path))
    for line in (
        "Lakeside Food Bank $40.00",
        "Youth hockey equipment $0.00",
        "2001 2026-09-14 Lakeside Food Bank Lakeside Food Bank $40.00",
        "less used for the approved purposes -$40.00",
        "Net proceeds still to use $55.00",
        "less cheques for the approved purposes -$40.00",
        "Balance the trust account must show $60.00",
    ):
        assert line in lines, line
    pdf = tmp_path / "rapport.pdf"
    call_command("event_report", SLUG, "--format", "pdf", "--lang", "fr", "--out", str(pdf))
    lines = lines_of(pdf_pages(pdf))
    for line in (
        "Utilisation du produit net",
        "moins le montant utilisé pour les fins approuvées -40,00 $",
        "Produit net restant à utiliser 55,00 $",
    ):
        assert line in lines, line
    use = event_figures(Event.objects.get(pk=event.pk))["trust_account"]["use_of_proceeds"]
    assert use == {
        "purposes": [
            {"name": "Lakeside Food Bank", "disbursed": "40.00"},
            {"name": "Youth hockey equipment", "disbursed": "0.00"},
        ],
        "disbursements": [
            {
                "number": "2001",
                "written_on": "2026-09-14",
                "payee": "Lakeside Food Bank",
                "amount": "40.00",
                "purpose": "Lakeside Food Bank",
            }
        ],
        "disbursed": "40.00",
        "remaining": "55.00",
    }


def test_the_purposes_and_their_cheques_come_back_from_an_archived_export(tmp_path):
    event = with_the_account(example())
    food = purpose_add(event=event, name="Lakeside Food Bank")
    give(event, food, 4_000, "2001", at=datetime.datetime(2026, 9, 14, 16, 0, tzinfo=datetime.UTC))
    data = export(event.slug, tmp_path / "out.json")
    assert data["event"]["approved_purposes"] == ["Lakeside Food Bank"]
    assert data["event"]["disbursements"] == [
        {
            "purpose": "Lakeside Food Bank",
            "number": "2001",
            "written_on": "2026-09-14",
            "payee": "Lakeside Food Bank",
            "amount": "40.00",
            "entered_by": "gus",
            "entered_at": "2026-09-14T12:00:00",
        }
    ]
    after = state_in_fresh_database(sqlite_url(tmp_path), tmp_path / "out.json", event.slug)
    assert after["report"] == json.loads(json.dumps(event_figures(event)))


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda e: e.update(approved_purposes="Food"), "event.approved_purposes: a list of names is required"),
        (lambda e: e.update(approved_purposes=["Food", "Food"]), "Food is already an approved purpose"),
        (lambda e: e["disbursements"][0].update(purpose="Other"), "its purpose one of approved_purposes"),
        (lambda e: e["disbursements"][0].update(amount="-4"), "is not written as plain digits"),
        (lambda e: e["disbursements"][0].update(amount="400"), "is more than the trust account holds, $100.00"),
    ],
)
def test_a_bad_purpose_or_disbursement_in_a_file_is_refused_naming_the_rule(change, problem):
    event = with_the_account(example())
    give(event, purpose_add(event=event, name="Food"), 4_000, "2001")
    data = export_event(event)
    data["event"]["slug"] = "lakeside-again"
    change(data["event"])
    with pytest.raises(ImportFailed) as failed:
        import_records(data)
    assert any(problem in p for p in failed.value.problems), failed.value.problems
    assert not Event.objects.filter(slug="lakeside-again").exists()
