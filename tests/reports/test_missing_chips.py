"""Chips missing from the supplier's count are pending until the supplier bills them, and its bill is
an expense once entered (cage-records/1: what the supplier bills for chips not returned is an
expense): marked on the expense slip, carried by the records file, and shown by the report."""

import json

import pytest
from django.urls import reverse

from cage.importer import ImportFailed, import_records
from cage.models import Slip
from events.models import Event
from events.trust_account import trust_account_set
from reports.figures import event_figures
from tests.cage.test_views import form, new_slip, signed_by
from tests.conftest import EXAMPLES, PASSWORD, give_login, login
from tests.reports.test_exports import poppler  # noqa: F401  (the fixture that skips without poppler-utils)
from tests.reports.test_financial_report import SLUG, render

pytestmark = pytest.mark.django_db

BILL = {
    "type": "expense",
    "at": "2026-09-11T23:57",
    "category": "supplier_equipment",
    "description": "Two $1 chips not returned",
    "cash": "2.00",
    "invoice": "NGS-5540",
    "missing_chips": True,
    "signed": {"approved_by": "ann"},
}


def example(*records) -> Event:
    """The worked example (two $1 chips missing from a count), with these records added to its day."""
    data = json.loads((EXAMPLES / "lakeside-one-day.json").read_text())
    day = data["days"][0]["records"]
    after = max(i for i, r in enumerate(day) if r["type"] == "expense") + 1
    day[after:after] = list(records)
    event = import_records(data)
    trust_account_set(event=event, bank="Caisse Desjardins", branch="Lakeside", last_four="4821", opening_balance=0)
    return Event.objects.get(pk=event.pk)


def test_missing_chips_are_pending_until_the_supplier_bills_them(tmp_path, poppler):  # noqa: F811
    event = example()
    assert event_figures(event)["trust_account"]["missing_chips"] == {
        "missing": "2.00",
        "billed": "0.00",
        "pending": "2.00",
    }
    lines = " ".join(" ".join(render(SLUG, tmp_path)).split())
    assert (
        "Chips missing from the supplier's count: $2.00; billed by the supplier as expenses: $0.00; pending until "
        "it bills them: $2.00." in lines
    )


def test_the_report_page_says_what_is_pending_as_the_pdf_does(client):
    example()
    give_login(Event.objects.get(slug=SLUG).people.get(code="ann"), "ann")
    assert client.login(username="ann", password=PASSWORD)
    page = client.get(reverse("reports:event", args=[SLUG])).content.decode()
    assert '<p id="missing-chips" class="error">Chips missing from the supplier&#x27;s count: $2.00;' in page


def test_the_supplier_s_bill_is_an_expense_and_leaves_nothing_pending(tmp_path, poppler):  # noqa: F811
    event = example(BILL)
    bill = Slip.objects.get(event=event, slip_type="expense", details__invoice="NGS-5540")
    assert bill.details["missing_chips"] is True
    figures = event_figures(event)
    assert figures["event_totals"]["expenses"] == "87.00"  # the example's $85.00 and the bill
    assert figures["trust_account"]["missing_chips"] == {"missing": "2.00", "billed": "2.00", "pending": "0.00"}
    lines = " ".join(" ".join(render(SLUG, tmp_path)).split())
    assert "billed by the supplier as expenses: $2.00; pending until it bills them: $0.00." in lines


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"category": "licence_fee"}, "a bill for chips missing from the supplier's count is the supplier's"),
        ({"missing_chips": "yes"}, "missing_chips: true or false, when present"),
        # An expense the file says the cage's cash paid: refused, never imported as paid by the trust account.
        ({"account": "bank_cash"}, "an expense is paid from the licensee's trust account by cheque, never with cash"),
    ],
)
def test_a_bad_bill_or_an_expense_paid_from_the_cage_in_a_file_is_refused_naming_the_rule(change, problem):
    with pytest.raises(ImportFailed) as failed:
        example(BILL | change)
    assert any(problem in p for p in failed.value.problems), failed.value.problems


def test_the_expense_form_marks_the_bill(client, cast):
    login(client, cast, "general_cashier")
    data = {
        "category": "supplier_equipment",
        "description": "Chips not returned",
        "cash": "4.00",
        "invoice": "NGS-1",
        "missing_chips": "on",
        **signed_by(cast, prepared_by="general_cashier", approved_by="dric"),
    }
    response = client.post(new_slip(cast.event.slug, "expense"), form(**data))
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert Slip.objects.get(event=cast.event, slip_type="expense").details["missing_chips"] is True
    refused = client.post(
        new_slip(cast.event.slug, "expense"), form(**(data | {"category": "advertising", "cash": "5.00"}))
    )
    assert refused.status_code == 200 and "is the supplier&#x27;s" in refused.content.decode()
    assert Slip.objects.filter(event=cast.event, slip_type="expense").count() == 1
    page = client.get(reverse("cage:slip", args=[cast.event.slug, Slip.objects.get(slip_type="expense").pk]))
    assert "chips missing from the supplier&#x27;s count" in page.content.decode()
