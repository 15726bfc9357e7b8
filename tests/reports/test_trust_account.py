"""The trust account and the bank's deposit slips (cage.services.bank_slips, events.trust_account; T&C 2.7):
the General Cashier enters each deposit's bank slip, the DRIC checks it, a deposit without one is
not yet confirmed; every refusal changes nothing."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEntry
from cage import services
from cage.models import BankSlip, Cheque
from cage.selectors.bank_slips import deposits_to_the_bank, expenses_by_cheque, trust_reconciliation, unconfirmed
from cage.services.bank_slips import bank_slip_check, bank_slip_enter
from cage.services.cheques import cheque_enter
from events.models import Event
from events.trust_account import trust_account_set
from tests.cage.helpers import stock
from tests.conftest import DAY, Client, login
from tests.refusals import refuses

STAMPED = DAY + datetime.timedelta(days=1)


def deposit(cast, cash=20_000, *, witnessed=True):
    signed = cast.signed(deposited_by="general_cashier", **({"witnessed_by": "dric"} if witnessed else {}))
    return services.deposit(day=cast.day, cash=cash, signed=signed, allow_pending=not witnessed)


@pytest.fixture
def deposits(cast):
    stock(cast, cash=100_000)
    return deposit(cast, 20_000), deposit(cast, 15_000)


def enter(cast, slip, number="BS-1001", stamped_on=STAMPED, person=None):
    return bank_slip_enter(deposit=slip, number=number, stamped_on=stamped_on, person=person or cast.general_cashier)


# --- the services -------------------------------------------------------------------------------


def test_a_deposit_is_confirmed_once_its_bank_slip_is_entered_and_checked(cast, deposits):
    first, second = deposits
    assert [(line.slip, line.cents, line.confirmed) for line in deposits_to_the_bank(cast.event)] == [
        (first, 20_000, False),
        (second, 15_000, False),
    ]
    entered = enter(cast, first, " BS  1001 ")
    assert (entered.number, entered.stamped_on, entered.entered_by) == ("BS 1001", STAMPED, cast.general_cashier)
    assert [line.slip for line in unconfirmed(cast.event)] == [first, second]  # entered, not checked yet
    bank_slip_check(bank_slip=entered, person=cast.dric)
    assert [line.slip for line in unconfirmed(cast.event)] == [second]
    assert list(
        AuditEntry.objects.filter(action__startswith="bank_slip").order_by("pk").values_list("action", "slip")
    ) == [
        ("bank_slip_entered", first.pk),
        ("bank_slip_checked", first.pk),
    ]


def test_the_general_cashier_corrects_a_bank_slip_until_the_dric_has_checked_it(cast, deposits):
    first, _ = deposits
    enter(cast, first, "BS-1001")
    corrected = enter(cast, first, "BS-1010", STAMPED + datetime.timedelta(days=1))
    assert BankSlip.objects.get().number == "BS-1010" == corrected.number
    entry = AuditEntry.objects.filter(action="bank_slip_entered").order_by("pk").last()
    assert entry.old["number"] == "BS-1001" and entry.new["number"] == "BS-1010"
    bank_slip_check(bank_slip=corrected, person=cast.dric)
    with refuses("bank_slip.checked"):
        enter(cast, first, "BS-1011")
    with refuses("bank_slip.checked"):
        bank_slip_check(bank_slip=corrected, person=cast.dric)
    assert BankSlip.objects.get().number == "BS-1010"


def test_a_bank_slip_number_used_twice_is_refused(cast, deposits):
    first, second = deposits
    enter(cast, first, "BS-1001")
    with refuses("bank_slip.number_used") as refused:
        enter(cast, second, "BS-1001")
    assert "bank slip BS-1001 is already entered for Deposit 1" in str(refused.value)
    assert "(T&C 2.7)" in str(refused.value)
    assert BankSlip.objects.count() == 1


@pytest.mark.parametrize(
    ("stamped_on", "number"),
    [(DAY - datetime.timedelta(days=1), "BS-1"), (None, "BS-1"), (STAMPED, "  "), (STAMPED, "9" * 41)],
)
def test_a_bank_slip_needs_its_number_and_a_date_from_the_deposits_day_to_today(cast, deposits, stamped_on, number):
    tomorrow = timezone.localdate() + datetime.timedelta(days=1)
    code = {None: "bank_slip.stamped_in_future"}.get(stamped_on, "bank_slip.stamped_before_deposit")
    code = code if number == "BS-1" else "bank_slip.number_missing"
    with refuses(code):
        enter(cast, deposits[0], number, stamped_on or tomorrow)
    assert not BankSlip.objects.exists()


def test_only_the_general_cashier_enters_and_only_the_dric_checks(cast, deposits):
    first, _ = deposits
    for person in (cast.dric, cast.chip_cashier, cast.auditor, None):
        with refuses("bank_slip.not_general_cashier"):
            enter(cast, first, person=person or cast.runner)
    entered = enter(cast, first)
    for person in (cast.general_cashier, cast.chip_cashier, cast.auditor):
        with refuses("bank_slip.not_dric"):
            bank_slip_check(bank_slip=entered, person=person)
    assert BankSlip.objects.get().checked_by is None


def test_only_a_deposit_made_has_a_bank_slip(cast, deposits):
    waiting = deposit(cast, 5_000, witnessed=False)  # the DRIC has not witnessed it: nothing moved yet
    sale = services.sale(
        day=cast.day, chips={"5": 2}, cash=1_000, signed=cast.signed(sold_by="chip_cashier"), allow_pending=True
    )
    for slip in (waiting, sale):
        with refuses("bank_slip.not_a_deposit"):
            enter(cast, slip)
    assert [line.slip for line in deposits_to_the_bank(cast.event)] == list(deposits)
    assert not BankSlip.objects.exists()


def test_the_trust_account_is_named_by_bank_branch_and_last_four_digits(cast):
    trust_account_set(event=cast.event, bank="Caisse Desjardins", branch="Lakeside", last_four="4821", by=cast.dric)
    event = Event.objects.get(pk=cast.event.pk)
    assert (event.trust_bank, event.trust_branch, event.trust_account_last_four) == (
        "Caisse Desjardins",
        "Lakeside",
        "4821",
    )
    for last_four, code in (("12345", "trust_account.last_four"), ("48a1", "trust_account.last_four"), ("", None)):
        with refuses(code or "trust_account.incomplete"):
            trust_account_set(event=cast.event, bank="Other bank", branch="Main", last_four=last_four)
    assert Event.objects.get(pk=cast.event.pk).trust_bank == "Caisse Desjardins"


# --- the page -----------------------------------------------------------------------------------


def trust_page(client, cast):
    return client.get(reverse("reports:trust", args=[cast.event.slug])).content.decode()


def test_the_general_cashier_enters_a_bank_slip_and_the_dric_checks_it_on_the_page(client, cast, deposits):
    first, second = deposits
    login(client, cast, "general_cashier")
    page = trust_page(client, cast)
    assert "2 deposits of 2 not yet confirmed" in page and f'id="bank-slip-form-{first.pk}"' in page
    assert "Checked against the stamped copy" not in page and 'id="trust-account-form"' not in page
    url = reverse("reports:bank_slip", args=[cast.event.slug, first.pk])
    prefix = f"bank-{first.pk}"
    response = client.post(
        url, {f"{prefix}-number": "BS-1001", f"{prefix}-stamped_on": STAMPED.isoformat()}, follow=True
    )
    assert "Bank slip BS-1001 entered for Deposit 1; the DRIC checks it against the stamped copy." in (
        response.content.decode()
    )
    # The same number for the second deposit: refused on the page, beside the form, nothing written.
    prefix = f"bank-{second.pk}"
    url = reverse("reports:bank_slip", args=[cast.event.slug, second.pk])
    refused = client.post(url, {f"{prefix}-number": "BS-1001", f"{prefix}-stamped_on": STAMPED.isoformat()})
    assert refused.status_code == 200
    assert "bank slip BS-1001 is already entered for Deposit 1" in refused.content.decode()
    assert BankSlip.objects.count() == 1
    client.logout()
    login(client, cast, "dric")
    page = trust_page(client, cast)
    bank_slip = BankSlip.objects.get()
    assert f'id="check-{bank_slip.pk}"' in page and 'id="bank-slip-form-' not in page
    client.post(reverse("reports:bank_slip_check", args=[cast.event.slug, bank_slip.pk]))
    page = trust_page(client, cast)
    assert "1 deposit of 2 not yet confirmed" in page and "Dric, " in page
    report = client.get(reverse("reports:event", args=[cast.event.slug])).content.decode()
    assert (
        "the trust account is not named; the trust account&#x27;s opening balance is not entered; no charitable "
        "purpose the licence approved is entered; cash still held at the cage, not deposited to the trust account: "
        "$650.00; deposits not yet confirmed by their bank slips: Deposit 2" in report
    )


def test_the_dric_names_the_trust_account_on_the_page_and_a_refusal_keeps_what_was_typed(client, cast):
    login(client, cast, "dric")
    assert 'id="trust-account-missing"' in trust_page(client, cast)
    url = reverse("reports:trust_account", args=[cast.event.slug])
    refused = client.post(url, {"trust_bank": "TD", "trust_branch": "Main St", "trust_account_last_four": "48"})
    page = refused.content.decode()
    assert "four digits and nothing else" in page and 'value="Main St"' in page
    assert Event.objects.get(pk=cast.event.pk).trust_bank == ""
    # A whole number pasted in reaches the rule whole (the field is not cut to four), and the
    # refusal neither shows it back nor keeps it on the audit trail.
    whole = "004812345678901"
    refused = client.post(url, {"trust_bank": "TD", "trust_branch": "Main St", "trust_account_last_four": whole})
    page = refused.content.decode()
    assert "the whole number is never entered" in page and 'maxlength="4"' not in page and whole not in page
    assert "Not recorded: the trust account is named by the last four digits" in page  # said at the top too
    assert Event.objects.get(pk=cast.event.pk).trust_account_last_four == ""
    assert not any(whole in str(e.__dict__) for e in AuditEntry.objects.filter(event=cast.event))
    client.post(url, {"trust_bank": "TD", "trust_branch": "Main St", "trust_account_last_four": "4821"})
    assert "TD, Main St: the account ending in 4821." in trust_page(client, cast)
    entries = AuditEntry.objects.filter(action="trust_account_set", event=cast.event)
    assert sorted(entries.values_list("outcome", flat=True)) == ["done", "refused", "refused"]


def test_the_page_in_french(cast, deposits):
    client = Client(HTTP_ACCEPT_LANGUAGE="fr-CA,fr;q=0.9")
    login(client, cast, "general_cashier")
    page = trust_page(client, cast)
    assert "Compte en fiducie et bordereaux de dépôt bancaires" in page
    assert "2 dépôts sur 2 ne sont pas encore confirmés" in page


def test_a_slip_of_another_event_is_not_found(client, cast, deposits):
    login(client, cast, "general_cashier")
    url = reverse("reports:bank_slip", args=[cast.event.slug, 999_999])
    assert client.post(url, {}).status_code == 404


NEW_EVENT = {
    "licensee": "Lakeside Agricultural Society",
    "slug": "spring-fair",
    "name": "Spring Fair Casino",
    "licence_number": "F-2027-0001",
    "authority": "agco",
    "venue": "Hall A",
    "first_day": "2027-05-01",
    "last_day": "2027-05-02",
    "supplier": "Northern Gaming Supply Ltd.",
    "games": ["blackjack"],
}


def test_the_trust_account_is_entered_with_the_event(client, admin_user):
    client.force_login(admin_user)
    url = reverse("events:create")
    refused = client.post(url, {**NEW_EVENT, "trust_bank": "TD", "trust_account_last_four": "4821"})
    assert "the trust account is named by its bank, its branch and the last four digits" in refused.content.decode()
    assert not Event.objects.filter(slug="spring-fair").exists()
    trust = {"trust_bank": "TD", "trust_branch": "Main St", "trust_account_last_four": "4821"}
    assert client.post(url, {**NEW_EVENT, **trust}).status_code == 302
    event = Event.objects.get(slug="spring-fair")
    assert (event.trust_bank, event.trust_branch, event.trust_account_last_four) == ("TD", "Main St", "4821")
    # Left empty, it is named later on the trust account's page.
    assert client.post(url, {**NEW_EVENT, "slug": "fall-fair"}).status_code == 302
    assert Event.objects.get(slug="fall-fair").trust_bank == ""


def test_the_report_s_due_date_is_entered_with_the_event(client, admin_user):
    client.force_login(admin_user)
    url = reverse("events:create")
    refused = client.post(url, {**NEW_EVENT, "report_due_on": "2027-04-30"})
    assert "is before its last day" in refused.content.decode()
    assert client.post(url, {**NEW_EVENT, "report_due_on": "2027-06-30"}).status_code == 302
    assert Event.objects.get(slug="spring-fair").report_due_on == datetime.date(2027, 6, 30)


# --- the cheque register ------------------------------------------------------------------------


@pytest.fixture
def expense(cast):
    stock(cast, cash=100_000)  # the float, paid from the trust account
    # $30 left in the trust account once the float is paid.
    trust_account_set(event=cast.event, bank="TD", branch="Main St", last_four="4821", opening_balance=103_000)
    return services.expense(
        day=cast.day,
        category="licence_fee",
        description="Licence fee",
        cash=2_500,
        invoice="LIC-1",
        signed=cast.signed(prepared_by="general_cashier", approved_by="dric"),
    )


def bag_fee(cast):
    """A second expense, of $12.50."""
    return services.expense(
        day=cast.day,
        category="bank_charges",
        description="Deposit bag fee",
        cash=1_250,
        invoice="BNK-7",
        signed=cast.signed(prepared_by="general_cashier", approved_by="dric"),
    )


def pay(cast, expense, number="1001", written_on=STAMPED, payee="AGCO", person=None):
    return cheque_enter(
        expense=expense, number=number, written_on=written_on, payee=payee, person=person or cast.general_cashier
    )


def test_an_expense_is_paid_by_a_cheque_of_its_own_entered_by_the_general_cashier(cast, expense):
    cheque = pay(cast, expense)
    assert (cheque.number, cheque.amount, cheque.payee, cheque.expense) == ("1001", 2_500, "AGCO", expense)
    assert [(line.slip, line.cents, line.cheque) for line in expenses_by_cheque(cast.event)] == [
        (expense, 2_500, cheque)
    ]
    corrected = pay(cast, expense, "1002", payee="Alcohol and Gaming Commission of Ontario")
    assert Cheque.objects.get().number == "1002" == corrected.number
    second = bag_fee(cast)
    with refuses("cheque.number_used") as refused:
        pay(cast, second, "1002")
    assert "cheque 1002 already pays Expense 1" in str(refused.value)
    for person in (cast.dric, cast.chip_cashier):
        with refuses("cheque.not_general_cashier"):
            pay(cast, second, "1003", person=person)
    for written_on in (DAY - datetime.timedelta(days=1), timezone.localdate() + datetime.timedelta(days=1)):
        with refuses("cheque.written_on"):
            pay(cast, second, "1003", written_on=written_on)
    with refuses("cheque.payee_missing"):
        pay(cast, second, "1003", payee=" ")
    with refuses("cheque.number_missing"):
        pay(cast, second, "")
    sale = services.sale(
        day=cast.day, chips={"5": 2}, cash=1_000, signed=cast.signed(sold_by="chip_cashier"), allow_pending=True
    )
    with refuses("cheque.not_an_expense"):
        pay(cast, sale, "1003")
    assert Cheque.objects.count() == 1


def test_a_cheque_is_never_for_more_than_the_trust_account_holds(cast, expense):
    Event.objects.filter(pk=cast.event.pk).update(trust_opening_balance=None)
    with refuses("cheque.opening_balance_missing"):
        pay(cast, expense)
    trust_account_set(event=cast.event, bank="TD", branch="Main St", last_four="4821", opening_balance=103_000)
    pay(cast, expense)  # $25.00 of the $30.00 held
    pay(cast, expense, payee="AGCO, Toronto")  # its own correction: the same $25.00, not $50.00
    second = bag_fee(cast)
    with refuses("cheque.more_than_held") as refused:
        pay(cast, second, "1002")
    assert "a cheque of $12.50 for Expense 2 is more than the trust account holds, $5.00" in str(refused.value)
    assert Cheque.objects.count() == 1
    # A deposit from the cage reaches the account: it then holds enough.
    deposit(cast, cash=20_000)
    pay(cast, second, "1002")
    account = trust_reconciliation(cast.event)
    assert (account.opening, account.floats, account.deposits, account.cheques, account.balance) == (
        103_000,
        100_000,
        20_000,
        3_750,
        19_250,
    )


def test_the_general_cashier_enters_a_cheque_on_the_page(client, cast, expense):
    login(client, cast, "general_cashier")
    page = trust_page(client, cast)
    assert "no cheque entered yet" in page and f'id="cheque-form-{expense.pk}"' in page
    url = reverse("reports:cheque", args=[cast.event.slug, expense.pk])
    prefix = f"cheque-{expense.pk}"
    data = {f"{prefix}-number": "1001", f"{prefix}-written_on": "2099-01-01", f"{prefix}-payee": "AGCO"}
    refused = client.post(url, data)
    assert (
        refused.status_code == 200 and "is dated from its gaming day (2026-09-11) to today" in refused.content.decode()
    )
    assert 'value="AGCO"' in refused.content.decode() and not Cheque.objects.exists()
    client.post(url, {**data, f"{prefix}-written_on": STAMPED.isoformat()})
    assert Cheque.objects.get().payee == "AGCO"
    client.logout()
    login(client, cast, "dric")
    page = trust_page(client, cast)
    assert "1001" in page and f'id="cheque-form-{expense.pk}"' not in page
