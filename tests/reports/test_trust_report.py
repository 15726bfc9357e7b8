"""The trust account and the bank deposit slips on the financial report (T&C 2.7), read back from
the PDF in English and in French: the worked example's deposit, not yet confirmed, then with its
bank slip entered by the General Cashier and checked by the DRIC, and the papers to send."""

import datetime
import json
import re
from html import unescape

import pytest
from django.core.management import call_command
from django.urls import reverse

from cage.models import Slip
from cage.services.bank_slips import bank_slip_check, bank_slip_enter
from cage.services.cheques import cheque_enter
from events.models import Event
from events.trust_account import trust_account_set
from reports.figures import event_figures
from tests.conftest import EXAMPLES, PASSWORD
from tests.reports.test_exports import poppler  # noqa: F401  (the fixture that skips without poppler-utils)
from tests.reports.test_financial_report import SLUG, example, lines_of, pdf_pages, render

pytestmark = pytest.mark.django_db
EXAMPLE_REPORT = json.loads((EXAMPLES / "lakeside-one-day.report.json").read_text())


def french(tmp_path) -> tuple[set[str], str]:
    """The French report's lines, and its text as one line (a long sentence wraps)."""
    pdf = tmp_path / "rapport.pdf"
    call_command("event_report", SLUG, "--format", "pdf", "--lang", "fr", "--out", str(pdf))
    pages = pdf_pages(pdf)
    return lines_of(pages), " ".join(" ".join(pages).split())


def test_a_deposit_without_its_bank_slip_is_not_yet_confirmed_and_the_report_says_so(tmp_path, poppler):  # noqa: F811
    event = example()
    trust_account_set(
        event=event, bank="Caisse Desjardins", branch="Lakeside", last_four="4821", opening_balance=500_000
    )
    deposit = Slip.objects.get(event=event, slip_type="deposit")
    lines = lines_of(render(SLUG, tmp_path))
    assert "Trust account: Caisse Desjardins, Lakeside, the account ending in 4821." in lines
    assert "2026-09-11 Deposit 1 $1,000.00" in lines and "Deposit 1 not yet confirmed" in lines
    assert (
        "1 deposit not yet confirmed: the report cannot be filed until its bank slip is entered and checked." in lines
    )
    bank_slip = bank_slip_enter(
        deposit=deposit,
        number="TD-558812",
        stamped_on=datetime.date(2026, 9, 12),
        person=event.people.get(code="gus"),
    )
    lines = lines_of(render(SLUG, tmp_path))
    assert "Deposit 1 TD-558812 (not checked yet) 2026-09-12 Gus Tremblay" in lines
    assert (
        "1 deposit not yet confirmed: the report cannot be filed until its bank slip is entered and checked." in lines
    )
    bank_slip_check(bank_slip=bank_slip, person=event.people.get(code="ann"))
    expense = Slip.objects.filter(event=event, slip_type="expense").order_by("pk").first()
    cheque_enter(
        expense=expense,
        number="1001",
        written_on=datetime.date(2026, 9, 12),
        payee="Northern Gaming Supply Ltd.",
        person=event.people.get(code="gus"),
    )
    lines = lines_of(render(SLUG, tmp_path))
    assert "Deposit 1 TD-558812 2026-09-12 Gus Tremblay Ann Leblanc" in lines  # entered, then checked
    assert "1001 2026-09-12 Northern Gaming Supply Ltd. Expense 1 $60.00" in lines
    assert any("Expenses without the cheque that pays them: Expense 2" in line for line in lines)
    assert "Deposits, total $1,000.00" in lines
    assert "To send with this report: a copy of the bank-stamped deposit slip, number TD-558812." in lines
    # The bank reconciliation: $5,000 held before the event, the $1,000 float out, the $1,000 deposit
    # back, the one $60 cheque drawn so far (Expense 2 has none yet).
    for line in (
        "Opening balance of the trust account $5,000.00",
        "less floats paid to the cage -$1,000.00",
        "plus deposits from the cage $1,000.00",
        "less cheques paying expenses -$60.00",
        "less cheques for the approved purposes $0.00",
        "Balance the trust account must show $4,940.00",
    ):
        assert line in lines
    assert not any("not yet confirmed" in line for line in lines)
    lines, text = french(tmp_path)
    assert "Compte en fiducie : Caisse Desjardins, Lakeside, le compte se terminant par 4821." in lines
    assert "Dépôt 1 TD-558812 2026-09-12 Gus Tremblay Ann Leblanc" in lines
    assert "1001 2026-09-12 Northern Gaming Supply Ltd. Dépense 1 60,00 $" in lines
    assert (
        "À envoyer avec ce rapport : une copie du bordereau de dépôt estampillé par la banque, numéro TD-558812."
        in text
    )
    for line in (
        "Solde d’ouverture du compte en fiducie 5 000,00 $",
        "moins les fonds de caisse sortis du compte pour la caisse -1 000,00 $",
        "plus les dépôts de la caisse 1 000,00 $",
        "moins les chèques payant les dépenses -60,00 $",
        "Solde que le compte en fiducie doit afficher 4 940,00 $",
    ):
        assert line in lines


