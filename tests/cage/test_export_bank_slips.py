"""The trust account and the bank deposit slips travel in the records file (extensions): an archived
export re-imports into an empty database with the same report, and a file's bank slips are held to
the trust account page's rules."""

import copy
import datetime
import json

import pytest

from cage.exporter import export_event
from cage.importer import ImportFailed, import_records
from cage.models import BankSlip, Cheque, Slip
from cage.services.bank_slips import bank_slip_check, bank_slip_enter
from cage.services.cheques import cheque_enter
from events.models import Event
from events.trust_account import trust_account_set
from reports.figures import event_figures
from tests.cage.test_export_records import export, state_in_fresh_database
from tests.conftest import EXAMPLES
from tests.databases import sqlite_url

pytestmark = pytest.mark.django_db


def example_with_its_bank_slip() -> Event:
    event = import_records(json.loads((EXAMPLES / "lakeside-one-day.json").read_text()))
    trust_account_set(
        event=event, bank="Caisse Desjardins", branch="Lakeside", last_four="4821", opening_balance=500_000
    )
    deposit = Slip.objects.get(event=event, slip_type="deposit")
    entered = bank_slip_enter(
        deposit=deposit,
        number="TD-558812",
        stamped_on=datetime.date(2026, 9, 12),
        person=event.people.get(code="gus"),
        at=datetime.datetime(2026, 9, 12, 14, 5, tzinfo=datetime.UTC),
    )
    bank_slip_check(
        bank_slip=entered,
        person=event.people.get(code="ann"),
        at=datetime.datetime(2026, 9, 12, 15, 0, tzinfo=datetime.UTC),
    )
    cheque_enter(
        expense=Slip.objects.filter(event=event, slip_type="expense").order_by("pk").first(),
        number="1001",
        written_on=datetime.date(2026, 9, 12),
        payee="Northern Gaming Supply Ltd.",
        person=event.people.get(code="gus"),
        at=datetime.datetime(2026, 9, 12, 16, 0, tzinfo=datetime.UTC),
    )
    return Event.objects.get(pk=event.pk)


def test_the_trust_account_and_a_checked_bank_slip_come_back_the_same(tmp_path):
    event = example_with_its_bank_slip()
    data = export(event.slug, tmp_path / "out.json")
    assert data["event"]["trust_account"] == {
        "bank": "Caisse Desjardins",
        "branch": "Lakeside",
        "last_four": "4821",
        "opening_balance": "5000.00",
    }
    deposit = next(r for r in data["days"][0]["records"] if r["type"] == "deposit")
    assert deposit["bank_slip"] == {
        "number": "TD-558812",
        "stamped_on": "2026-09-12",
        "entered_by": "gus",
        "entered_at": "2026-09-12T10:05:00",
        "checked_by": "ann",
        "checked_at": "2026-09-12T11:00:00",
    }
    expense = next(r for r in data["days"][0]["records"] if r["type"] == "expense")
    assert expense["cheque"] == {
        "number": "1001",
        "written_on": "2026-09-12",
        "payee": "Northern Gaming Supply Ltd.",
        "entered_by": "gus",
        "entered_at": "2026-09-12T12:00:00",
    }
    report = event_figures(event)
    assert report["trust_account"]["deposits"][0]["confirmed"] is True
    after = state_in_fresh_database(sqlite_url(tmp_path), tmp_path / "out.json", event.slug)
    assert after["report"] == json.loads(json.dumps(report))


def exported() -> dict:
    data = export_event(example_with_its_bank_slip())
    data["event"]["slug"] = "lakeside-again"
    return data


def deposit_of(data) -> dict:
    return next(r for r in data["days"][0]["records"] if r["type"] == "deposit")


def expense_of(data) -> dict:
    return next(r for r in data["days"][0]["records"] if r["type"] == "expense" and "cheque" in r)


def problems_of(data) -> list[str]:
    with pytest.raises(ImportFailed) as failed:
        import_records(data)
    assert not Event.objects.filter(slug="lakeside-again").exists()
    return failed.value.problems


def test_an_expense_s_cheque_comes_back():
    again = import_records(exported())
    cheque = Cheque.objects.get(event=again)
    assert (cheque.number, cheque.payee, cheque.amount, cheque.entered_by.code) == (
        "1001",
        "Northern Gaming Supply Ltd.",
        6_000,
        "gus",
    )


def test_a_bank_slip_comes_back_entered_but_not_checked():
    data = exported()
    for key in ("checked_by", "checked_at"):
        del deposit_of(data)["bank_slip"][key]
    again = import_records(data)
    bank_slip = BankSlip.objects.get(event=again)
    assert (bank_slip.number, bank_slip.checked_by) == ("TD-558812", None)
    assert event_figures(again)["trust_account"]["deposits"][0]["confirmed"] is False


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda d: deposit_of(d)["bank_slip"].pop("checked_at"), "bank_slip: a deposit's"),
        (lambda d: d["days"][0]["records"][-1].update(bank_slip=deposit_of(d)["bank_slip"]), "bank_slip: a deposit's"),
        (lambda d: deposit_of(d)["bank_slip"].update(stamped_on="12/09/2026"), "'12/09/2026' is not an ISO date"),
        (lambda d: deposit_of(d)["bank_slip"].update(stamped_on="2026-09-10"), "is before Deposit 1, of 2026-09-11"),
        (lambda d: deposit_of(d)["bank_slip"].update(entered_by="ann"), "the General Cashier enters"),
        (lambda d: expense_of(d)["cheque"].pop("payee"), "cheque: an expense's"),
        (lambda d: deposit_of(d).update(cheque=expense_of(d)["cheque"]), "cheque: an expense's"),
        (lambda d: expense_of(d)["cheque"].update(written_on="2026-09-10"), "is dated from its gaming day"),
        (lambda d: d["event"].update(trust_account={"bank": "TD"}), "event.trust_account: trust_account:"),
        (
            lambda d: d["event"].update(trust_account={"bank": "TD", "branch": "Main", "last_four": "48"}),
            "four digits and nothing else",
        ),
        (lambda d: d["event"]["trust_account"].update(opening_balance="-5"), "opening_balance: '-5' is not written"),
        # $10 before the event, the $1,000 float out and back: the $60 cheque is more than it holds.
        (
            lambda d: d["event"]["trust_account"].update(opening_balance="10"),
            "cheque 1001 for Expense 1: a cheque of $60.00 for Expense 1 is more than the trust account holds, $10.00",
        ),
        (
            lambda d: d["event"]["trust_account"].pop("opening_balance"),
            "enters the trust account's opening balance first",
        ),
    ],
)
def test_a_bad_bank_slip_or_trust_account_in_a_file_is_refused_naming_the_rule(change, problem):
    data = exported()
    change(data)
    problems = problems_of(copy.deepcopy(data))
    assert any(problem in p for p in problems), problems