def test_the_report_json_carries_the_trust_account_as_an_extension_only_when_the_event_holds_one():
    event = example()
    assert "trust_account" not in event_figures(event)  # a records file of the format alone: its own report
    deposit = Slip.objects.get(event=event, slip_type="deposit")
    bank_slip_enter(
        deposit=deposit, number="TD-558812", stamped_on=datetime.date(2026, 9, 12), person=event.people.get(code="gus")
    )
    trust = event_figures(event)["trust_account"]
    assert trust.pop("use_of_proceeds")["purposes"] == []
    assert trust.pop("missing_chips") == {"missing": "2.00", "billed": "0.00", "pending": "2.00"}
    assert [(c["expense"], c["amount"], c["number"]) for c in trust.pop("cheques")] == [
        (1, "60.00", None),
        (2, "25.00", None),
    ]
    assert trust == {
        "bank": "",
        "branch": "",
        "last_four": "",
        "opening_balance": None,
        "floats": "1000.00",
        "cheques_total": "0.00",
        "balance": None,
        "deposits": [
            {
                "date": "2026-09-11",
                "slip": 1,
                "amount": "1000.00",
                "bank_slip": "TD-558812",
                "stamped_on": "2026-09-12",
                "confirmed": False,
            }
        ],
    }
    trust_account_set(
        event=event, bank="Caisse Desjardins", branch="Lakeside", last_four="4821", opening_balance=500_000
    )
    figures = event_figures(Event.objects.get(pk=event.pk))
    assert figures["trust_account"]["last_four"] == "4821"
    # The bank reconciliation: what the account held before, and what its statement must show.
    reconciled = {k: figures["trust_account"][k] for k in ("opening_balance", "floats", "cheques_total", "balance")}
    assert reconciled == {
        "opening_balance": "5000.00",
        "floats": "1000.00",
        "cheques_total": "0.00",
        "balance": "5000.00",
    }
    # A cheque entered is in the register, so in the figures the designated persons sign.
    expense = Slip.objects.filter(event=event, slip_type="expense").order_by("pk").first()
    cheque_enter(
        expense=expense,
        number="1001",
        written_on=datetime.date(2026, 9, 12),
        payee="Northern",
        person=event.people.get(code="gus"),
    )
    assert event_figures(event)["trust_account"]["cheques"][0] == {
        "date": "2026-09-11",
        "expense": 1,
        "amount": "60.00",
        "number": "1001",
        "written_on": "2026-09-12",
        "payee": "Northern",
    }
    # Every field the format defines is as it was.
    assert {key: figures[key] for key in EXAMPLE_REPORT} == EXAMPLE_REPORT


def test_the_day_s_expenses_are_on_its_sheets_with_their_invoices(client):
    example()
    assert client.login(username="ann", password=PASSWORD)
    page = client.get(reverse("reports:day", args=[SLUG, "2026-09-11"])).content.decode()
    sheet = re.search(r'id="sheet-expenses".*?</table>', page, re.S).group(0)
    text = " ".join(unescape(re.sub(r"<[^>]+>", " ", sheet)).split())
    assert "Table and wheel rental, one day NGS-5531 $60.00" in text
    assert "Licence fee LIC-0117 $25.00" in text and "Day's total $85.00" in text
